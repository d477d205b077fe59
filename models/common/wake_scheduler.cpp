#include "models/common/wake_scheduler.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "models/common/prefetch.h"

namespace gms {

void Wakeup::bind(WakeScheduler* shared, Fn fn, void* obj) {
  fn_ = fn;
  obj_ = obj;
  sched_ = shared ? shared : (own_ = new WakeScheduler(sc_core::sc_gen_unique_name("wake")));
  id_ = sched_->add(*this);
}

Wakeup::~Wakeup() {
  delete own_;
}

WakeScheduler::WakeScheduler(sc_core::sc_module_name name) : sc_core::sc_module(name) {}

void WakeScheduler::before_end_of_elaboration() {
  SC_HAS_PROCESS(WakeScheduler);
  if (waiting_allowed_) {
    SC_THREAD(run_thread);  // a context switch per batch: only for systems with a block that waits
  } else {
    SC_METHOD(run);
  }
  sensitive << ev_;
  dont_initialize();
}

void WakeScheduler::run_thread() {
  for (;;) {
    run();
    // A block waits delta cycles only: simulated time passing here would leave the rest of the batch and
    // every notification made in it at a stale `now`.
    if (sc_core::sc_time_stamp().value() != now_)
      throw std::logic_error(std::string(name()) + ": a block let simulated time pass inside its run (at " +
                             sc_core::sc_time_stamp().to_string() + ")");
    wait();  // the next notification of ev_
  }
}

uint64_t WakeScheduler::next_wake() const {
  if (!delta_.empty()) return now();
  uint64_t t = kNever;
  for (size_t k = 0; k < live_; ++k)
    if (buckets_[k].time < t && live(buckets_[k])) t = buckets_[k].time;
  return t;
}

uint32_t WakeScheduler::add(Wakeup& w) {
  clients_.push_back(&w);
  return uint32_t(clients_.size() - 1);
}

void WakeScheduler::add_to_bucket(uint64_t t, uint32_t id) {
  for (size_t k = live_; k-- > 0;)  // the newest instants are the likeliest
    if (buckets_[k].time == t) {
      buckets_[k].ids.push_back(id);
      return;
    }
  if (live_ == buckets_.size()) buckets_.emplace_back();
  Bucket& b = buckets_[live_++];
  b.time = t;
  b.ids.clear();
  b.ids.push_back(id);
}

bool WakeScheduler::live(const Bucket& b) const {
  for (uint32_t id : b.ids)
    if (clients_[id]->pending_ == b.time) return true;
  return false;
}

void WakeScheduler::drop(size_t k) {
  std::swap(buckets_[k], buckets_[--live_]);  // keeps the spare's storage for reuse
}

// As sc_event::notify for a method sensitive to the event: at most one pending notification, the
// earliest; a delta notification cancels a timed one; a timed one never overrides a delta one.
void WakeScheduler::notify_at(Wakeup& w, uint64_t t) {
  if (w.delta_) return;
  const uint64_t now = this->now();
  if (t <= now) {
    w.delta_ = true;
    w.delta_at_ = sc_core::sc_delta_count();
    w.pending_ = Wakeup::kNone;  // its timed entry, if any, goes stale
    delta_.push_back(&w);
    if (!in_run_ && !delta_armed_) {
      ev_.notify(sc_core::SC_ZERO_TIME);  // also cancels the event's timed notification
      delta_armed_ = true;
      armed_ = Wakeup::kNone;
    }
    return;
  }
  if (w.pending_ <= t) return;
  w.pending_ = t;
  add_to_bucket(t, w.id_);
  if (!in_run_ && !delta_armed_ && t < armed_) {
    ev_.notify(sc_core::sc_time::from_value(t - now));
    armed_ = t;
  }
}

void Wakeup::cancel() {
  sched_->cancel(*this);
}

void WakeScheduler::cancel(Wakeup& w) {
  if (w.delta_) {
    w.delta_ = false;
    for (size_t i = 0; i < delta_.size(); ++i)
      if (delta_[i] == &w) {
        delta_.erase(delta_.begin() + std::ptrdiff_t(i));
        break;
      }
  }
  w.pending_ = Wakeup::kNone;  // its bucket entry goes stale
  if (in_run_) return;         // run() re-arms when its batch is done
  // Re-arm from the blocks still due, so that the kernel has no event pending for the cancelled one.
  ev_.cancel();
  armed_ = Wakeup::kNone;
  delta_armed_ = false;
  now_ = sc_core::sc_time_stamp().value();
  arm(false);  // between kernel runs: nothing to pause
}

void WakeScheduler::run() {
  in_run_ = true;
  armed_ = Wakeup::kNone;
  delta_armed_ = false;
  now_ = sc_core::sc_time_stamp().value();
  batch_.clear();
  // Notified for this delta cycle (made in an earlier one); a later notification waits its turn.
  if (!delta_.empty()) {
    const uint64_t d = sc_core::sc_delta_count();
    size_t keep = 0;
    for (Wakeup* w : delta_) {
      if (w->delta_at_ < d) {
        w->delta_ = false;
        batch_.push_back(w);
      } else {
        delta_[keep++] = w;
      }
    }
    delta_.resize(keep);
  }
  // Due now: all of them trigger before any runs, as the kernel triggers every event of a time step.
  for (size_t k = 0; k < live_;) {
    Bucket& b = buckets_[k];
    if (b.time > now_) {
      ++k;
      continue;
    }
    for (uint32_t id : b.ids) {
      Wakeup* w = clients_[id];
      if (w->pending_ != b.time) continue;  // overridden by an earlier or a delta notification
      w->pending_ = Wakeup::kNone;          // (a duplicate of the same instant is stale now)
      batch_.push_back(w);
    }
    drop(k);
  }
  wake_ups_ += batch_.size();
  fire_batch();
  in_run_ = false;
  arm();
}

void WakeScheduler::fire_batch() {
  const size_t n = batch_.size();
  // The Wakeups themselves live in their blocks, as cold as the rest: fetched before stage 0 reads them.
  static constexpr size_t kWakeupAhead = 20;
  auto pre = [this](size_t j, unsigned stage) {
    Wakeup* w = batch_[j];
    if (w->pre_) w->pre_(w->obj_, stage);
  };
  if (n < kPrefetchMinBatch) {
    for (size_t i = 0; i < n; ++i) batch_[i]->fire();
    return;
  }
  static_assert(kPrefetchMinBatch >= kPrefetchAhead[0], "a hooked batch holds every stage's first blocks");
  for (unsigned s = 0; s < kPrefetchStages; ++s)  // the first blocks get what lead they can
    for (size_t j = 0; j < kPrefetchAhead[s]; ++j) pre(j, s);
  for (size_t i = 0; i < n; ++i) {
    if (i + kWakeupAhead < n) prefetch_hint(batch_[i + kWakeupAhead]);
    for (unsigned s = 0; s < kPrefetchStages; ++s)
      if (i + kPrefetchAhead[s] < n) pre(i + kPrefetchAhead[s], s);
    batch_[i]->fire();
  }
}

void WakeScheduler::arm(bool may_pause) {
  if (!delta_.empty()) {
    ev_.notify(sc_core::SC_ZERO_TIME);
    delta_armed_ = true;
    return;
  }
  for (;;) {  // the earliest instant that still has a block due
    size_t first = live_;
    for (size_t k = 0; k < live_; ++k)
      if (first == live_ || buckets_[k].time < buckets_[first].time) first = k;
    if (first == live_) {  // idle: no block is due
      if (pause_when_idle_ && may_pause) sc_core::sc_pause();
      return;
    }
    if (live(buckets_[first])) {
      armed_ = buckets_[first].time;
      ev_.notify(sc_core::sc_time::from_value(armed_ - now_));
      return;
    }
    drop(first);
  }
}

}  // namespace gms
