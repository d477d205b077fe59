#include "tb/kernels/port_registry.h"

#include <stdexcept>

namespace gms::kernels {

void PortRegistry::add(PortInfo info) {
  const std::string name = info.name;
  if (!ports_.emplace(name, std::move(info)).second)
    throw std::logic_error("kernel port '" + name + "' added twice");
}

const PortInfo* PortRegistry::find(const std::string& name) const {
  auto it = ports_.find(name);
  return it == ports_.end() ? nullptr : &it->second;
}

std::vector<const PortInfo*> PortRegistry::all() const {
  std::vector<const PortInfo*> v;
  for (const auto& [name, info] : ports_) v.push_back(&info);
  return v;
}

const PortRegistry& PortRegistry::builtin() {
  static const PortRegistry r = [] {
    PortRegistry x;
    register_recorded_ports(x);
    register_rodinia_ports(x);
    register_polybench_ports(x);
    register_parboil_ports(x);
    register_sdk_ports(x);
    register_lonestar_ports(x);
    register_ispass_ports(x);
    register_shoc_ports(x);
    register_tango_ports(x);
    register_mars_ports(x);
    return x;
  }();
  return r;
}

}  // namespace gms::kernels
