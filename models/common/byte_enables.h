// Which bytes of a payload its TLM byte-enable array enables, as bits: 16 at a time (SSE2) instead of a
// compare, a branch and a modulo per byte. The L1's write-allocate and the LLC's store decode run it on
// every store.
#pragma once
#include <tlm.h>

#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gms {

// Bit j of out[j / 64] (j < len <= 128): payload byte j is enabled, be[j % be_len] == TLM_BYTE_ENABLED (a
// pattern shorter than the data repeats, TLM rule). be_len > 0.
inline void enabled_bits(const unsigned char* be, unsigned be_len, unsigned len, uint64_t out[2]) {
  out[0] = out[1] = 0;
  unsigned j = 0;
#if defined(__SSE2__)
  if (be_len >= len) {  // no repeat: compare 16 enables at once (16 bits never straddle the two words)
    const __m128i on = _mm_set1_epi8(char(TLM_BYTE_ENABLED));
    for (; j + 16 <= len; j += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(be + j));
      out[j >> 6] |= uint64_t(uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v, on)))) << (j & 63);
    }
  }
#endif
  for (unsigned k = j % be_len; j < len; ++j, k = k + 1 == be_len ? 0 : k + 1)
    if (be[k] == TLM_BYTE_ENABLED) out[j >> 6] |= uint64_t(1) << (j & 63);
}

}  // namespace gms
