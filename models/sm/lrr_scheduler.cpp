#include "models/sm/lrr_scheduler.h"

namespace gms {

int LrrScheduler::pick(const WarpReadiness& w) {
  for (unsigned i = 1; i <= slots_; ++i) {
    unsigned s = (last_ + i) % slots_;
    if (w.ready[s]) {
      last_ = s;
      return int(s);
    }
  }
  return -1;
}

}  // namespace gms
