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
  bit_.assign(cap + 1, 0);
  owner_.resize(cap + 1);
  std::fill(owner_.begin() + live + 1, owner_.end(), kNoOwner);
  for (uint32_t p = 1; p <= live; ++p) bit_[p] = 1;
  for (size_t i = 1; i <= cap; ++i) {  // linear-time Fenwick construction
    size_t j = i + (i & (0 - i));
    if (j <= cap) bit_[j] += bit_[i];
  }
  next_ = live + 1;
  live_ = live;
}

}  // namespace gms
