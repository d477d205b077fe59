// Reads a workload document (top key `workload:`) into a SyntheticWorkload. Every key is type- and
// range-checked; unknown keys and patterns are ConfigErrors naming file:line: key path (docs/workloads.md
// lists the keys).
#pragma once
#include <memory>
#include <string>

#include "models/common/config.h"
#include "tb/workloads/pattern_registry.h"
#include "tb/workloads/synthetic_workload.h"

namespace gms {

// Addresses of synthetic workloads stay below 2^48 (the virtual address width of current GPUs).
constexpr uint64_t kWorkloadAddressLimit = uint64_t(1) << 48;

std::unique_ptr<SyntheticWorkload> load_synthetic_workload(
    const ConfigNode& root, const PatternRegistry& patterns = PatternRegistry::builtin());
std::unique_ptr<Workload> load_workload(const ConfigNode& root);
std::unique_ptr<Workload> load_workload_file(const std::string& path);

// The built-in workload `gpumemsys` runs without arguments (a streaming copy, then a hot/cold kernel that
// reads the copy's output), as YAML text and loaded.
const std::string& embedded_default_workload_yaml();
std::unique_ptr<Workload> load_default_workload();

}  // namespace gms
