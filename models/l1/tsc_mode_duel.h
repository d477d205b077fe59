// TSC+ storage-mode selection by set dueling (paper 000 sec. 3.5, figure 8). In the leader SM, half of
// `sampler_sets` evenly spread sets always store fine (only the requested chunks), the other half always
// coarse (the whole line). Each mode counts its misses and their traffic (1 request packet + n data
// packets per miss); the mode with the smaller misses x traffic product is the mode of every follower set
// in every SM. When a miss counter exceeds the aging threshold all four counters are halved. The mode is
// a decision on the system's DecisionBoard ("l1.tsc_plus.mode": 0 fine, 1 coarse), traced in the VCD.
#pragma once
#include <cstdint>
#include <memory>

#include "models/common/decision_board.h"
#include "models/l1/l1_design_params.h"

namespace gms {

class TscModeDuel {
 public:
  enum Mode : uint32_t { Fine = 0, Coarse = 1 };
  enum Role : uint8_t { Follower, FineSampler, CoarseSampler };

  // board: the shared decisions (nullptr: a private decision, for an L1 used alone).
  TscModeDuel(const TscPlusParams& p, uint32_t sets, bool leader, DecisionBoard* board);

  Role role(uint32_t set) const;
  Mode mode_of(uint32_t set) const;  // the storage mode a set uses now
  Mode follower_mode() const { return Mode(decision_->get()); }
  // A sampler set of the leader sent a miss asking for `data_packets` 32 B packets of data.
  void count_miss(uint32_t set, uint32_t data_packets);
  uint32_t misses(Mode m) const { return misses_[m]; }
  uint32_t traffic(Mode m) const { return traffic_[m]; }
  uint64_t agings() const { return agings_; }
  uint64_t mode_changes() const { return decision_->changes(); }
  bool leader() const { return leader_; }

 private:
  TscPlusParams p_;
  uint32_t sets_;
  bool leader_;
  std::unique_ptr<SharedDecision> own_;
  SharedDecision* decision_;
  uint32_t misses_[2] = {0, 0};
  uint32_t traffic_[2] = {0, 0};
  uint64_t agings_ = 0;
};

}  // namespace gms
