// The wake-up of an event-driven block, notified by cycle number: the edge starting cycle c, or the next
// delta cycle when that edge is not in the future. The Wakeup keeps only the earliest pending request.
#pragma once
#include <cstdint>

#include "models/common/clock.h"
#include "models/common/wake_scheduler.h"

namespace gms {

class CycleEvent {
 public:
  explicit CycleEvent(const Clock& clock) : clock_(clock) {}
  void bind(WakeScheduler* shared, Wakeup::Fn fn, void* obj) { ev_.bind(shared, fn, obj); }
  void notify_at(uint64_t c) { ev_.notify_at_ps(clock_.edge_ps(c)); }

 private:
  const Clock& clock_;
  Wakeup ev_;
};

}  // namespace gms
