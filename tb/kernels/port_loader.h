// Kernel ports as `-w` workloads (docs/kernels.md): a workload file whose `workload:` map names a `port:`,
// or the port's name on the command line (`-w rodinia/bfs`, sizes after a colon:
// `-w rodinia/bfs:nodes=4096,avg_degree=4`).
#pragma once
#include <memory>
#include <string>

#include "models/common/config.h"
#include "models/common/workload.h"

namespace gms::kernels {

// The `workload:` map of a port workload: port (a registered name), name (default: the port's), size (a
// map of the port's size keys; absent: its defaults), base (where its first array goes; default
// DeviceMemory::kDefaultBase). ConfigError naming the file, line and key for anything wrong.
std::unique_ptr<Workload> load_port_workload(const ConfigNode& workload);

// `NAME` or `NAME:key=value,key=value` with NAME a registered port; false for anything else.
bool is_port_reference(const std::string& arg);
// Throws ConfigError (naming the argument) for a bad size.
std::unique_ptr<Workload> load_port_reference(const std::string& arg);

}  // namespace gms::kernels
