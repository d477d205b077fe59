// `gpumemsys trace record`: freezes a workload into a native trace (docs/trace-format.md).
#pragma once
#include "tb/cli/cli_options.h"

namespace gms {

// Writes the trace and prints one summary line; returns the exit status. Bad input throws ConfigError.
int run_trace_record(const CliOptions& o);

}  // namespace gms
