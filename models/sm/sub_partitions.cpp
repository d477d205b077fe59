#include "models/sm/sub_partitions.h"

namespace gms {

SubPartitions::SubPartitions(SchedulerKind kind, unsigned slots, unsigned count)
    : count_(count), parts_(count) {
  for (unsigned p = 0; p < count; ++p) {
    // Slots p, p + count, p + 2 count, ... below `slots`.
    const unsigned local = (slots + count - 1 - p) / count;
    parts_[p].readiness.ready.resize(local);
    parts_[p].readiness.age.assign(local, 0);
    parts_[p].scheduler = make_warp_scheduler(kind, local);
  }
}

int SubPartitions::pick() {
  for (unsigned k = 0; k < count_; ++k) {
    const unsigned p = (next_ + k) % count_;
    Part& part = parts_[p];
    if (!part.readiness.ready.any()) continue;
    const int local = part.scheduler->pick(part.readiness);
    if (local < 0) continue;
    next_ = (p + 1) % count_;
    return int(unsigned(local) * count_ + p);
  }
  return -1;
}

}  // namespace gms
