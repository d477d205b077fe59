#include "models/cache/srrip_policy.h"

#include <stdexcept>

namespace gms {

SrripPolicy::SrripPolicy(uint32_t sets, uint32_t ways, unsigned rrpv_bits)
    : ways_(ways), bits_(rrpv_bits), max_((1u << rrpv_bits) - 1) {
  if (rrpv_bits < 1 || rrpv_bits > 8) throw std::invalid_argument("srrip: rrpv bits must be in [1, 8]");
  rrpv_.assign(size_t(sets) * ways, uint8_t(max_));  // empty lines are distant
}

uint32_t SrripPolicy::victim(uint32_t set, uint64_t candidate_ways) {
  uint8_t* r = &rrpv_[size_t(set) * ways_];
  uint32_t oldest = 0;
  for (uint64_t m = candidate_ways; m; m &= m - 1)
    if (r[lowest_way(m)] > oldest) oldest = r[lowest_way(m)];
  uint32_t age = max_ - oldest;  // aging in one step = repeated +1 until a candidate reaches max
  uint32_t chosen = 64;
  for (uint64_t m = candidate_ways; m; m &= m - 1) {
    uint32_t w = lowest_way(m);
    r[w] = uint8_t(r[w] + age);
    if (chosen == 64 && r[w] == max_) chosen = w;
  }
  return chosen;
}

}  // namespace gms
