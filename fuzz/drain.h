// Pulls a workload the way the SM front end does (models/sm: CtaDispatcher, SmCore), so a fuzz harness
// reaches every decoder a real run reaches: kernels in order, each kernel's CTAs up to its grid, each CTA's
// warp streams to their end, and each instruction through the coalescer. Stops at a work cap, so a
// legal but huge grid is not mistaken for a hang.
#pragma once
#include <cstdint>

#include "models/common/workload.h"

namespace gms::fuzz {

struct DrainCaps {
  uint64_t kernels = 64;
  uint64_t ctas = 4096;
  uint64_t instructions = 200000;
};

struct DrainCounts {
  uint64_t kernels = 0, ctas = 0, instructions = 0, line_requests = 0;
};

// Bad input the SM would report as bad input (a kernel without CTAs or threads, a grid the kernel's CTAs
// run out before) is a ConfigError, as in a real run. Anything the SM would fail on or crash on with an
// accepted workload (a CTA with the wrong number of warp streams, a kind the SM does not model, a width the
// coalescer rejects) aborts: that is a finding.
DrainCounts drain_workload(Workload& w, const DrainCaps& caps = DrainCaps{});

}  // namespace gms::fuzz
