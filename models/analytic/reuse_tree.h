// Bennett-Kruskal / Olken reuse-distance counter: a Fenwick tree over time stamps. Each live element (a
// line's most recent reference) holds one position; the reuse distance of a line is the number of live
// positions after its own. O(log C) per operation, C = the tree's capacity, which stays within a small
// factor of the number of live elements: when the positions run out the live ones are renumbered in
// order (amortised O(1) per push), so the cost is independent of the trace length and memory is O(lines).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gms {

class ReuseTree {
 public:
  static constexpr uint32_t kNone = 0;  // "no position"
  explicit ReuseTree(uint32_t initial_capacity = 64);

  // Appends a new most-recent element owned by `owner`; returns its position. When positions are
  // renumbered, relabel(owner, new_position) is called for every live element first.
  template <class Relabel>
  uint32_t push(uint32_t owner, Relabel&& relabel) {
    if (next_ >= bit_.size()) compact(relabel);
    const uint32_t p = next_++;
    owner_[p] = owner;
    add(p, 1);
    ++live_;
    return p;
  }
  // erase(pos) then push(owner), fused: the two Fenwick paths cancel above the node where they meet.
  template <class Relabel>
  uint32_t repush(uint32_t pos, uint32_t owner, Relabel&& relabel) {
    if (next_ >= bit_.size()) {
      erase(pos);
      return push(owner, relabel);
    }
    const uint32_t p = next_++;
    owner_[pos] = kNoOwner;
    owner_[p] = owner;
    const uint32_t n = uint32_t(bit_.size());
    for (uint32_t a = pos, b = p; a != b;) {  // a loses the element, b gains it
      if (a < b) {
        if (a >= n) break;
        bit_[a] -= 1;
        a += a & (0u - a);
      } else {
        if (b >= n) break;
        bit_[b] += 1;
        b += b & (0u - b);
      }
    }
    return p;
  }
  void erase(uint32_t pos) {
    add(pos, -1);
    owner_[pos] = kNoOwner;
    --live_;
  }
  // Gives the element at `pos` another owner (e.g. a hole left by an invalidated line).
  void reown(uint32_t pos, uint32_t owner) { owner_[pos] = owner; }
  // Live elements more recent than `pos` (pos must be live).
  uint32_t newer_than(uint32_t pos) const { return live_ - prefix(pos); }
  uint32_t live() const { return live_; }
  size_t capacity() const { return bit_.size() - 1; }
  void clear();
  size_t bytes() const { return bit_.capacity() * sizeof(int32_t) + owner_.capacity() * sizeof(uint32_t); }

 private:
  static constexpr uint32_t kNoOwner = 0xffffffffu;
  uint32_t prefix(uint32_t pos) const {
    int32_t s = 0;
    for (; pos; pos &= pos - 1) s += bit_[pos];
    return uint32_t(s);
  }
  void add(uint32_t pos, int32_t d) {
    for (size_t n = bit_.size(); pos < n; pos += pos & (0u - pos)) bit_[pos] += d;
  }
  template <class Relabel>
  void compact(Relabel& relabel) {
    uint32_t k = 0;
    for (uint32_t p = 1; p < next_; ++p)
      if (owner_[p] != kNoOwner) owner_[++k] = owner_[p];
    size_t cap = bit_.size() - 1;
    while (cap < 2 * size_t(k) + 16) cap *= 2;
    rebuild(k, cap);
    for (uint32_t p = 1; p <= k; ++p) relabel(owner_[p], p);
  }
  void rebuild(uint32_t live, size_t cap);  // positions 1..live live, owners already packed

  std::vector<int32_t> bit_;     // 1-based Fenwick array
  std::vector<uint32_t> owner_;  // owner of each position (kNoOwner if dead)
  uint32_t next_ = 1;
  uint32_t live_ = 0;
  uint32_t initial_;
};

}  // namespace gms
