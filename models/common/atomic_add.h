// The memory system's atomic operation (docs/atomics.md): each element of `width` bytes (4 or 8, aligned,
// little endian) whose first byte is enabled gets its operand added, modulo 2^(8 width). One definition for
// whoever performs atomics: the LLC slice (shared organisation) and the DRAM channel (private).
#pragma once
#include <cstdint>

namespace gms {

// elems[i] += ops[i] for the elements starting at each i in [0, n) with enabled(i); old values to `old`
// (indexed like elems; may be null). `ops` and `old` may alias.
template <class Enabled>
void atomic_add_elements(uint8_t* elems, const uint8_t* ops, unsigned n, unsigned width, Enabled enabled,
                         uint8_t* old = nullptr) {
  for (unsigned i = 0; i + width <= n; i += width) {
    if (!enabled(i)) continue;
    unsigned carry = 0;
    for (unsigned b = 0; b < width; ++b) {
      const uint8_t was = elems[i + b];
      const unsigned sum = unsigned(was) + ops[i + b] + carry;
      carry = sum >> 8;
      if (old) old[i + b] = was;
      elems[i + b] = uint8_t(sum);
    }
  }
}

}  // namespace gms
