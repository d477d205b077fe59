#include "models/noc/noc_params.h"

namespace gms {

NocParams NocParams::from(const ConfigNode& n) {
  NocParams p;
  p.type = n.get_choice("type", p.type, {"full"});
  p.clock_mhz = n.get_double("clock_mhz", p.clock_mhz, 1.0, 100000.0);
  p.flit_bytes = uint32_t(n.get_pow2("flit_bytes", p.flit_bytes, 4, 256));
  p.ctrl_bytes = uint32_t(n.get_uint("ctrl_bytes", p.ctrl_bytes, 0, 256));
  p.input_buffer_flits = uint32_t(n.get_uint("input_buffer_flits", p.input_buffer_flits, 1, 4096));
  p.latency = uint32_t(n.get_uint("latency", p.latency, 1, 1000));
  p.arbiter = n.get_choice("arbiter", p.arbiter, {"rr"});
  // A packet must fit in one input buffer, or it could never be accepted (credit deadlock).
  if (p.input_buffer_flits < p.max_packet_flits())
    n.fail("input_buffer_flits",
           "value " + std::to_string(p.input_buffer_flits) + " cannot hold the largest packet (" +
               std::to_string(p.max_packet_flits()) + " flits of " + std::to_string(p.flit_bytes) + " B)");
  n.finish();
  return p;
}

}  // namespace gms
