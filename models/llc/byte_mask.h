// Byte and sector bookkeeping of a 128 B LLC line: a bit per byte (valid, dirty, requested, written) and
// the conversions to the 4-bit sector (chunk) masks the requests carry. A sector is valid when all 32 of
// its bytes are; partially written sectors keep per-byte state so a fill can merge around the stores.
#pragma once
#include <cstdint>

#include "models/common/mem_req.h"

namespace gms {

using ByteMask = unsigned __int128;  // bit i = byte i of the line

constexpr ByteMask kAllBytes = ~ByteMask(0);
constexpr ByteMask kSectorBits = (ByteMask(1) << kChunkBytes) - 1;

// The bytes of the sectors in chunk_mask.
inline ByteMask sector_bytes(uint8_t sectors) {
  ByteMask m = 0;
  for (unsigned s = 0; s < kChunksPerLine; ++s)
    if (sectors & (1u << s)) m |= kSectorBits << (s * kChunkBytes);
  return m;
}

// Sectors all of whose bytes are set.
inline uint8_t full_sectors(ByteMask m) {
  uint8_t out = 0;
  for (unsigned s = 0; s < kChunksPerLine; ++s)
    if (((m >> (s * kChunkBytes)) & kSectorBits) == kSectorBits) out |= uint8_t(1u << s);
  return out;
}

// Sectors with at least one byte set.
inline uint8_t touched_sectors(ByteMask m) {
  uint8_t out = 0;
  for (unsigned s = 0; s < kChunksPerLine; ++s)
    if ((m >> (s * kChunkBytes)) & kSectorBits) out |= uint8_t(1u << s);
  return out;
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

// What the LLC keeps per line beside the core's TagEntry (whose sector bits mirror it). Extensions of
// the line state (G-Cache victim bits, adaptive-LLC bookkeeping) add their fields here.
struct LlcLineState {
  ByteMask valid = 0;
  ByteMask dirty = 0;
  void clear() { valid = dirty = 0; }
};

}  // namespace gms
