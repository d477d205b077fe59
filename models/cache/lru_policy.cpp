#include "models/cache/lru_policy.h"

namespace gms {

LruPolicy::LruPolicy(uint32_t sets, uint32_t ways) : ways_(ways), stamp_(size_t(sets) * ways, 0) {}

uint32_t LruPolicy::victim(uint32_t set, uint64_t candidate_ways) {
  const uint64_t* s = &stamp_[size_t(set) * ways_];
  uint32_t best = lowest_way(candidate_ways);
  for (uint64_t m = candidate_ways; m; m &= m - 1) {
    uint32_t w = lowest_way(m);
    if (s[w] < s[best]) best = w;
  }
  return best;
}

}  // namespace gms
