// The ports of a network that have work, as a bitset: a cycle visits only those (in increasing order),
// so a large, lightly loaded crossbar (80 SMs x 64 slices) costs per packet, not per port.
#pragma once
#include <cstdint>
#include <vector>

namespace gms {

class ActiveSet {
 public:
  void resize(unsigned n) { words_.assign((n + 63) / 64, 0); }
  void set(unsigned i) { words_[i >> 6] |= uint64_t(1) << (i & 63); }
  void clear(unsigned i) { words_[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  bool test(unsigned i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  // Calls f(i) for each member. Each word is read once before its members are visited, so f may set or
  // clear members; ones set during the walk may or may not be visited.
  template <class F>
  void for_each(F&& f) const {
    for (size_t w = 0; w < words_.size(); ++w)
      for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
        f(unsigned(w * 64 + unsigned(__builtin_ctzll(bits))));
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace gms
