// The C library's rand() as glibc computes it (the additive feedback generator of random_r, TYPE_3: 34
// seeding words, r[i] = r[i-3] + r[i-31], the first 344 outputs dropped, each output shifted right by one),
// so a port generates the same input as the Rodinia benchmark's srand(seed) / rand() on Linux, on any
// platform. RAND_MAX is 2^31 - 1.
#pragma once
#include <cstdint>
#include <vector>

namespace gms::kernels {

class LibcRand {
 public:
  static constexpr int kRandMax = 2147483647;
  explicit LibcRand(uint32_t seed = 1) { srand(seed); }
  void srand(uint32_t seed) {
    r_.assign(34, 0);
    r_[0] = int32_t(seed == 0 ? 1 : seed);
    for (int i = 1; i < 31; ++i) {
      const int64_t hi = r_[i - 1] / 127773, lo = r_[i - 1] % 127773;
      int64_t word = 16807 * lo - 2836 * hi;
      if (word < 0) word += 2147483647;
      r_[i] = int32_t(word);
    }
    for (int i = 31; i < 34; ++i) r_[i] = r_[i - 31];
    pos_ = 0;
    for (int i = 0; i < 310; ++i) step();  // glibc discards the first 310 words after the 34 seeded ones
  }
  int rand() { return int(uint32_t(step()) >> 1); }

 private:
  // The next word of the sequence (34 kept: r[n] = r[n-31] + r[n-3], wrapping).
  int32_t step() {
    const int32_t v = int32_t(uint32_t(r_[(pos_ + 3) % 34]) + uint32_t(r_[(pos_ + 31) % 34]));
    r_[pos_ % 34] = v;
    pos_ = (pos_ + 1) % 34;
    return v;
  }
  std::vector<int32_t> r_;
  unsigned pos_ = 0;
};

}  // namespace gms::kernels
