// What memory holds before anyone writes it: a fixed function of the address, shared by the DRAM
// backing store and the testbench's golden memory, so loads of untouched memory are checkable too.
#pragma once
#include <cstdint>
#include <cstring>

namespace gms {

// The hash behind every byte of the 8-byte word at word_addr (= addr >> 3): byte i of the word is bits
// 8i.. of it.
inline uint64_t initial_word(uint64_t word_addr) {
  uint64_t x = word_addr * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 32;
  return x;
}

inline uint8_t initial_byte(uint64_t addr) {
  return uint8_t(initial_word(addr >> 3) >> ((addr & 7) * 8));
}

// initial_byte() for n bytes from addr, one hash per 8-byte word instead of one per byte (tests compare
// the two byte for byte).
inline void fill_initial_bytes(uint64_t addr, uint8_t* out, unsigned n) {
  for (unsigned i = 0; i < n;) {
    const uint64_t a = addr + i, x = initial_word(a >> 3);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if ((a & 7) == 0 && n - i >= 8) {  // a whole word: its bytes are x's bytes in memory order
      std::memcpy(out + i, &x, 8);
      i += 8;
      continue;
    }
#endif
    for (unsigned k = unsigned(a & 7); k < 8 && i < n; ++k, ++i) out[i] = uint8_t(x >> (k * 8));
  }
}

}  // namespace gms
