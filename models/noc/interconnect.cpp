#include "models/noc/interconnect.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/common/line_pieces.h"
#include "models/noc/network_interconnect.h"

namespace gms {

Interconnect::Interconnect(sc_core::sc_module_name name, RouteFn route)
    : sc_core::sc_module(name), up("up"), down("down"), route_(std::move(route)) {
  if (!route_) throw std::invalid_argument(std::string(basename()) + ": no route function");
  up.register_nb_transport_fw(this, &Interconnect::fw_cb);
  up.register_b_transport(this, &Interconnect::b_cb);
  up.register_transport_dbg(this, &Interconnect::dbg_cb);
  up.register_get_direct_mem_ptr(this, &Interconnect::dmi_cb);
  down.register_nb_transport_bw(this, &Interconnect::bw_cb);
  down.register_invalidate_direct_mem_ptr(this, &Interconnect::invalidate_cb);
}

unsigned Interconnect::route(const Payload& t, unsigned up_port) {
  const unsigned r = route_(t, up_port);
  if (r >= down.size())
    throw std::out_of_range(std::string(name()) + ": route gives target " + std::to_string(r) + " but " +
                            std::to_string(down.size()) + " are bound");
  return r;
}

void Interconnect::up_b_transport(int port, Payload& t, sc_core::sc_time& d) {
  down[int(route(t, unsigned(port)))]->b_transport(t, d);
}

unsigned Interconnect::up_transport_dbg(int port, Payload& t) {
  const tlm::tlm_command cmd = t.get_command();
  if (cmd != tlm::TLM_READ_COMMAND && cmd != tlm::TLM_WRITE_COMMAND) return 0;
  if (!t.get_data_ptr()) return 0;
  // Each line to the slice that serves it; a write to every slice that may hold the line (when the
  // system gave debug targets).
  const unsigned done = for_each_line_piece(t, [&](Payload& piece) {
    dbg_targets_.clear();
    if (cmd == tlm::TLM_WRITE_COMMAND && debug_targets_)
      debug_targets_(piece.get_address(), unsigned(port), dbg_targets_);
    if (dbg_targets_.empty()) dbg_targets_.push_back(route(piece, unsigned(port)));
    unsigned got = 0;
    for (unsigned target : dbg_targets_) {
      if (target >= down.size())
        throw std::out_of_range(std::string(name()) + ": debug target " + std::to_string(target) + " of " +
                                std::to_string(down.size()));
      got = down[int(target)]->transport_dbg(piece);
    }
    return got;
  });
  if (done) t.set_response_status(tlm::TLM_OK_RESPONSE);
  return done;
}

bool Interconnect::dmi_cb(int, Payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();
  return false;
}

void Interconnect::invalidate_cb(int, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (unsigned i = 0; i < up.size(); ++i) up[int(i)]->invalidate_direct_mem_ptr(start, end);
}

std::unique_ptr<Interconnect> make_interconnect(const NocParams& p, sc_core::sc_module_name name,
                                                Interconnect::RouteFn route, const BlockEnv& env,
                                                unsigned slices_per_mc) {
  if (p.type == "full" || p.type == "crossbar" || p.type == "concentrated" || p.type == "hxbar")
    return std::make_unique<NetworkInterconnect>(name, p, std::move(route), env, slices_per_mc);
  throw ConfigError("noc.type: unknown interconnect type '" + p.type +
                    "' (known: full, crossbar, concentrated, hxbar)");
}

}  // namespace gms
