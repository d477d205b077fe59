#include "models/l1/sm_duel.h"

#include <algorithm>

namespace gms {

namespace {
SmDuel::Role role_of(unsigned sm_id, bool dueling) {
  if (!dueling) return SmDuel::Role::NoDuel;
  if (sm_id == 0) return SmDuel::Role::DesignLeader;
  if (sm_id == 1) return SmDuel::Role::BaselineLeader;
  return SmDuel::Role::Follower;
}
}  // namespace

SmDuel::SmDuel(DecisionBoard& board, unsigned sm_id, const DecoupledParams& p)
    : role_(role_of(sm_id, p.dueling)),
      interval_(p.duel_interval),
      threshold_(p.duel_threshold),
      decision_(board.decision("l1.decoupled.mode", kBaseline)),  // "the rest SMs follow SM1"
      scores_(board.scores("l1.decoupled.duel", 2)) {}

uint32_t SmDuel::mode(uint64_t cycle) {
  if (role_ == Role::NoDuel) return kDesign;
  const uint64_t now = cycle / interval_;
  if (now > scores_.judged) {
    // Only a leader's latest record can be unjudged: judge those intervals in order, then the rest
    // (no leader load in them) keep the verdict.
    uint64_t a = scores_.slot(0).interval, b = scores_.slot(1).interval;
    uint64_t first = std::min(a, b), second = std::max(a, b);
    if (first >= scores_.judged && first < now) judge(first);
    if (second != first && second >= scores_.judged && second < now) judge(second);
    scores_.judged = now;
  }
  if (role_ == Role::DesignLeader) return kDesign;
  if (role_ == Role::BaselineLeader) return kBaseline;
  return decision_.get();
}

void SmDuel::record(uint64_t cycle, bool missed) {
  if (role_ != Role::DesignLeader && role_ != Role::BaselineLeader) return;
  IntervalScore& s = scores_.slot(role_ == Role::DesignLeader ? 0 : 1);
  const uint64_t now = cycle / interval_;
  if (s.interval != now) s = IntervalScore{now, 0, 0};
  ++s.events;
  if (missed) ++s.misses;
}

// An interval in which either leader served no load has no miss rate to compare: the verdict stays.
void SmDuel::judge(uint64_t interval) {
  const IntervalScore& d = scores_.slot(0);
  const IntervalScore& b = scores_.slot(1);
  if (d.interval != interval || b.interval != interval || d.events == 0 || b.events == 0) return;
  const double rd = double(d.misses) / double(d.events), rb = double(b.misses) / double(b.events);
  scores_.trace(0, uint32_t(rd * 1000.0 + 0.5));
  scores_.trace(1, uint32_t(rb * 1000.0 + 0.5));
  decision_.set(rd - rb > threshold_ ? kBaseline : kDesign);
}

}  // namespace gms
