#include "tb/kernels/port_loader.h"

#include "tb/kernels/port_registry.h"
#include "tb/kernels/port_workload.h"

namespace gms::kernels {

namespace {

constexpr uint64_t kAddressLimit = uint64_t(1) << 48;

std::vector<std::string> port_names() {
  std::vector<std::string> v;
  for (const PortInfo* p : PortRegistry::builtin().all()) v.push_back(p->name);
  return v;
}

std::unique_ptr<Workload> build(const PortInfo& info, const std::string& name, const ConfigNode& size,
                                uint64_t base) {
  std::unique_ptr<KernelPort> port = info.make(size);
  size.finish();
  return std::make_unique<PortWorkload>(name, std::move(port), base);
}

}  // namespace

std::unique_ptr<Workload> load_port_workload(const ConfigNode& w) {
  const std::string port = w.get_choice("port", "", port_names());
  const PortInfo& info = *PortRegistry::builtin().find(port);
  const std::string name = w.get_string("name", port);
  const uint64_t base = w.get_uint("base", DeviceMemory::kDefaultBase, 0, kAddressLimit - 1);
  if (base % 256) w.fail("base", "value must be a multiple of 256 (cudaMalloc's alignment)");
  const ConfigNode size = w.has("size") ? w.child("size") : ConfigNode::load_string("{}", w.file());
  if (w.has("size") && !size.is_map()) w.fail("size", "expected a map of the port's size keys");
  auto wl = build(info, name, size, base);
  w.finish();
  return wl;
}

bool is_port_reference(const std::string& arg) {
  return PortRegistry::builtin().find(arg.substr(0, arg.find(':'))) != nullptr;
}

std::unique_ptr<Workload> load_port_reference(const std::string& arg) {
  const size_t colon = arg.find(':');
  const std::string name = arg.substr(0, colon);
  const PortInfo* info = PortRegistry::builtin().find(name);
  if (!info) throw ConfigError("-w " + arg + ": no kernel port named '" + name + "'");
  // key=value,key=value as a YAML flow map: every value is checked by the port's typed getters.
  std::string yaml = "{";
  if (colon != std::string::npos) {
    const std::string list = arg.substr(colon + 1);
    size_t pos = 0;
    while (pos <= list.size()) {
      size_t end = list.find(',', pos);
      if (end == std::string::npos) end = list.size();
      const std::string item = list.substr(pos, end - pos);
      const size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        throw ConfigError("-w " + arg + ": '" + item + "' is not key=value");
      yaml += (yaml.size() > 1 ? ", " : "") + item.substr(0, eq) + ": " + item.substr(eq + 1);
      pos = end + 1;
    }
  }
  yaml += "}";
  const ConfigNode size = ConfigNode::load_string(yaml, "-w " + arg);
  return build(*info, name, size, DeviceMemory::kDefaultBase);
}

}  // namespace gms::kernels
