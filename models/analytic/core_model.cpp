#include "models/analytic/core_model.h"

#include <algorithm>
#include <cmath>

namespace gms {

CoreModel::CoreModel(const RdParams& p, uint32_t id)
    : p_(p),
      id_(id),
      ways_(p.effective_ways()),
      lines_(p.lines()),
      track_(p.tracks_sectors()),
      stacks_(SetIndexer(p.set_index, p.sets(), p.line_bytes), p.effective_ways(), p.exact_global),
      latency_(p.miss_latency, p.sigma, p.seed, id),
      coalesce_(p.line_bytes, track_ ? p.tracked_sector_bytes() : 0) {}

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

namespace {
// Active lanes (portable code: no popcnt instruction assumed, no libgcc call).
inline uint32_t lanes(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return (((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
}  // namespace

bool CoreModel::fetch(Warp& w) {
  WarpInst& inst = w.inst;
  while (w.stream->next(inst)) {
    if (inst.kind == MemKind::Barrier) continue;  // the model orders no warps: barriers are left out
    ++counts_.instructions;
    counts_.thread_accesses += lanes(inst.active_mask);
    if (track_)
      coalesce_.lines(inst, w.lines, w.sectors);
    else
      coalesce_.lines(inst, w.lines);  // into the warp's own buffer, reused
    if (w.lines.empty()) continue;
    w.next = 0;
    w.store = inst.kind != MemKind::Load;
    w.max_latency = 0;
    w.first_try = kNever;
    w.slot = SetStacks::kNoSlot;
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

// The warp's line requests from w.next on, a time stamp each; PutBack when one found no MSHR (the warp
// goes to the back of the queue). Whole lines and tracked sectors each get their own loop.
template <bool kTracked>
CoreModel::Issue CoreModel::issue(uint32_t wi, Warp& w) {
  const uint32_t n = uint32_t(w.lines.size());  // load() and store() leave the warp's lines alone
  while (w.next < n) {
    // Each line request: the effects due before its stamp first (a store never waits for an MSHR).
    Issue r = Issue::Done;
    if constexpr (kTracked) {
      apply_sector_effects_before(t_);
      if (w.store)
        store_sectors(w, w.lines[w.next], w.sectors[w.next], t_);
      else
        r = load_sectors(wi, w, w.lines[w.next], w.sectors[w.next].touched, t_);
    } else {
      apply_effects_before(t_);
      if (w.store)
        store(w, w.lines[w.next], t_);
      else
        r = load(wi, w, w.lines[w.next], t_);
    }
    ++t_;
    if (r == Issue::PutBack) return r;
    ++w.next;
  }
  return Issue::Done;
}

uint32_t CoreModel::step() {
  finished_now_ = 0;
  auto admit = [this] { delayed_.drain_before(t_ + 1, [this](uint32_t w) { ready_.push_back(w); }); };
  admit();
  if (ready_.empty()) {
    if (delayed_.empty()) return 0;
    t_ = delayed_.min_time();  // nothing to issue until a warp returns
    admit();
  }
  const uint32_t wi = ready_.front();
  ready_.pop_front();
  Warp& w = warps_[wi];
  if (w.next >= w.lines.size() && !fetch(w)) {
    retire(w);
    return finished_now_;
  }
  if ((track_ ? issue<true>(wi, w) : issue<false>(wi, w)) == Issue::PutBack) {
    ready_.push_back(wi);
    return finished_now_;
  }
  const uint64_t delay = !p_.divergence ? 0
                         : p_.divergence_factor == 1.0
                             ? w.max_latency  // ceil(1.0 * n) = n
                             : uint64_t(std::ceil(p_.divergence_factor * w.max_latency));
  if (delay == 0)
    ready_.push_back(wi);
  else
    delayed_.push(t_ - 1 + delay, wi);
  return finished_now_;
}

inline void CoreModel::apply_effect(const Effect& e) {
  if (e.release) release_mshr(e.slot, e.time);
  if (e.seq < stacks_.state(e.slot).evict_seq) return;  // a later store removed the line
  stacks_.touch(e.slot);
  stacks_.state(e.slot).last_effect = e.time;
}

void CoreModel::apply_effects_before(uint64_t t) {
  effects_.drain_before(t, [this](const Effect& e) { apply_effect(e); });
}

inline void CoreModel::schedule_effect(uint64_t time, uint64_t seq, uint32_t slot, bool release) {
  // Due now (the effects before now are applied) and nothing else due now: it would be the next one
  // applied anyway (before the next lookup), so apply it at once, unless it also frees an MSHR.
  if (time == seq && !release && !effects_.any_at_base()) {
    stacks_.touch(slot);
    stacks_.state(slot).last_effect = time;
    return;
  }
  effects_.push(time, {time, seq, slot, release});
}

// The effects before the current stamp are applied, so the queue's earliest bucket is the current stamp's.
void CoreModel::release_mshrs_now() {
  effects_.visit_base([this](Effect& e) {
    if (!e.release) return;
    release_mshr(e.slot, e.time);
    e.release = false;
  });
}

void CoreModel::store(const Warp& w, uint64_t line, uint64_t t) {
  release_mshrs_now();
  ++counts_.stores;
  if (p_.stores_evict) {
    uint32_t s = stacks_.find(line);
    if (s != SetStacks::kNoSlot) {
      stacks_.remove(s);
      stacks_.state(s).evict_seq = t + 1;  // effects issued up to now are void (no fill of stale data)
    }
  }
  if (obs_) report(w, line, t, RdOutcome::Store, StackLookup{}, 0, kNever, mshr_used_);
}

// The observer's view of a request (only built when there is an observer).
void CoreModel::report(const Warp& w, uint64_t line, uint64_t t, RdOutcome outcome, const StackLookup& d,
                       uint32_t latency, uint64_t effect_at, uint32_t mshr_before, uint8_t sectors,
                       uint8_t sector_hits) const {
  RdAccess a;
  a.time = t;
  a.core = id_;
  a.cta = w.cta_id;
  a.warp = w.index;
  a.line = line;
  a.store = w.store;
  a.set_distance = d.set_distance;
  a.global_distance = d.global_distance;
  a.outcome = outcome;
  a.latency = latency;
  a.effect_at = effect_at;
  a.mshr_before = mshr_before;
  a.mshr_after = mshr_used_;
  a.sectors = sectors;
  a.sector_hits = sector_hits;
  (*obs_)(a);
}

CoreModel::Issue CoreModel::load(uint32_t wi, Warp& w, uint64_t line, uint64_t t) {
  const uint32_t s = w.slot != SetStacks::kNoSlot ? w.slot : stacks_.slot(line);
  const bool arrived = stacks_.state(s).fill_time == t;  // its fill lands in this very stamp
  release_mshrs_now();
  LineState& st = stacks_.state(s);
  const uint32_t mshr_before = mshr_used_;
  const StackLookup d = arrived ? StackLookup{0, 0} : stacks_.lookup(s);
  RdOutcome outcome;
  uint32_t latency;
  uint64_t effect_at;
  bool allocated = false;  // a new MSHR entry
  if (d.set_distance != kInfDistance && d.set_distance < ways_) {
    outcome = RdOutcome::Hit;
    latency = p_.hit_latency;
    effect_at = t + p_.hit_latency;
  } else if (st.fill_time != kNever) {  // in flight: a latency miss merges into its MSHR
    outcome = RdOutcome::Latency;
    effect_at = p_.clip ? st.fill_time : t + latency_.miss();
    latency = uint32_t(effect_at - t);
  } else {
    if ((p_.mshr_entries && mshr_used_ >= p_.mshr_entries) ||
        (p_.mshr_per_warp && w.mshr >= p_.mshr_per_warp)) {
      ++counts_.cancelled;
      if (w.first_try == kNever) w.first_try = t;
      w.slot = s;
      if (obs_) report(w, line, t, RdOutcome::Cancelled, d, 0, kNever, mshr_before);
      return Issue::PutBack;
    }
    outcome = classify_miss(st, d, lines_, w.first_try);
    latency = latency_.miss();
    effect_at = t + latency;
    st.fill_time = effect_at;
    st.mshr_warp = wi;
    ++mshr_used_;
    ++w.mshr;
    allocated = true;
  }
  st.seen = true;
  w.first_try = kNever;
  w.slot = SetStacks::kNoSlot;
  w.max_latency = std::max(w.max_latency, latency);
  counts_.record(outcome, d.set_distance);
  schedule_effect(effect_at, t, s, allocated);
  if (obs_) report(w, line, t, outcome, d, latency, effect_at, mshr_before);
  return Issue::Done;
}

void CoreModel::end_kernel(bool flush) {
  if (track_)
    effects_.drain_all([this](const Effect& e) { apply_sector_effect(e); });
  else
    effects_.drain_all([this](const Effect& e) { apply_effect(e); });
  if (flush) {
    stacks_.clear();
    sectors_.clear();
  }
  warps_.clear();
  cta_left_.clear();
  ready_.clear();
  delayed_.clear();
  mshr_used_ = resident_ = 0;
}

RdCounts CoreModel::take_counts() {
  RdCounts c = std::move(counts_);
  counts_ = RdCounts();
  return c;
}

}  // namespace gms
