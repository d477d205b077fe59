// The SM's warp schedulers, one per sub-partition (processing block). Since Volta an SM is four
// sub-partitions, each with its own scheduler issuing from its own warps; warp slot s belongs to
// sub-partition s mod n (Volta/Hopper whitepapers; Accel-Sim's sub-core model does the same). The load-store
// pipeline they share takes one instruction at a time: the sub-partitions with a ready warp take turns
// (round robin), and each offers the warp its own policy (GTO or LRR) picks among its warps. With one
// sub-partition this is the single scheduler of the Fermi-class SM.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/sm/warp_scheduler.h"

namespace gms {

class SubPartitions {
 public:
  // `slots` warp slots split over `count` sub-partitions, each scheduled by `kind`.
  SubPartitions(SchedulerKind kind, unsigned slots, unsigned count);

  void set_ready(uint32_t slot) { part(slot).ready.set(slot / count_); }
  void reset_ready(uint32_t slot) { part(slot).ready.reset(slot / count_); }
  bool is_ready(uint32_t slot) const { return parts_[slot % count_].readiness.ready.test(slot / count_); }
  bool any_ready() const {
    for (const Part& p : parts_)
      if (p.readiness.ready.any()) return true;
    return false;
  }
  void set_age(uint32_t slot, uint64_t age) { part(slot).age[slot / count_] = age; }
  // The next sub-partition in turn that has a ready warp picks one: its slot, or -1 when none is ready.
  int pick();

 private:
  struct Part {
    WarpReadiness readiness;  // in local indices: slot / count
    std::unique_ptr<WarpScheduler> scheduler;
  };
  WarpReadiness& part(uint32_t slot) { return parts_[slot % count_].readiness; }
  unsigned count_;
  std::vector<Part> parts_;
  unsigned next_ = 0;  // the sub-partition whose turn it is
};

}  // namespace gms
