// Sets of ports as bitsets of 64-bit words, so a crossbar cycle costs per port with work, not per port:
// walks visit members only (count-trailing-zeros), and round-robin picks the first member at or after a
// pointer (mask + ctz). One word covers 64 ports; larger crossbars (80 SMs) use more words.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gms {

// Calls f(i) for each set bit i of the words word(0) .. word(n-1). Each word is read once before its bits
// are visited, so f may change the sets the words come from; changes to a word already read are not seen.
template <class Word, class F>
inline void for_each_bit(size_t n, Word&& word, F&& f) {
  for (size_t w = 0; w < n; ++w)
    for (uint64_t bits = word(w); bits; bits &= bits - 1)
      f(unsigned(w * 64 + unsigned(__builtin_ctzll(bits))));
}

// The first i, cyclically from `start` (< 64 * n), with bit i set in m and clear in skip; -1 if none.
inline int cyclic_first(const uint64_t* m, const uint64_t* skip, size_t n, unsigned start) {
  if (n == 1) {  // up to 64 ports: rotate by masking, then count trailing zeros
    const uint64_t all = m[0] & ~skip[0], after = all & (~uint64_t(0) << start);
    return all ? int(__builtin_ctzll(after ? after : all)) : -1;
  }
  size_t w = start >> 6;
  uint64_t bits = m[w] & ~skip[w] & (~uint64_t(0) << (start & 63));
  for (size_t k = 0; k <= n; ++k) {  // start's word from start, the others, then start's word again
    if (bits) return int(w * 64 + unsigned(__builtin_ctzll(bits)));
    w = (w + 1 == n) ? 0 : w + 1;
    bits = m[w] & ~skip[w];
  }
  return -1;
}

class ActiveSet {
 public:
  void resize(unsigned n) { words_.assign((n + 63) / 64, 0); }
  void set(unsigned i) { words_[i >> 6] |= uint64_t(1) << (i & 63); }
  void clear(unsigned i) { words_[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  bool test(unsigned i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  size_t words() const { return words_.size(); }
  uint64_t word(size_t w) const { return words_[w]; }
  const uint64_t* data() const { return words_.data(); }
  // Calls f(i) for each member, with for_each_bit's guarantees.
  template <class F>
  void for_each(F&& f) const {
    for_each_bit(
        words_.size(), [this](size_t w) { return words_[w]; }, f);
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace gms
