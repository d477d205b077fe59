// SM dueling of the Decoupled L1D (paper 002, sec. 4.3, table 3): SM 0 always runs the design, SM 1 the
// baseline (threshold 0), the other SMs follow a shared verdict that starts as the baseline. Every
// `duel_interval` L1 cycles the verdict compares the leaders' miss rates over the interval just ended:
// the baseline if SM 0's exceeds SM 1's by more than `duel_threshold`, else the design.
//
// Event driven: nothing runs at the boundary; the first access of any L1 at or after it judges the
// intervals still unjudged (mode() before record(), so a leader's unjudged counts are always its latest).
// The verdict and the leaders' scores live on the DecisionBoard the system builder wires: no global.
#pragma once
#include <cstdint>

#include "models/common/decision_board.h"
#include "models/l1/decoupled_params.h"

namespace gms {

class SmDuel {
 public:
  enum Mode : uint32_t { kDesign = 0, kBaseline = 1 };
  enum class Role { DesignLeader, BaselineLeader, Follower, NoDuel };

  SmDuel(DecisionBoard& board, unsigned sm_id, const DecoupledParams& p);

  Role role() const { return role_; }
  // The mode this SM uses for an access in L1 cycle `cycle` (judges finished intervals first).
  uint32_t mode(uint64_t cycle);
  // A leader's load served in `cycle`: missed = not a hit or hit-pending. Followers record nothing.
  void record(uint64_t cycle, bool missed);
  const SharedDecision& decision() const { return decision_; }

 private:
  void judge(uint64_t interval);

  Role role_;
  uint64_t interval_;
  double threshold_;
  SharedDecision& decision_;
  SharedScores& scores_;
};

}  // namespace gms
