#include "models/sm/warp_scheduler.h"

#include "models/sm/gto_scheduler.h"
#include "models/sm/lrr_scheduler.h"

namespace gms {

std::unique_ptr<WarpScheduler> make_warp_scheduler(SchedulerKind kind, unsigned slots) {
  if (kind == SchedulerKind::Gto) return std::make_unique<GtoScheduler>(slots);
  return std::make_unique<LrrScheduler>(slots);
}

}  // namespace gms
