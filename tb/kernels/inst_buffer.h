// A warp's instructions between the port that makes them and the SM that pulls them, packed: a unit- or
// fixed-stride access keeps two numbers instead of 32 addresses, registers only when present. A batch of a
// few dozen instructions takes a few KiB, so thousands of resident warps stay cheap.
#pragma once
#include <cstdint>
#include <vector>

#include "models/common/workload.h"

namespace gms::kernels {

class InstBuffer {
 public:
  void push(const WarpInst& inst);
  // The oldest instruction not yet popped; false when none is left (the buffer is then emptied).
  bool pop(WarpInst& out);
  size_t count() const { return count_; }
  size_t bytes() const { return size_ - read_; }

  // The most bytes one instruction takes: header, registers, 32 addresses.
  static constexpr size_t kMaxInstBytes = 64 + 2 * sizeof(RegSet) + kWarpSize * sizeof(uint64_t);

 private:
  template <class T>
  void put(const T& x);
  template <class T>
  T get();

  std::vector<uint8_t> buf_;  // capacity only; size_ bytes are used (no per-field resize)
  size_t size_ = 0, read_ = 0, count_ = 0;
};

}  // namespace gms::kernels
