// The table printed at the end of a run, read from the statistics tree.
#pragma once
#include <ostream>

#include "models/common/stats.h"
#include "tb/system/gpu_system.h"

namespace gms {

void print_summary(std::ostream& os, const StatGroup& root, const RunResult& res,
                   const GoldenMemory* checker);

}  // namespace gms
