// True LRU by per-line access stamps: the victim is the candidate touched least recently.
#pragma once
#include <vector>

#include "models/cache/replacement.h"

namespace gms {

class LruPolicy : public ReplacementPolicy {
 public:
  LruPolicy(uint32_t sets, uint32_t ways);
  void on_hit(uint32_t set, uint32_t way) override { stamp_[set * ways_ + way] = ++clock_; }
  void on_fill(uint32_t set, uint32_t way) override { stamp_[set * ways_ + way] = ++clock_; }
  void on_invalidate(uint32_t set, uint32_t way) override { stamp_[set * ways_ + way] = 0; }
  uint32_t victim(uint32_t set, uint64_t candidate_ways) override;
  const char* name() const override { return "lru"; }
  uint64_t stamp(uint32_t set, uint32_t way) const { return stamp_[set * ways_ + way]; }

 private:
  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;  // 0 = never used
};

}  // namespace gms
