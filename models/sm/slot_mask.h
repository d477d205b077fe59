// A set of warp slots as a bit array (max_warps may exceed 64): the SM keeps the slots that could issue
// in one, so the scheduler and the wake-up computation visit only those instead of every slot.
#pragma once
#include <cstdint>
#include <vector>

namespace gms {

class SlotMask {
 public:
  SlotMask() = default;
  explicit SlotMask(size_t slots) { resize(slots); }
  void resize(size_t slots) { words_.assign((slots + 63) / 64, 0); }
  void clear() {
    for (uint64_t& w : words_) w = 0;
  }
  void set(uint32_t s) { words_[s / 64] |= uint64_t(1) << (s % 64); }
  void reset(uint32_t s) { words_[s / 64] &= ~(uint64_t(1) << (s % 64)); }
  void assign(uint32_t s, bool v) { v ? set(s) : reset(s); }
  bool test(uint32_t s) const { return (words_[s / 64] >> (s % 64)) & 1; }
  bool any() const {
    for (uint64_t w : words_)
      if (w) return true;
    return false;
  }
  // f(slot) for every slot set on entry, in increasing order (f may set or reset slots).
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < words_.size(); ++i)
      for (uint64_t w = words_[i]; w; w &= w - 1) f(uint32_t(i * 64 + unsigned(__builtin_ctzll(w))));
  }
  // The first set slot >= from, or -1.
  int find_from(uint32_t from) const {
    size_t i = from / 64;
    if (i >= words_.size()) return -1;
    uint64_t w = words_[i] & (~uint64_t(0) << (from % 64));
    while (!w) {
      if (++i == words_.size()) return -1;
      w = words_[i];
    }
    return int(i * 64 + unsigned(__builtin_ctzll(w)));
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace gms
