// An up-front estimate of the memory a configured system needs, so that a configuration that cannot fit is
// refused with one clear message before anything is built (instead of std::bad_alloc, or swapping, halfway
// through elaboration).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/system/system_config.h"

namespace gms {

struct MemoryPart {
  std::string what;  // e.g. "L1 caches"
  std::string keys;  // the configuration keys that drive it, with their values
  uint64_t bytes = 0;
};

struct MemoryEstimate {
  std::vector<MemoryPart> parts;  // largest first
  uint64_t total = 0;
};

// The blocks' own structures (SM warp tables, L1 and LLC tag and data arrays and MSHRs, DRAM queues,
// crossbar state), a lower bound of what elaboration allocates. The data a workload touches (backing store,
// golden memory) comes on top.
MemoryEstimate estimate_memory(const SystemConfig& cfg);

struct MemoryLimit {
  uint64_t bytes = 0;
  std::string source;  // "system.memory_limit_mb", "physical memory", "address-space limit (ulimit -v)", ...
};

// system.memory_limit_mb if set, else the smaller of the machine's physical memory and the process's
// address-space and data-segment limits (setrlimit / ulimit).
MemoryLimit memory_limit(const SystemParams& p);

// Throws ConfigError naming the largest parts and their keys, the estimate and the limit, when the estimate
// exceeds the limit.
void check_memory_budget(const SystemConfig& cfg);

// "1.5 GiB", "320.0 MiB", "12.0 KiB".
std::string format_bytes(uint64_t bytes);

}  // namespace gms
