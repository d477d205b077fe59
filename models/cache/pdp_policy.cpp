#include "models/cache/pdp_policy.h"

#include <stdexcept>

namespace gms {

PdpPolicy::PdpPolicy(uint32_t sets, uint32_t ways, uint32_t distance)
    : ReplacementPolicy(/*may_bypass=*/true), ways_(ways), pd_(uint16_t(distance)) {
  if (distance < 1 || distance > UINT16_MAX)
    throw std::invalid_argument("pdp: distance must be in [1, 65535]");
  rpd_.assign(size_t(sets) * ways, 0);
}

uint32_t PdpPolicy::victim(uint32_t set, uint64_t candidate_ways) {
  const uint16_t* r = &rpd_[idx(set, 0)];
  uint32_t best = lowest_way(candidate_ways);
  for (uint64_t m = candidate_ways & (candidate_ways - 1); m; m &= m - 1)
    if (r[lowest_way(m)] < r[best]) best = lowest_way(m);
  return best;
}

uint32_t PdpPolicy::victim_or_bypass(uint32_t set, uint64_t candidate_ways) {
  const uint16_t* r = &rpd_[idx(set, 0)];
  for (uint64_t m = candidate_ways; m; m &= m - 1)
    if (r[lowest_way(m)] == 0) return lowest_way(m);
  return kNoVictim;
}

void PdpPolicy::on_access(uint32_t set, int way) {
  uint16_t* r = &rpd_[idx(set, 0)];
  for (uint32_t w = 0; w < ways_; ++w)
    if (r[w] > 0) --r[w];
  if (way >= 0) r[way] = pd_;
}

}  // namespace gms
