// Greedy then oldest: keep issuing the last issued warp while it is ready, else the oldest ready warp
// (earliest launched).
#pragma once
#include "models/sm/warp_scheduler.h"

namespace gms {

class GtoScheduler : public WarpScheduler {
 public:
  explicit GtoScheduler(unsigned /*slots: the readiness mask knows them*/) {}
  int pick(const WarpReadiness& w) override;

 private:
  int greedy_ = -1;          // slot issued last
  uint64_t greedy_age_ = 0;  // its launch order: a new warp in the same slot is not the same warp
};

}  // namespace gms
