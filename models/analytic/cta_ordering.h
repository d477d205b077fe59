// Ordering of a kernel's CTAs over the cores (paper 003 sec. 4.1): the active set of a core is limited by
// the occupancy limits (CTAs, warps, threads, registers, shared memory per core); CTAs go round-robin over
// the cores until they are full (CTA0 -> core 0, CTA1 -> core 1, ...), then each further CTA goes to the
// core whose CTA finished first (first-done first-served), in time-stamp order over the cores.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/analytic/core_model.h"
#include "models/analytic/rd_params.h"
#include "models/common/workload.h"

namespace gms {

// CTAs of kernel `k` that fit one core at once (0: a CTA fits no core).
uint32_t ctas_per_core(const KernelInfo& k, const RdParams& p);

// Runs one kernel to completion on `cores`. Throws ConfigError when a CTA fits no core.
void run_kernel(KernelSource& kernel, const RdParams& p, std::vector<std::unique_ptr<CoreModel>>& cores);

}  // namespace gms
