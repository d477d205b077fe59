// Warp scheduler interface: each cycle pick one ready warp slot of the SM (LRR or GTO, papers 000-002).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/sm/slot_mask.h"
#include "models/sm/sm_params.h"

namespace gms {

// What the scheduler sees of the warp slots this cycle.
struct WarpReadiness {
  SlotMask ready;             // slots that can issue now
  std::vector<uint64_t> age;  // launch order of the warp in slot s (smaller = launched earlier)
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // A ready slot, or -1 when none is ready. Picking counts as issuing.
  virtual int pick(const WarpReadiness& w) = 0;
};

std::unique_ptr<WarpScheduler> make_warp_scheduler(SchedulerKind kind, unsigned slots);

}  // namespace gms
