#include "models/cache/random_policy.h"

namespace gms {

uint32_t RandomPolicy::victim(uint32_t, uint64_t candidate_ways) {
  uint64_t k = rng_.below(uint64_t(__builtin_popcountll(candidate_ways)));
  uint64_t m = candidate_ways;
  while (k--) m &= m - 1;  // drop the k lowest candidates
  return lowest_way(m);
}

}  // namespace gms
