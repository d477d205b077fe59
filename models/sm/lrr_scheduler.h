// Loose round robin: the first ready slot after the last issued one, wrapping around.
#pragma once
#include "models/sm/warp_scheduler.h"

namespace gms {

class LrrScheduler : public WarpScheduler {
 public:
  explicit LrrScheduler(unsigned slots) : slots_(slots), last_(slots - 1) {}
  int pick(const WarpReadiness& w) override;

 private:
  unsigned slots_;
  unsigned last_;  // last issued slot; starts so that slot 0 is looked at first
};

}  // namespace gms
