// LEB128 varints and zigzag signed mapping for the binary native trace (docs/trace-format.md). Decoding is
// templated on a byte source with `uint8_t byte()` (throws at the end of input) and `[[noreturn]] void
// fail(const std::string&)` (reports where the bad record is), so the same code reads files and memory.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gms {

inline void put_varint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(uint8_t(v) | 0x80);
    v >>= 7;
  }
  out.push_back(uint8_t(v));
}

inline uint64_t zigzag(int64_t v) {
  return (uint64_t(v) << 1) ^ uint64_t(v >> 63);
}
inline int64_t unzigzag(uint64_t v) {
  return int64_t(v >> 1) ^ -int64_t(v & 1);
}

template <class Src>
uint64_t get_varint(Src& src) {
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    const uint8_t b = src.byte();
    if (shift == 63 && b > 1) src.fail("varint overflows 64 bits");
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  src.fail("varint longer than 10 bytes");
}

template <class Src>
uint32_t get_varint32(Src& src, const char* what) {
  const uint64_t v = get_varint(src);
  if (v > UINT32_MAX) src.fail(std::string(what) + " " + std::to_string(v) + " does not fit 32 bits");
  return uint32_t(v);
}

}  // namespace gms
