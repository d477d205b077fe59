// Static protection-distance replacement with bypass (PDP, the CPU comparator of papers 001 and 002):
// every line has a remaining protection distance (RPD). A line that is filled or hit gets RPD = PD;
// every later served access to its set lowers it by one (saturating at 0). A line with RPD > 0 is
// protected. The victim is an unprotected candidate (all of them have RPD 0: the lowest way is taken);
// when every candidate is protected victim_or_bypass() refuses and the cache bypasses the load.
//
// Order (the cache calls it so): the victim decision of an access comes before that access ages the set
// (on_access), so a line filled or hit by access a0 is protected at the decisions of the next PD
// accesses to its set and replaceable from the (PD+1)-th on.
#pragma once
#include <vector>

#include "models/cache/replacement.h"

namespace gms {

class PdpPolicy : public ReplacementPolicy {
 public:
  PdpPolicy(uint32_t sets, uint32_t ways, uint32_t distance);
  void on_hit(uint32_t set, uint32_t way) override { rpd_[idx(set, way)] = pd_; }
  void on_fill(uint32_t set, uint32_t way) override { rpd_[idx(set, way)] = pd_; }
  void on_invalidate(uint32_t set, uint32_t way) override { rpd_[idx(set, way)] = 0; }
  // Never refuses (for callers that cannot bypass): the lowest RPD, then the lowest way.
  uint32_t victim(uint32_t set, uint64_t candidate_ways) override;
  // The lowest unprotected candidate, or kNoVictim when every candidate is protected.
  uint32_t victim_or_bypass(uint32_t set, uint64_t candidate_ways) override;
  // Ages every line of the set but `way` by one; `way` (if >= 0) is renewed to PD.
  void on_access(uint32_t set, int way) override;
  const char* name() const override { return "pdp"; }

  uint32_t rpd(uint32_t set, uint32_t way) const { return rpd_[idx(set, way)]; }
  uint32_t distance() const { return pd_; }

 private:
  size_t idx(uint32_t set, uint32_t way) const { return size_t(set) * ways_ + way; }
  uint32_t ways_;
  uint16_t pd_;
  std::vector<uint16_t> rpd_;  // empty lines are unprotected
};

}  // namespace gms
