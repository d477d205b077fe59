#include "models/analytic/core_model.h"

#include <algorithm>
#include <cmath>

namespace gms {

CoreModel::CoreModel(const RdParams& p, uint32_t id)
    : p_(p),
      id_(id),
      ways_(p.effective_ways()),
      lines_(p.lines()),
      stacks_(SetIndexer(p.set_index, p.sets(), p.line_bytes), p.effective_ways(), p.exact_global),
      latency_(p.miss_latency, p.sigma, p.seed, id),
      coalesce_(p.line_bytes) {}

void CoreModel::launch(std::unique_ptr<CtaWork> cta) {
  const uint32_t slot = uint32_t(cta_left_.size());
  cta_left_.push_back(uint32_t(cta->warps.size()));
  ++resident_;
  for (uint32_t i = 0; i < cta->warps.size(); ++i) {
    Warp w;
    w.stream = std::move(cta->warps[i]);
    w.cta_slot = slot;
    w.cta_id = cta->cta_id;
    w.index = i;
    ready_.push_back(uint32_t(warps_.size()));
    warps_.push_back(std::move(w));
  }
}

bool CoreModel::fetch(Warp& w) {
  WarpInst inst;
  while (w.stream->next(inst)) {
    ++counts_.instructions;
    counts_.thread_accesses += uint64_t(__builtin_popcount(inst.active_mask));
    const auto& ls = coalesce_.lines(inst);
    if (ls.empty()) continue;
    w.lines.assign(ls.begin(), ls.end());
    w.next = 0;
    w.store = inst.kind != MemKind::Load;
    w.max_latency = 0;
    w.first_try = kNever;
    return true;
  }
  w.lines.clear();
  w.next = 0;
  return false;
}

void CoreModel::retire(Warp& w) {
  w.stream.reset();
  if (--cta_left_[w.cta_slot] == 0) {
    --resident_;
    ++finished_now_;
  }
}

uint32_t CoreModel::step() {
  finished_now_ = 0;
  auto admit = [this] {
    while (!delayed_.empty() && delayed_.top().time <= t_) {
      ready_.push_back(delayed_.top().warp);
      delayed_.pop();
    }
  };
  admit();
  if (ready_.empty()) {
    if (delayed_.empty()) return 0;
    t_ = delayed_.top().time;  // nothing to issue until a warp returns
    admit();
  }
  const uint32_t wi = ready_.front();
  ready_.pop_front();
  Warp& w = warps_[wi];
  if (w.next >= w.lines.size() && !fetch(w)) {
    retire(w);
    return finished_now_;
  }
  while (w.next < w.lines.size()) {
    Issue r = issue(wi, w.lines[w.next], t_);
    ++t_;
    if (r == Issue::PutBack) {
      ready_.push_back(wi);
      return finished_now_;
    }
    ++w.next;
  }
  const uint64_t delay = p_.divergence ? uint64_t(std::ceil(p_.divergence_factor * w.max_latency)) : 0;
  if (delay == 0)
    ready_.push_back(wi);
  else
    delayed_.push({t_ - 1 + delay, delay_seq_++, wi});
  return finished_now_;
}

void CoreModel::apply_effects_before(uint64_t t) {
  while (effects_.due_before(t)) {
    const Effect e = effects_.top();
    effects_.pop();
    LineState& st = stacks_.state(e.slot);
    if (e.seq < st.evict_seq) continue;  // a later store removed the line
    stacks_.touch(e.slot);
    stacks_.state(e.slot).last_effect = e.time;
  }
}

void CoreModel::schedule_effect(uint64_t time, uint64_t seq, uint32_t slot) {
  // Due now and nothing else due by now: it would be the next one applied anyway.
  if (time == seq && (effects_.empty() || effects_.top().time > time)) {
    stacks_.touch(slot);
    stacks_.state(slot).last_effect = time;
    return;
  }
  effects_.push({time, seq, slot});
}

void CoreModel::release_mshrs(uint64_t t) {
  while (!releases_.empty() && releases_.top().time <= t) {
    const MshrRelease r = releases_.top();
    releases_.pop();
    LineState& st = stacks_.state(r.slot);
    if (st.fill_time != r.time) continue;
    st.fill_time = kNever;
    --mshr_used_;
    --warps_[st.mshr_warp].mshr;
  }
}

CoreModel::Issue CoreModel::issue(uint32_t wi, uint64_t line, uint64_t t) {
  apply_effects_before(t);
  Warp& w = warps_[wi];
  RdAccess a;
  a.time = t;
  a.core = id_;
  a.cta = w.cta_id;
  a.warp = w.index;
  a.line = line;
  a.store = w.store;
  if (!w.store) return load(wi, w, stacks_.slot(line), t, a);
  release_mshrs(t);
  ++counts_.stores;
  if (p_.stores_evict) {
    uint32_t s = stacks_.find(line);
    if (s != SetStacks::kNoSlot) {
      stacks_.remove(s);
      stacks_.state(s).evict_seq = t + 1;  // effects issued up to now are void (no fill of stale data)
    }
  }
  a.outcome = RdOutcome::Store;
  a.mshr_before = a.mshr_after = mshr_used_;
  if (obs_ && *obs_) (*obs_)(a);
  return Issue::Done;
}

CoreModel::Issue CoreModel::load(uint32_t wi, Warp& w, uint32_t s, uint64_t t, RdAccess& a) {
  const bool arrived = stacks_.state(s).fill_time == t;  // its fill lands in this very stamp
  release_mshrs(t);
  LineState& st = stacks_.state(s);
  a.mshr_before = mshr_used_;
  const StackLookup d = arrived ? StackLookup{0, 0} : stacks_.lookup(s);
  a.set_distance = d.set_distance;
  a.global_distance = d.global_distance;
  if (d.set_distance != kInfDistance && d.set_distance < ways_) {
    a.outcome = RdOutcome::Hit;
    a.latency = p_.hit_latency;
    a.effect_at = t + p_.hit_latency;
  } else if (st.fill_time != kNever) {  // in flight: a latency miss merges into its MSHR
    a.outcome = RdOutcome::Latency;
    a.effect_at = p_.clip ? st.fill_time : t + latency_.miss();
    a.latency = uint32_t(a.effect_at - t);
  } else {
    if ((p_.mshr_entries && mshr_used_ >= p_.mshr_entries) ||
        (p_.mshr_per_warp && w.mshr >= p_.mshr_per_warp)) {
      ++counts_.cancelled;
      if (w.first_try == kNever) w.first_try = t;
      a.outcome = RdOutcome::Cancelled;
      a.mshr_after = mshr_used_;
      if (obs_ && *obs_) (*obs_)(a);
      return Issue::PutBack;
    }
    a.outcome = classify_miss(st, d, lines_, w.first_try);
    a.latency = latency_.miss();
    a.effect_at = t + a.latency;
    st.fill_time = a.effect_at;
    st.mshr_warp = wi;
    ++mshr_used_;
    ++w.mshr;
    releases_.push({a.effect_at, s});
  }
  st.seen = true;
  w.first_try = kNever;
  w.max_latency = std::max(w.max_latency, a.latency);
  counts_.record(a.outcome, d.set_distance);
  a.mshr_after = mshr_used_;
  schedule_effect(a.effect_at, t, s);
  if (obs_ && *obs_) (*obs_)(a);
  return Issue::Done;
}

void CoreModel::end_kernel(bool flush) {
  apply_effects_before(kNever);
  while (!releases_.empty()) {
    stacks_.state(releases_.top().slot).fill_time = kNever;
    releases_.pop();
  }
  if (flush) stacks_.clear();
  warps_.clear();
  cta_left_.clear();
  ready_.clear();
  delayed_ = {};
  mshr_used_ = resident_ = 0;
}

RdCounts CoreModel::take_counts() {
  RdCounts c = std::move(counts_);
  counts_ = RdCounts();
  return c;
}

}  // namespace gms
