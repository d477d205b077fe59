#include "models/sm/gto_scheduler.h"

namespace gms {

int GtoScheduler::pick(const WarpReadiness& w) {
  if (greedy_ >= 0 && w.ready[unsigned(greedy_)] && w.age[unsigned(greedy_)] == greedy_age_) return greedy_;
  int best = -1;
  for (unsigned s = 0; s < slots_; ++s)
    if (w.ready[s] && (best < 0 || w.age[s] < w.age[unsigned(best)])) best = int(s);
  if (best >= 0) {
    greedy_ = best;
    greedy_age_ = w.age[unsigned(best)];
  }
  return best;
}

}  // namespace gms
