// L1Pipeline: construction, the base-protocol sides and the per-cycle scheduler.
#include "models/l1/l1_pipeline.h"

#include <algorithm>

#include "models/common/payload_pool.h"
#include "models/common/prefetch.h"

namespace gms {

L1Pipeline::L1Pipeline(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env)
    : L1Cache(name, p, sm_id, env),
      mshr_(p.mshr_entries, p.mshr_max_merge),
      st_(stats_),
      up_([this](Payload& t, tlm::tlm_phase& ph,
                 sc_core::sc_time& d) { return tsock->nb_transport_bw(t, ph, d); },
          [this](Payload& t, const sc_core::sc_time& d) { return on_request(t, d); },
          [this] { on_sm_free(); }),
      down_([this](Payload& t, tlm::tlm_phase& ph,
                   sc_core::sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
            [this] { on_down_ready(); }, [this](Payload& t) { return on_down_response(t); }),
      miss_q_(p.miss_queue_entries),
      resp_q_(64),
      arrivals_(16) {
  if (!env.pool) throw std::invalid_argument(std::string(basename()) + ": BlockEnv without a payload pool");
  ev_.bind(
      env.wake, [](void* o) { static_cast<L1Pipeline*>(o)->process(); }, this);
  ev_.set_prefetch([](void* o, unsigned stage) { static_cast<const L1Pipeline*>(o)->prefetch(stage); });
  if (auto* tf = env.trace_file(basename())) {
    probe_mshr_.attach(tf, basename(), "mshr_occupancy");
    probe_hits_.attach(tf, basename(), "hits");
    probe_misses_.attach(tf, basename(), "misses");
    probe_partial_hits_.attach(tf, basename(), "partial_hits");
    probe_bypasses_.attach(tf, basename(), "bypasses");
    pulse_hit_.attach(tf, basename(), "hit");
    pulse_miss_.attach(tf, basename(), "miss");
    pulse_bypass_.attach(tf, basename(), "bypass");
  }
}

L1Pipeline::~L1Pipeline() = default;

// With 132 L1s (H100 preset) an L1's queues and the requests in them are cold in host caches whenever it
// runs: fetch the queue heads process() looks at, their payloads, a fill's MSHR bucket and tag set, and
// the requester's records a response will update.
void L1Pipeline::prefetch(unsigned stage) const {
  switch (stage) {
    case 0:
      prefetch_object(miss_q_);
      prefetch_object(resp_q_);
      prefetch_object(arrivals_);
      prefetch_lines(&mshr_, 64);
      break;
    case 1:
      if (!arrivals_.empty()) prefetch_hint(arrivals_.front_address());
      if (!miss_q_.empty()) prefetch_hint(miss_q_.front_address());
      if (!resp_q_.empty()) prefetch_hint(resp_q_.front_address());
      break;
    case 2:
      if (!arrivals_.empty()) PayloadPool::prefetch_header(arrivals_.front().t);
      if (!miss_q_.empty()) PayloadPool::prefetch_header(miss_q_.front().t);
      if (!resp_q_.empty()) PayloadPool::prefetch_header(resp_q_.front().t);
      break;
    default:
      // The records the answered requester will update (the SM's line slot, ...): a fill carries its first
      // requester's, whom it answers in the same run.
      for (const Payload* t :
           {arrivals_.empty() ? nullptr : arrivals_.front().t, resp_q_.empty() ? nullptr : resp_q_.front().t})
        if (const MemReq* r = t ? PayloadPool::pooled_req(*t) : nullptr)
          for (const void* p : r->origin_state)
            if (p) prefetch_hint(p);
      if (!arrivals_.empty()) {
        const uint64_t line = line_of(arrivals_.front().t->get_address());
        mshr_.prefetch(line);
        prefetch_lookup(line);
      }
      break;
  }
}

void L1Pipeline::wake_at(uint64_t cycle) {
  if (cycle >= scheduled_) return;  // an earlier (or the same) wake-up is pending
  scheduled_ = cycle;
  ev_.notify_at_ps(clk_.edge_ps(cycle));
}

bool L1Pipeline::on_request(Payload& t, const sc_core::sc_time& delay) {
  ++st_.requests;
  uint64_t now_ps = Clock::now_ps();
  bool on_edge = now_ps % clk_.period_ps() == 0;
  uint64_t c = clk_.next_edge_cycle();
  if (delay != sc_core::SC_ZERO_TIME) {
    uint64_t at_ps = now_ps + uint64_t(delay.to_seconds() * 1e12 + 0.5);
    c = (at_ps + clk_.period_ps() - 1) / clk_.period_ps();
  } else if (on_edge && c != last_access_cycle_ && scheduled_ != c) {
    if (try_access(t, c)) {
      schedule_next(c);
      return true;
    }
    held_ = &t;
    block_held(c);
    return false;
  }
  held_ = &t;  // probed by process() in cycle c (or the next one if c's access slot is taken)
  held_cycle_ = c == last_access_cycle_ ? c + 1 : c;
  wake_at(held_cycle_);
  return false;
}

bool L1Pipeline::on_down_response(Payload& t) {
  arrivals_.push_back({&t, clk_.cycle() + 1});
  wake_at(clk_.cycle() + 1);
  return true;  // always consumed: the fill port queue takes it
}

void L1Pipeline::on_down_ready() {
  send_free_cycle_ = clk_.cycle() + 1;
  unblock_held(send_free_cycle_);
  wake_at(send_free_cycle_);
}

void L1Pipeline::block_held(uint64_t fail_cycle) {
  held_blocked_ = true;
  held_failed_ = true;
  held_fail_cycle_ = fail_cycle;
  // The slot of a request already sent frees at a known cycle: no event will announce it, so retry then.
  if (held_cause_ == &st_.rf_miss_queue && send_free_cycle_ != kNever && send_free_cycle_ > fail_cycle)
    unblock_held(send_free_cycle_);
}

void L1Pipeline::unblock_held(uint64_t cycle) {
  if (!held_ || !held_blocked_) return;
  held_blocked_ = false;
  held_cycle_ = std::max(cycle, held_fail_cycle_ + 1);
  // Called from process() for an arrival in the current cycle: the held request is tried right after in
  // the same activation, so only later cycles need a wake-up.
  if (held_cycle_ > clk_.cycle()) wake_at(held_cycle_);
}

void L1Pipeline::count_skipped_retries(uint64_t now) {
  if (!held_failed_ || now <= held_fail_cycle_ + 1) return;
  const uint64_t skipped = now - held_fail_cycle_ - 1;
  st_.reservation_fails += skipped;
  st_.accesses += skipped;
  if (held_cause_) *held_cause_ += skipped;
}

// The freed channel is work only for a queued response: no wake-up for a cycle with nothing to do.
// (on_down_ready keeps its wake-up: it decides whether an SM request in that cycle is probed inline.)
void L1Pipeline::on_sm_free() {
  resp_free_cycle_ = clk_.cycle() + 1;
  if (!resp_q_.empty()) wake_at(std::max(resp_free_cycle_, resp_q_.front().cycle));
}

void L1Pipeline::process() {
  scheduled_ = kNever;
  const uint64_t now = clk_.cycle();
  if (!arrivals_.empty() && arrivals_.front().cycle <= now && arrival_free_cycle_ <= now) {
    Payload* a = arrivals_.front().t;
    arrivals_.pop_front();
    arrival_free_cycle_ = now + 1;
    handle_arrival(*a, now);
  }
  if (held_ && !held_blocked_ && held_cycle_ <= now && last_access_cycle_ != now) {
    Payload* t = held_;
    count_skipped_retries(now);
    if (try_access(*t, now)) {
      held_ = nullptr;
      held_failed_ = false;
      up_.accept(*t);  // END_REQ; the SM may send its next request from inside this call
    } else {
      block_held(now);
    }
  }
  if (!miss_q_.empty() && miss_q_.front().cycle <= now && send_free_cycle_ <= now) send_one(now);
  if (!resp_q_.empty() && resp_q_.front().cycle <= now && resp_free_cycle_ <= now) respond_one(now);
  schedule_next(now);
}

void L1Pipeline::send_one(uint64_t now) {
  Payload* t = miss_q_.front().t;
  miss_q_.pop_front();
  MemReq& r = req_of(*t);
  ++st_.to_l2_requests;
  st_.to_l2_packets += 1 + (t->is_write() ? uint64_t(popcount8(r.chunk_mask)) : 0);
  if (t->is_write()) st_.to_l2_bytes += uint64_t(popcount8(r.chunk_mask)) * kChunkBytes;
  send_free_cycle_ = kNever;  // until END_REQ
  if (down_.send(*t)) send_free_cycle_ = now + 1;
  unblock_held(now + 1);  // a miss-queue slot frees
}

void L1Pipeline::respond_one(uint64_t now) {
  Payload* t = resp_q_.front().t;
  resp_q_.pop_front();
  ++st_.responses;
  resp_free_cycle_ = kNever;  // until END_RESP
  if (up_.respond(*t)) resp_free_cycle_ = now + 1;
}

void L1Pipeline::schedule_next(uint64_t now) {
  uint64_t next = kNever;
  auto consider = [&](uint64_t c) { next = std::min(next, std::max(c, now + 1)); };
  if (!arrivals_.empty()) consider(std::max(arrivals_.front().cycle, arrival_free_cycle_));
  if (held_ && !held_blocked_) consider(held_cycle_);
  if (!miss_q_.empty() && send_free_cycle_ != kNever)
    consider(std::max(miss_q_.front().cycle, send_free_cycle_));
  if (!resp_q_.empty() && resp_free_cycle_ != kNever)
    consider(std::max(resp_q_.front().cycle, resp_free_cycle_));
  if (next != kNever) wake_at(next);
}

}  // namespace gms
