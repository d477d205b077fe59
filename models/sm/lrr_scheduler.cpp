#include "models/sm/lrr_scheduler.h"

namespace gms {

int LrrScheduler::pick(const WarpReadiness& w) {
  // The first ready slot after last_, else the first from slot 0 (which reaches last_ itself).
  int s = last_ + 1 < slots_ ? w.ready.find_from(last_ + 1) : -1;
  if (s < 0) s = w.ready.find_from(0);
  if (s >= 0) last_ = unsigned(s);
  return s;
}

}  // namespace gms
