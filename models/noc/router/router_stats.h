// Per-router activity: the event counts the NoC energy model multiplies by per-event energies
// (docs/blocks/noc.md "Energy"), and the counts the tests and statistics read.
#pragma once
#include <cstdint>

namespace gms {

struct RouterActivity {
  uint64_t buffer_writes = 0;  // flits written into input buffers
  uint64_t buffer_reads = 0;   // flits read out of input buffers
  uint64_t crossbar = 0;       // switch traversals
  uint64_t va_ops = 0;         // VC-allocator requests
  uint64_t sa_ops = 0;         // switch-allocator requests
  uint64_t bypassed = 0;       // flits through the bypass (gated MC-router)
};

}  // namespace gms
