// The minimum of n values that change one at a time: a tournament tree gives the minimum in O(1) and takes
// an update in O(log n), stopping at the first ancestor whose value does not change. For schedulers that
// need "the earliest ready time over every bank" after each command: a pass over 128 banks' cold state
// costs far more than a walk up the tree.
// Eight-way, each group of siblings one 64 B host cache line: an update reads and writes one line a level,
// three levels for 128 values (a binary tree's path crossed five or six lines).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gms {

class MinTree {
 public:
  static constexpr uint64_t kNone = ~uint64_t(0);

  explicit MinTree(uint32_t n = 1) {
    if (n == 0) n = 1;
    for (size_t count = n;; count = (count + kFan - 1) / kFan) {
      base_[levels_++] = uint32_t(lines_);
      lines_ += (count + kFan - 1) / kFan;
      if (count == 1) break;
    }
    node_.assign(lines_, Line{});
  }
  uint64_t min() const { return value(levels_ - 1, 0); }
  uint64_t at(uint32_t i) const { return value(0, i); }
  void set(uint32_t i, uint64_t v) {
    size_t idx = i;
    if (value(0, idx) == v) return;
    value(0, idx) = v;
    for (size_t level = 0; level + 1 < levels_; ++level) {
      const Line& sib = node_[base_[level] + idx / kFan];
      uint64_t m = sib.v[0];
      for (unsigned k = 1; k < kFan; ++k) m = sib.v[k] < m ? sib.v[k] : m;
      idx /= kFan;
      uint64_t& parent = value(level + 1, idx);
      if (parent == m) return;  // its ancestors are unchanged too
      parent = m;
    }
  }

 private:
  static constexpr unsigned kFan = 8;
  struct alignas(64) Line {
    uint64_t v[kFan] = {kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};
  };
  uint64_t& value(size_t level, size_t idx) { return node_[base_[level] + idx / kFan].v[idx % kFan]; }
  uint64_t value(size_t level, size_t idx) const { return node_[base_[level] + idx / kFan].v[idx % kFan]; }

  std::vector<Line> node_;  // level 0 (the values) first, then each level of minima; unused slots kNone
  // Per level: its first line in node_; the last level holds the minimum. Inline, not on the heap: an
  // update reads it at every level. Twelve levels of eight hold any uint32_t count.
  std::array<uint32_t, 12> base_{};
  size_t levels_ = 0;
  size_t lines_ = 0;
};

}  // namespace gms
