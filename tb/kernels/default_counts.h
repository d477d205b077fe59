// The warp instructions of every kernel port's default input, committed as data: `gpumemsys kernels` lists
// them without running anything, and a test recounts each one (a port whose default stream changes must
// change its row too).
#pragma once
#include <cstdint>
#include <string>

#include "models/common/workload.h"

namespace gms::kernels {

struct WarpInstCounts {
  uint64_t loads = 0, stores = 0, atomics = 0, barriers = 0;
  uint64_t compute = 0;  // the instructions between them (the gaps), as Nsight's inst_executed counts them
  uint64_t memory() const { return loads + stores + atomics; }
  uint64_t total() const { return memory() + barriers + compute; }
  bool operator==(const WarpInstCounts& o) const {
    return loads == o.loads && stores == o.stores && atomics == o.atomics && barriers == o.barriers &&
           compute == o.compute;
  }
};

// The recorded counts of port `port` at its default input, or null for a port without a row.
const WarpInstCounts* default_counts(const std::string& port);

// Pulls every stream of `w` (kernel after kernel, CTA after CTA, warp after warp) and counts them; `launches`
// gets the kernels.
WarpInstCounts count_warp_insts(Workload& w, uint64_t& launches);

}  // namespace gms::kernels
