// What the system builder hands every block besides its parameter struct: where to hang its statistics,
// whether to trace, the shared payload pool, the run's seed and the board of decisions one block makes
// for many. Passed explicitly: no global state.
#pragma once
#include <cstdint>

#include "models/common/decision_board.h"
#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/common/wake_scheduler.h"

namespace gms {

struct BlockEnv {
  StatGroup* stats = nullptr;            // parent group; the block adds a child group named like itself
  const TraceSelector* trace = nullptr;  // may be null: nothing traced
  PayloadPool* pool = nullptr;
  uint64_t seed = 1;
  WakeScheduler* wake = nullptr;       // shared timed wake-ups; null: each block makes its own
  DecisionBoard* decisions = nullptr;  // cross-block decisions (TSC+ mode, SM dueling); null: none wired

  VcdWriter* trace_file(const std::string& block) const { return trace ? trace->file_for(block) : nullptr; }
};

}  // namespace gms
