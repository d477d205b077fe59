#include "models/sm/gto_scheduler.h"

namespace gms {

int GtoScheduler::pick(const WarpReadiness& w) {
  if (greedy_ >= 0 && w.ready.test(unsigned(greedy_)) && w.age[unsigned(greedy_)] == greedy_age_)
    return greedy_;
  // Oldest ready slot; the lowest slot among equal ages.
  int best = -1;
  w.ready.for_each([&](uint32_t s) {
    if (best < 0 || w.age[s] < w.age[unsigned(best)]) best = int(s);
  });
  if (best >= 0) {
    greedy_ = best;
    greedy_age_ = w.age[unsigned(best)];
  }
  return best;
}

}  // namespace gms
