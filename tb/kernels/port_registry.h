// Kernel ports by name ("rodinia/bfs", "recorded/vecadd"), with what `gpumemsys kernels` lists about them.
// A port is one file under its suite's folder with a register_<suite>_<name>() function, called from the
// suite's register_<suite>_ports() (<suite>/<suite>.cpp).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "tb/kernels/kernel_port.h"

namespace gms::kernels {

struct PortInfo {
  std::string name;     // suite/benchmark
  std::string suite;    // "Rodinia 3.1", "recorded on H100", ...
  std::string source;   // the source version the port follows
  std::string input;    // the default input and how it was scaled
  std::string papers;   // the seeds that use the benchmark
  std::string kernels;  // the CUDA kernels it launches
  // Builds the port from its size keys (`size:` map of the workload file; every key read, finish() called
  // by the loader). ConfigError for a bad size.
  std::function<std::unique_ptr<KernelPort>(const ConfigNode& size)> make;
};

class PortRegistry {
 public:
  void add(PortInfo info);  // std::logic_error for a name taken twice
  const PortInfo* find(const std::string& name) const;
  std::vector<const PortInfo*> all() const;  // by name
  static const PortRegistry& builtin();

 private:
  std::map<std::string, PortInfo> ports_;
};

// One per suite folder.
void register_recorded_ports(PortRegistry& r);
void register_rodinia_ports(PortRegistry& r);
void register_polybench_ports(PortRegistry& r);
void register_parboil_ports(PortRegistry& r);
void register_sdk_ports(PortRegistry& r);
void register_lonestar_ports(PortRegistry& r);
void register_ispass_ports(PortRegistry& r);
void register_shoc_ports(PortRegistry& r);
void register_tango_ports(PortRegistry& r);
void register_mars_ports(PortRegistry& r);

}  // namespace gms::kernels
