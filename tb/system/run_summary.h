// The table printed at the end of a run, read from the statistics tree.
#pragma once
#include <ostream>

#include "models/common/stats.h"
#include "tb/system/gpu_system.h"

namespace gms {

void print_summary(std::ostream& os, const StatGroup& root, const RunResult& res,
                   const GoldenMemory* checker);

// Two rows: the up-front estimate of the system's memory (models/system/memory_budget.h, what
// system.memory_limit_mb is checked against) and the process's peak resident memory so far (getrusage), so
// a user can compare them (docs/config.md `memory_limit_mb`).
void print_memory_summary(std::ostream& os, const SystemConfig& cfg);

}  // namespace gms
