// Test helper shared by the golden-memory tests: the bytes a never-written range reads as.
#pragma once
#include <cstdint>
#include <vector>

#include "tb/checker/golden_memory.h"

namespace gms {

inline std::vector<uint8_t> initial(uint64_t addr, unsigned n) {
  std::vector<uint8_t> v(n);
  fill_initial_bytes(addr, v.data(), n);
  return v;
}

}  // namespace gms
