#include "models/cache/nru_policy.h"

namespace gms {

NruPolicy::NruPolicy(uint32_t sets, uint32_t ways)
    : all_(ways >= 64 ? ~uint64_t(0) : (uint64_t(1) << ways) - 1), bits_(sets, 0) {}

void NruPolicy::mark(uint32_t set, uint32_t way) {
  uint64_t b = uint64_t(1) << way;
  bits_[set] |= b;
  if (bits_[set] == all_) bits_[set] = b;  // keep only the line just used
}

uint32_t NruPolicy::victim(uint32_t set, uint64_t candidate_ways) {
  uint64_t unused = candidate_ways & ~bits_[set];
  return lowest_way(unused ? unused : candidate_ways);
}

}  // namespace gms
