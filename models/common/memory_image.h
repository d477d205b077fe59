// What memory holds before anyone writes it: a fixed function of the address, shared by the DRAM
// backing store and the testbench's golden memory, so loads of untouched memory are checkable too.
#pragma once
#include <cstdint>

namespace gms {

inline uint8_t initial_byte(uint64_t addr) {
  uint64_t x = (addr >> 3) * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 29;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 32;
  return uint8_t(x >> ((addr & 7) * 8));
}

}  // namespace gms
