// The 32 lanes' 64-bit words two at a time (GCC/Clang vector extensions): the machinery's per-instruction
// loops over addresses and indices (bounds checks, address arithmetic, stride detection and expansion) as
// SIMD code whatever the -O level's vectoriser decides, so a warp instruction costs tens of cycles.
#pragma once
#include <cstdint>
#include <cstring>

#include "models/common/workload.h"

namespace gms::kernels::vec {

using U64x2 = uint64_t __attribute__((vector_size(16)));  // SSE2: every x86-64 has it

inline U64x2 load2(const void* p) {
  U64x2 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store2(void* p, U64x2 v) {
  std::memcpy(p, &v, sizeof v);
}
inline bool any2(U64x2 v) {
  return (v[0] | v[1]) != 0;
}

// Whether every one of the 32 words x[l] (signed indices read as unsigned) is below n.
inline bool all_below(const void* x, uint64_t n) {
  U64x2 hi = {0, 0};
  const auto* p = static_cast<const uint8_t*>(x);
  for (unsigned l = 0; l < kWarpSize; l += 2) hi |= U64x2(load2(p + 8 * l) >= n);
  return !any2(hi);
}

// out[l] = base + x[l] << shift, for the 32 lanes.
inline void scaled_add(uint64_t* out, const void* x, uint64_t base, unsigned shift) {
  const auto* p = static_cast<const uint8_t*>(x);
  for (unsigned l = 0; l < kWarpSize; l += 2) store2(out + l, base + (load2(p + 8 * l) << shift));
}

// Whether a[l] == first + l * stride for the 32 lanes.
inline bool is_progression(const uint64_t* a, uint64_t first, uint64_t stride) {
  U64x2 e = U64x2{0, 1} * stride + first, bad = {0, 0};
  const uint64_t step = 2 * stride;
  for (unsigned l = 0; l < kWarpSize; l += 2, e += step) bad |= load2(a + l) ^ e;
  return !any2(bad);
}

// a[l] = first + l * stride where bit l of mask is set, else 0.
inline void progression(uint64_t* a, uint64_t first, uint64_t stride, uint32_t mask) {
  U64x2 e = U64x2{0, 1} * stride + first;
  const uint64_t step = 2 * stride;
  if (mask == ~0u) {
    for (unsigned l = 0; l < kWarpSize; l += 2, e += step) store2(a + l, e);
    return;
  }
  for (unsigned l = 0; l < kWarpSize; l += 2, e += step) {
    const U64x2 m = {mask >> l & 1, mask >> (l + 1) & 1};
    store2(a + l, e & -m);
  }
}

// Whether the 32 signed words x[l] equal x[0] + l * s for one s with |s| < 2^32 (then set): a warp's index
// that steps by a constant, so its bounds are its two ends and its addresses a progression.
inline bool index_progression(const int64_t* x, int64_t& s) {
  const int64_t d = int64_t(uint64_t(x[1]) - uint64_t(x[0]));
  if (d >= (int64_t(1) << 32) || d <= -(int64_t(1) << 32)) return false;
  if (!is_progression(reinterpret_cast<const uint64_t*>(x), uint64_t(x[0]), uint64_t(d))) return false;
  s = d;
  return true;
}

// The mask of lanes whose bool is true (32 bools of one byte, 0 or 1).
inline uint32_t true_lanes(const bool* b) {
  using U8x16 = uint8_t __attribute__((vector_size(16)));
  using I8x16 = char __attribute__((vector_size(16)));
  U8x16 lo, hi;
  std::memcpy(&lo, b, 16);
  std::memcpy(&hi, b + 16, 16);
#if defined(__SSE2__)
  // A bool is 0 or 1: shifted to the sign bit, one movemask gathers 16 lanes.
  const I8x16 l = I8x16(lo << 7), h = I8x16(hi << 7);
  return uint32_t(__builtin_ia32_pmovmskb128(l)) | uint32_t(__builtin_ia32_pmovmskb128(h)) << 16;
#else
  uint32_t m = 0;
  for (unsigned i = 0; i < 16; ++i) m |= uint32_t(lo[i]) << i | uint32_t(hi[i]) << (i + 16);
  return m;
#endif
}

}  // namespace gms::kernels::vec
