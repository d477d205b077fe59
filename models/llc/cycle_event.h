// The wake-up event of an event-driven block, notified by cycle number. It mirrors the kernel's rule that
// an event keeps only its earliest pending notification, so a request that the pending notification
// already covers is dropped here, before an sc_time is built and the kernel's event queue is touched:
// the kernel ends up in exactly the state the plain notify() would have left.
// The mirror is exact only for timed notifications made while no delta notification can be pending; a
// delta notification (the edge is now) makes it unsure until every notification made meanwhile has
// fired, and an unsure mirror drops nothing.
#pragma once
#include <systemc>

#include <algorithm>
#include <cstdint>

#include "models/common/clock.h"

namespace gms {

class CycleEvent {
 public:
  explicit CycleEvent(const Clock& clock) : clock_(clock) {}
  sc_core::sc_event& event() { return ev_; }

  // Notify for the edge starting cycle c (a delta notification if that edge is not in the future).
  void notify_at(uint64_t c) {
    const uint64_t now = Clock::now_ps(), t = c * clock_.period_ps();
    const bool sure = now != delta_ps_ && now >= unsure_until_ps_;
    if (sure && pending_ps_ > now && pending_ps_ <= t) return;  // the kernel would keep the pending one
    if (t <= now) {
      delta_ps_ = now;
      pending_ps_ = 0;  // a delta notification cancels a pending timed one
      ev_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    if (sure)
      pending_ps_ = t;
    else
      unsure_until_ps_ = std::max(unsure_until_ps_, t);
    ev_.notify(sc_core::sc_time(double(t - now), sc_core::SC_PS));  // as Clock::until(c)
  }

 private:
  const Clock& clock_;
  sc_core::sc_event ev_;
  uint64_t pending_ps_ = 0;         // sure: time of the kernel's pending notification (<= now: none)
  uint64_t delta_ps_ = UINT64_MAX;  // time of the last delta notification
  uint64_t unsure_until_ps_ = 0;    // latest notification made while unsure
};

}  // namespace gms
