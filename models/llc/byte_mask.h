// Byte and sector bookkeeping of a 128 B LLC line: a bit per byte (valid, dirty, requested, written) and
// the conversions to the 4-bit sector (chunk) masks the requests carry. A sector is valid when all 32 of
// its bytes are; partially written sectors keep per-byte state so a fill can merge around the stores.
// The mask is two 64-bit words (sectors 0-1 in the low word, 2-3 in the high word): the conversions are
// word compares, never loops over bytes.
#pragma once
#include <cstdint>

#include "models/common/mem_req.h"

namespace gms {

using ByteMask = unsigned __int128;  // bit i = byte i of the line

static_assert(kLineBytes == 128 && kChunkBytes == 32, "ByteMask: two 32-bit sectors per 64-bit word");

constexpr ByteMask kAllBytes = ~ByteMask(0);
constexpr ByteMask kSectorBits = (ByteMask(1) << kChunkBytes) - 1;

namespace byte_mask_detail {
constexpr uint64_t kLowSector = 0xffffffffull;
inline uint64_t lo(ByteMask m) {
  return uint64_t(m);
}
inline uint64_t hi(ByteMask m) {
  return uint64_t(m >> 64);
}
// The bytes of the two sectors of one word selected by bits 0-1 of s.
inline uint64_t word_bytes(unsigned s) {
  return (s & 1 ? kLowSector : 0) | (s & 2 ? kLowSector << 32 : 0);
}
// Bit 0: low sector of w all set (full) or any set (!full); bit 1: the same for the high sector.
inline unsigned word_full(uint64_t w) {
  return unsigned(uint32_t(w) == 0xffffffffu) | unsigned(uint32_t(w >> 32) == 0xffffffffu) << 1;
}
inline unsigned word_touched(uint64_t w) {
  return unsigned(uint32_t(w) != 0) | unsigned(uint32_t(w >> 32) != 0) << 1;
}
}  // namespace byte_mask_detail

// The bytes of the sectors in chunk_mask.
inline ByteMask sector_bytes(uint8_t sectors) {
  using namespace byte_mask_detail;
  return ByteMask(word_bytes(sectors >> 2)) << 64 | word_bytes(sectors);
}

// The bytes of the 8 B words in a MemReq::word_mask.
inline ByteMask word_bytes_of(uint16_t words) {
  ByteMask m = 0;
  for (unsigned w = 0; w < 16; ++w)
    if (words >> w & 1u) m |= ByteMask(0xFFu) << (8 * w);
  return m;
}

// Sectors all of whose bytes are set.
inline uint8_t full_sectors(ByteMask m) {
  using namespace byte_mask_detail;
  return uint8_t(word_full(lo(m)) | word_full(hi(m)) << 2);
}

// Sectors with at least one byte set.
inline uint8_t touched_sectors(ByteMask m) {
  using namespace byte_mask_detail;
  return uint8_t(word_touched(lo(m)) | word_touched(hi(m)) << 2);
}

// Bytes [offset, offset + len) of the line (offset + len <= 128).
inline ByteMask range_bytes(unsigned offset, unsigned len) {
  if (len == 0) return 0;
  ByteMask m = len >= kLineBytes ? kAllBytes : (ByteMask(1) << len) - 1;
  return m << offset;
}

inline unsigned count_bytes(ByteMask m) {
  return unsigned(__builtin_popcountll(uint64_t(m)) + __builtin_popcountll(uint64_t(m >> 64)));
}

inline bool covers(ByteMask have, ByteMask need) {
  return (need & ~have) == 0;
}

// Index of the lowest set bit (m != 0).
inline unsigned lowest_byte(ByteMask m) {
  const uint64_t l = uint64_t(m);
  return l ? unsigned(__builtin_ctzll(l)) : 64 + unsigned(__builtin_ctzll(uint64_t(m >> 64)));
}

// Calls f(first, len) for each run of consecutive set bytes, lowest first (a few runs per line, so
// byte copies and fills go by memcpy/memset).
template <class F>
inline void for_each_run(ByteMask m, F&& f) {
  while (m) {
    const unsigned a = lowest_byte(m);
    const ByteMask rest = ~(m >> a);
    const unsigned len = rest ? lowest_byte(rest) : kLineBytes - a;
    f(a, len);
    m &= ~range_bytes(a, len);
  }
}

// What the LLC keeps per line beside the core's TagEntry (whose sector bits mirror it). Extensions of
// the line state (G-Cache victim bits, adaptive-LLC bookkeeping) add their fields here.
struct LlcLineState {
  ByteMask valid = 0;
  ByteMask dirty = 0;
  void clear() { valid = dirty = 0; }
};

}  // namespace gms
