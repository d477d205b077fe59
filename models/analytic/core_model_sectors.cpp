// CoreModel with tracked sectors (RdParams::tracks_sectors; sector_table.h): loads and stores per sector and
// the landing of their effects. Apart from core_model.cpp so that the whole-line paths there compile as
// they did.
#include <algorithm>

#include "models/analytic/core_model.h"
#include "models/common/mem_req.h"

namespace gms {

// The effect's sectors land first (SectorTable::land); an effect all of whose sectors a later store voided
// is dropped, as apply_effect drops the effects of a line a later store removed.
void CoreModel::land_sectors(const Effect& e) {
  if (!sectors_.land(e.slot, in_cache(e.slot), e.seq, e.time, e.sectors, e.fetched, e.kept)) return;
  stacks_.touch(e.slot);
  stacks_.state(e.slot).last_effect = e.time;
}

void CoreModel::apply_sector_effect(const Effect& e) {
  if (e.release) release_mshr(e.slot, e.time);
  land_sectors(e);
}

void CoreModel::apply_sector_effects_before(uint64_t t) {
  effects_.drain_before(t, [this](const Effect& e) { apply_sector_effect(e); });
}

// As schedule_effect (core_model.cpp): an effect due now with nothing else due now lands at once.
void CoreModel::schedule_sector_effect(const Effect& e) {
  if (e.time == e.seq && !e.release && !effects_.any_at_base()) {
    land_sectors(e);
    return;
  }
  effects_.push(e.time, e);
}

void CoreModel::store_sectors(const Warp& w, uint64_t line, SectorMask m, uint64_t t) {
  release_mshrs_now();
  ++counts_.stores;
  if (p_.store_policy == StorePolicy::WriteAllocate) {
    // Allocates the line (its LRU victim out) and makes it the most recent, as a hit would; the sectors it
    // writes whole are valid, a partly written one stays as it was; nothing is fetched.
    schedule_sector_effect({t + p_.hit_latency, t, tracked_slot(line), false, 0, 0, m.full});
  } else if (p_.stores_evict) {
    const uint32_t s = stacks_.find(line);
    if (s != SetStacks::kNoSlot && sectors_.store_evict(s, in_cache(s), m.touched, t)) stacks_.remove(s);
  }
  if (obs_) report(w, line, t, RdOutcome::Store, StackLookup{}, 0, kNever, mshr_used_, m.touched);
}

// As load(), per sector: the line's sectors that are valid or being fetched hit; the missing ones are
// fetched (the request is a miss), into the line's MSHR entry if one is in flight, else a new entry (put
// back when there is none). A miss on an allocated line (in the cache or being filled) is a sector miss
// (write-evict if a store invalidated a sector it needs); otherwise the line is allocated anew and the
// miss classified as in load().
CoreModel::Issue CoreModel::load_sectors(uint32_t wi, Warp& w, uint64_t line, uint8_t requested, uint64_t t) {
  const uint32_t s = w.slot != SetStacks::kNoSlot ? w.slot : tracked_slot(line);
  const bool arrived = stacks_.state(s).fill_time == t;  // a fill of the line lands in this very stamp
  release_mshrs_now();
  LineState& st = stacks_.state(s);
  const uint32_t mshr_before = mshr_used_;
  const StackLookup found = stacks_.lookup(s);
  const bool resident = found.set_distance < ways_;
  const StackLookup d = arrived ? StackLookup{0, 0} : found;  // the histogram's distance, as in load()
  const SectorLook sl = sectors_.look(s, resident, requested, t);
  RdOutcome outcome;
  uint32_t latency;
  uint64_t effect_at;
  bool release = false;
  if (!sl.missing && !sl.pending) {
    outcome = RdOutcome::Hit;
    latency = p_.hit_latency;
    effect_at = t + p_.hit_latency;
  } else if (!sl.missing) {  // waits for sectors in flight: a latency miss, every sector a hit
    outcome = RdOutcome::Latency;
    effect_at = p_.clip ? sl.ready : t + latency_.miss();
    latency = uint32_t(effect_at - t);
  } else {
    const bool in_flight = st.fill_time != kNever;
    if (!in_flight && ((p_.mshr_entries && mshr_used_ >= p_.mshr_entries) ||
                       (p_.mshr_per_warp && w.mshr >= p_.mshr_per_warp))) {
      ++counts_.cancelled;
      if (w.first_try == kNever) w.first_try = t;
      w.slot = s;
      if (obs_) report(w, line, t, RdOutcome::Cancelled, d, 0, kNever, mshr_before, requested);
      return Issue::PutBack;
    }
    if (resident || in_flight || arrived) {
      outcome = sl.evicted ? RdOutcome::WriteEvict : RdOutcome::Sector;
    } else {
      outcome = classify_miss(st, d, lines_, w.first_try);
      sectors_.allocate(s);
    }
    effect_at = t + latency_.miss();
    sectors_.fetch(s, sl.missing, effect_at);
    if (!in_flight) {
      st.fill_time = effect_at;
      st.mshr_warp = wi;
      ++mshr_used_;
      ++w.mshr;
      release = true;
    } else if (effect_at >= st.fill_time) {  // the entry now lasts until this fill
      st.fill_time = effect_at;
      release = true;
    }
    latency = uint32_t(std::max(effect_at, sl.ready) - t);  // its sectors in flight may land later
  }
  st.seen = true;
  w.first_try = kNever;
  w.slot = SetStacks::kNoSlot;
  w.max_latency = std::max(w.max_latency, latency);
  counts_.record(outcome, d.set_distance);
  counts_.load_sectors += uint64_t(popcount8(requested));
  counts_.load_sector_hits += uint64_t(popcount8(sl.hits()));
  schedule_sector_effect({effect_at, t, s, release, requested, sl.missing, sl.valid});
  if (obs_) report(w, line, t, outcome, d, latency, effect_at, mshr_before, requested, sl.hits());
  return Issue::Done;
}

}  // namespace gms
