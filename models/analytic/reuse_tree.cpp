#include "models/analytic/reuse_tree.h"

#include <algorithm>

namespace gms {

ReuseTree::ReuseTree(uint32_t initial_capacity) : initial_(std::max<uint32_t>(initial_capacity, 4)) {
  clear();
}

void ReuseTree::clear() {
  bit_.assign(size_t(initial_) + 1, 0);
  owner_.assign(size_t(initial_) + 1, kNoOwner);
  next_ = 1;
  live_ = 0;
}

void ReuseTree::rebuild(uint32_t live, size_t cap) {
  bit_.resize(cap + 1);
  owner_.resize(cap + 1);
  std::fill(owner_.begin() + live + 1, owner_.end(), kNoOwner);
  // Positions 1..live hold one each: node i covers (i - lowbit(i), i], so it holds the live positions
  // there, in closed form (one write per node).
  bit_[0] = 0;
  for (size_t i = 1; i <= cap; ++i) {
    const size_t low = i & (0 - i), first = i - low;  // covers (first, i]
    bit_[i] = i <= live ? int32_t(low) : live > first ? int32_t(live - first) : 0;
  }
  next_ = live + 1;
  live_ = live;
}

}  // namespace gms
