// The minimum of n values that change one at a time: a tournament tree (each inner node holds the smaller
// of its two children) gives the minimum in O(1) and takes an update in O(log n), stopping at the first
// ancestor whose value does not change. For schedulers that need "the earliest ready time over every bank"
// after each command: a pass over 128 banks' cold state costs far more than a walk up 7 levels of a
// 2 KiB array.
#pragma once
#include <cstdint>
#include <vector>

namespace gms {

class MinTree {
 public:
  static constexpr uint64_t kNone = ~uint64_t(0);

  explicit MinTree(uint32_t n = 0) : leaves_(1) {
    while (leaves_ < n) leaves_ *= 2;
    node_.assign(2 * size_t(leaves_), kNone);
  }
  uint32_t size() const { return leaves_; }
  uint64_t min() const { return node_[1]; }
  uint64_t at(uint32_t i) const { return node_[leaves_ + i]; }
  void set(uint32_t i, uint64_t v) {
    size_t k = leaves_ + size_t(i);
    if (node_[k] == v) return;
    node_[k] = v;
    for (k >>= 1; k; k >>= 1) {
      const uint64_t m = node_[2 * k] < node_[2 * k + 1] ? node_[2 * k] : node_[2 * k + 1];
      if (node_[k] == m) return;  // its ancestors are unchanged too
      node_[k] = m;
    }
  }

 private:
  uint32_t leaves_;             // a power of two >= n (at least 1); unused leaves hold kNone
  std::vector<uint64_t> node_;  // node_[1] is the root; node k's children are 2k and 2k + 1
};

}  // namespace gms
