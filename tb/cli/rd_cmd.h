// gpumemsys rd: the analytical reuse-distance model of the L1 (paper 003, models/analytic) on a workload,
// with the cache taken from a system configuration. Options of its own (parsed here): --rd KEY=VALUE,
// --png, --sweep, --compare-sim. Bad input is a ConfigError (exit status 2).
#pragma once

namespace gms {

int run_rd_command(int argc, const char* const* argv);
const char* rd_usage();

}  // namespace gms
