// `-w PATH`: a workload of any kind, recognised by content. A YAML document with top key `workload:`
// (synthetic, docs/workloads.md), a native trace (text or binary, by magic; docs/trace-format.md), or an
// Accel-Sim trace (kernelslist.g or its folder). Anything else is a ConfigError naming the file.
#pragma once
#include <memory>
#include <string>

#include "models/common/workload.h"

namespace gms {

enum class WorkloadKind { Yaml, NativeText, NativeBinary, AccelSim };
const char* to_string(WorkloadKind k);

// What the path holds; ConfigError when it is none of the above or cannot be read.
WorkloadKind detect_workload_kind(const std::string& path);
std::unique_ptr<Workload> load_any_workload(const std::string& path);

}  // namespace gms
