// DecoupledL1: the tag-store probe in front of the baseline data store (paper 002, sec. 4.2, figure 7).
#include "models/l1/decoupled_l1.h"

#include <algorithm>
#include <stdexcept>

namespace gms {

namespace {
DecisionBoard* board_of(const BlockEnv& env, std::unique_ptr<DecisionBoard>& own) {
  if (env.decisions) return env.decisions;
  own = std::make_unique<DecisionBoard>();
  return own.get();
}
// Checked before any module is built, so a bad configuration leaves no half-made module behind.
const L1Params& checked(const L1Params& p) {
  p.decoupled.check_against(p.ways);
  return p;
}
}  // namespace

DecoupledL1::DecoupledL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env)
    : BaselineL1(name, checked(p), sm_id, env),
      dp_(p.decoupled),
      ts_(p.sets(), dp_.tag_ways, dp_.rc_max()),
      duel_(std::make_unique<SmDuel>(*board_of(env, own_board_), sm_id, dp_)),
      tag_allocations_(
          stats_.counter("tag_allocations", "tag-store entries allocated (probe misses)", "entries")),
      tag_evictions_(stats_.counter("tag_evictions", "valid tag entries replaced by LFU", "entries")),
      rc_threshold_allocations_(stats_.counter(
          "rc_threshold_allocations",
          "data lines allocated for a tag entry already present (RC reached the threshold)", "lines")),
      aging_steps_(
          stats_.counter("aging_steps", "data-store allocations and evictions that aged a set", "steps")),
      duel_switches_(stats_.counter("duel_switches", "changes of the mode this L1 runs", "switches")),
      design_loads_(stats_.counter("design_loads", "loads served in the design mode", "requests")),
      baseline_loads_(
          stats_.counter("baseline_loads", "loads served in the baseline mode (threshold 0)", "requests")) {
  mode_ = duel_->mode(0);
  stats_.formula("duel_mode", "mode in use at the end (0 design, 1 baseline)", "mode",
                 [this] { return double(mode_); });
  if (auto* tf = env.trace_file(basename())) probe_mode_.attach(tf, basename(), "duel_mode");
  probe_mode_.set(mode_);
}

DecoupledL1::~DecoupledL1() = default;

void DecoupledL1::invalidate_all() {
  BaselineL1::invalidate_all();
  // Flushed lines lose their Position; the reuse counts stay (they describe the program, not the data).
  for (uint32_t s = 0; s < tags_.sets(); ++s)
    for (uint32_t w = 0; w < ts_.ways(); ++w) {
      DecoupledTagEntry& x = ts_.entry(s, w);
      if (x.valid && x.position >= 0) sync_position(x.line);
    }
}

int DecoupledL1::new_tag(uint32_t set, uint64_t line) {
  int w = ts_.victim(set);
  if (w < 0) throw std::logic_error("DecoupledL1: every tag entry holds a data line");
  if (ts_.entry(set, uint32_t(w)).valid) ++tag_evictions_;
  ts_.allocate(set, uint32_t(w), line);
  ++tag_allocations_;
  return w;
}

bool DecoupledL1::access_load(Payload& t, uint64_t line, uint64_t c) {
  const uint32_t m = duel_->mode(c);
  if (m != mode_) {
    mode_ = m;
    ++duel_switches_;
    probe_mode_.set(m);
  }
  const uint32_t threshold = m == SmDuel::kBaseline ? 0 : dp_.threshold;
  const uint32_t set = tags_.set_of(line);
  const int tw = ts_.find(set, line);
  const uint64_t served_before = st_.hits.value + st_.hit_pending.value;
  bool ok;
  if (tw >= 0 && ts_.entry(set, uint32_t(tw)).position >= 0) {
    ok = BaselineL1::access_load(t, line, c);  // the data store holds it: hit or hit-pending
  } else {
    // RC the access would reach; a reservation fail must leave it unchanged (the probe is retried).
    const uint32_t rc = tw < 0 ? 1 : std::min(ts_.entry(set, uint32_t(tw)).rc + 1, dp_.rc_max());
    if (rc >= threshold) {
      ok = allocate_line(t, line, set, tw, c);
    } else {
      ok = bypass_load(t, line, c);
      if (ok && tw < 0) new_tag(set, line);
      if (ok && tw >= 0) ts_.reference(set, uint32_t(tw));
    }
  }
  if (!ok) return false;
  ++(m == SmDuel::kBaseline ? baseline_loads_ : design_loads_);
  duel_->record(c, st_.hits.value + st_.hit_pending.value == served_before);
  return true;
}

bool DecoupledL1::allocate_line(Payload& t, uint64_t line, uint32_t set, int tw, uint64_t c) {
  if (mshr_.full()) return reservation_fail(st_.rf_mshr);
  if (miss_queue_full(c)) return reservation_fail(st_.rf_miss_queue);
  const int victim = tags_.choose_victim(line);  // last: SRRIP ages its set when choosing
  if (victim < 0) return reservation_fail(st_.rf_line);
  if (tw >= 0) {
    ts_.reference(set, uint32_t(tw));
    ++rc_threshold_allocations_;
  } else {
    tw = new_tag(set, line);
  }
  int evicted_tw = -1;
  const TagEntry& v = tags_.entry(set, uint32_t(victim));
  if (v.valid) {
    evicted_tw = ts_.find(set, v.line);
    if (evicted_tw < 0) throw std::logic_error("DecoupledL1: a data line without its tag entry");
    DecoupledTagEntry& ev = ts_.entry(set, uint32_t(evicted_tw));
    ev.rc = 0;  // paper 002 sec. 4.2: the evicted line's entry restarts
    ev.position = -1;
  }
  ts_.entry(set, uint32_t(tw)).position = victim;
  const uint32_t steps = evicted_tw >= 0 ? 2 : 1;  // the allocation, and the eviction if any
  ts_.age(set, steps, tw, evicted_tw);
  aging_steps_ += steps;
  commit_miss(t, line, line, set, uint32_t(victim), c);  // the baseline miss in the chosen way
  update_probes();
  return true;
}

void DecoupledL1::sync_position(uint64_t line) {
  const uint32_t set = tags_.set_of(line);
  const int tw = ts_.find(set, line);
  if (tw < 0) return;
  DecoupledTagEntry& x = ts_.entry(set, uint32_t(tw));
  if (x.position >= 0 && tags_.find(line) < 0) x.position = -1;
}

// Write-evict and a dropped fill free the data line without a replacement: the entry loses its Position
// but keeps its RC (its reuse was real) and nothing ages.
void DecoupledL1::on_store(uint64_t line, uint8_t chunks, bool functional) {
  BaselineL1::on_store(line, chunks, functional);
  sync_position(line);
}

void DecoupledL1::on_fill(Payload& down, uint64_t c) {
  const uint64_t line = req_of(down).line_addr;
  BaselineL1::on_fill(down, c);
  sync_position(line);
}

// The functional path reads memory without allocating: a data line needs a tag entry with a Position.
void DecoupledL1::functional_install(uint64_t, const unsigned char*) {}

}  // namespace gms
