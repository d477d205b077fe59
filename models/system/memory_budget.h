// An up-front estimate of the memory a configured system needs, so that a configuration that cannot fit is
// refused with one clear message before anything is built (instead of std::bad_alloc, or swapping, halfway
// through elaboration).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/format_bytes.h"  // format_bytes, for callers
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

// The blocks' own structures, everything whose size follows the configuration: SM warp and CTA tables;
// each L1 design's arrays and tables (tag/data stores, TSC chunks, DSC tags and slots, the Decoupled L1D's
// tag store), MSHRs and queues; LLC tag, data, sector and replacement state, G-Cache victim bits, MSHR
// waiters and queues; the adaptive LLC's tag directory; DRAM queues and bank state; both NoC networks as
// the configured topology builds them (input buffers, router VC buffers, VC and switch allocators, ports,
// link and energy tables, per-router statistics); the payloads the blocks can hold in flight; and a
// measured fixed cost per block (module, sockets, statistics). Sizes come from the blocks' own footprint()
// functions and sizeof of their types where they have them. Measured peak RSS growth over the smallest
// system stays within [1x, 2x] of it (tests/cli/test_memory_budget.cpp). The data a workload touches
// (backing store, golden memory) and VCD tracing come on top.
MemoryEstimate estimate_memory(const SystemConfig& cfg);

struct MemoryLimit {
  uint64_t bytes = 0;
  std::string source;  // "system.memory_limit_mb", "physical memory", "address-space limit (ulimit -v)", ...
};

// system.memory_limit_mb if set, else the smaller of the machine's physical memory and the process's
// address-space and data-segment limits (setrlimit / ulimit).
MemoryLimit memory_limit(const SystemParams& p);

// What the process already holds of the resource `l` limits: its address space (ulimit -v), its data
// segment (ulimit -d), its resident memory (physical memory); 0 for system.memory_limit_mb, which bounds
// the system's own structures.
uint64_t memory_in_use(const MemoryLimit& l);

// The limit, the system's estimate and what the process held before the system was built: what is left is
// the workload's data allowance (backing store and golden memory pages, charged as they are made).
struct MemoryBudget {
  MemoryLimit limit;
  uint64_t estimate = 0, in_use = 0;
  // limit - in_use - estimate, less a reserve of limit/64 (at least 8 MiB, at most half of what is left)
  // for outputs and heap slack; 0 when the estimate and in_use exceed the limit.
  uint64_t data_bytes() const;
  uint64_t left() const;     // limit - in_use - estimate (0 when they exceed it)
  uint64_t reserve() const;  // the part of left() kept for outputs and heap slack
  // "the 64.0 MiB limit (system.memory_limit_mb) less 12.3 MiB estimated for the system's structures[,
  // 15.0 MiB in use before it was built] and 8.0 MiB kept for outputs"
  std::string data_text() const;
};

// Throws ConfigError naming the largest parts and their keys, the estimate and the limit, when the estimate
// plus what the process already holds (memory_in_use) exceeds the limit; else returns the budget.
MemoryBudget check_memory_budget(const SystemConfig& cfg);

}  // namespace gms
