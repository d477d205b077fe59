#include "models/noc/noc_params.h"

#include "models/noc/rtl/rtl_cosim.h"

namespace gms {

RouterParams RouterParams::from(const ConfigNode& n) {
  RouterParams p;
  p.vcs = uint32_t(n.get_uint("vcs", p.vcs, 1, 64));
  p.vc_buffer_flits = uint32_t(n.get_uint("vc_buffer_flits", p.vc_buffer_flits, 1, 4096));
  p.pipeline = uint32_t(n.get_uint("pipeline", p.pipeline, 1, 16));
  p.allocator = n.get_choice("allocator", p.allocator, {"islip", "rr"});
  p.iterations = uint32_t(n.get_uint("iterations", p.iterations, 1, 16));
  p.link_latency = uint32_t(n.get_uint("link_latency", p.link_latency, 0, 1000));
  n.finish();
  return p;
}

HxbarParams HxbarParams::from(const ConfigNode& n) {
  HxbarParams p;
  p.clusters = uint32_t(n.get_uint("clusters", p.clusters, 0, 4096));
  p.long_link_latency = uint32_t(n.get_uint("long_link_latency", p.long_link_latency, 0, 1000));
  p.gate.gate_cycles = uint32_t(n.get_uint("gate_cycles", p.gate.gate_cycles, 0, 1000000));
  p.gate.wake_cycles = uint32_t(n.get_uint("wake_cycles", p.gate.wake_cycles, 0, 1000000));
  n.finish();
  return p;
}

NocParams NocParams::from(const ConfigNode& n) {
  NocParams p;
  p.type = n.get_choice("type", p.type, {"full", "crossbar", "concentrated", "hxbar"});
  p.clock_mhz = n.get_double("clock_mhz", p.clock_mhz, 1.0, 100000.0);
  p.flit_bytes = uint32_t(n.get_pow2("flit_bytes", p.flit_bytes, 4, 256));
  p.ctrl_bytes = uint32_t(n.get_uint("ctrl_bytes", p.ctrl_bytes, 0, 256));
  p.input_buffer_flits = uint32_t(n.get_uint("input_buffer_flits", p.input_buffer_flits, 1, 4096));
  p.latency = uint32_t(n.get_uint("latency", p.latency, 1, 1000));
  p.arbiter = n.get_choice("arbiter", p.arbiter, {"rr", "rtl"});
  p.concentration = uint32_t(n.get_uint("concentration", p.concentration, 1, 1024));
  p.watchdog_cycles = n.get_uint("watchdog_cycles", p.watchdog_cycles, 0, UINT64_MAX);
  p.router = RouterParams::from(n.child("router"));
  p.hxbar = HxbarParams::from(n.child("hxbar"));
  p.energy = EnergyParams::from(n.child("energy"));
  // A packet must fit in one input buffer, or it could never be accepted (credit deadlock).
  if (p.input_buffer_flits < p.max_packet_flits())
    n.fail("input_buffer_flits",
           "value " + std::to_string(p.input_buffer_flits) + " cannot hold the largest packet (" +
               std::to_string(p.max_packet_flits()) + " flits of " + std::to_string(p.flit_bytes) + " B)",
           {n.key_path("flit_bytes"), n.key_path("ctrl_bytes")});
  if (p.arbiter == "rtl" && !rtl_cosim_available())
    n.fail(
        "arbiter",
        "value 'rtl': this build has no RTL co-simulation (Verilator was not found when CMake configured it; "
        "install verilator and reconfigure, docs/cosim.md)");
  if (p.arbiter == "rtl" && p.type != "full")
    n.fail("arbiter", "value 'rtl' needs type full (the router networks allocate with router.allocator)",
           {n.key_path("type")});
  n.finish();
  return p;
}

}  // namespace gms
