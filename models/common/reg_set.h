// A set of a warp's general-purpose registers R0..R254 (RZ, 255, is never tracked): what a load writes and
// what an instruction must find written before it issues (the SM's scoreboard, sm_core.h). Four words, so
// the per-issue checks are a handful of ANDs.
#pragma once
#include <cstdint>

namespace gms {

class RegSet {
 public:
  static constexpr unsigned kRegs = 255;  // R0..R254; R255 is RZ

  void set(unsigned r) {
    if (r < kRegs) w_[r / 64] |= uint64_t(1) << (r % 64);
  }
  bool test(unsigned r) const { return r < kRegs && (w_[r / 64] >> (r % 64) & 1); }
  bool any() const { return (w_[0] | w_[1] | w_[2] | w_[3]) != 0; }
  bool intersects(const RegSet& o) const {
    return ((w_[0] & o.w_[0]) | (w_[1] & o.w_[1]) | (w_[2] & o.w_[2]) | (w_[3] & o.w_[3])) != 0;
  }
  RegSet& operator|=(const RegSet& o) {
    for (unsigned i = 0; i < 4; ++i) w_[i] |= o.w_[i];
    return *this;
  }
  // Removes o's registers.
  void remove(const RegSet& o) {
    for (unsigned i = 0; i < 4; ++i) w_[i] &= ~o.w_[i];
  }
  RegSet operator&(const RegSet& o) const {
    RegSet r;
    for (unsigned i = 0; i < 4; ++i) r.w_[i] = w_[i] & o.w_[i];
    return r;
  }
  bool operator==(const RegSet& o) const {
    return w_[0] == o.w_[0] && w_[1] == o.w_[1] && w_[2] == o.w_[2] && w_[3] == o.w_[3];
  }
  void clear() { w_[0] = w_[1] = w_[2] = w_[3] = 0; }
  unsigned count() const {
    return unsigned(__builtin_popcountll(w_[0]) + __builtin_popcountll(w_[1]) + __builtin_popcountll(w_[2]) +
                    __builtin_popcountll(w_[3]));
  }
  // f(register) for every register in the set, increasing.
  template <class F>
  void for_each(F&& f) const {
    for (unsigned i = 0; i < 4; ++i)
      for (uint64_t w = w_[i]; w; w &= w - 1) f(i * 64 + unsigned(__builtin_ctzll(w)));
  }

 private:
  uint64_t w_[4] = {0, 0, 0, 0};
};

}  // namespace gms
