#include "models/noc/interconnect.h"

#include <stdexcept>
#include <string>

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
  return down[int(route(t, unsigned(port)))]->transport_dbg(t);
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
