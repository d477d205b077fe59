// A warp's instructions between the port that makes them and the SM that pulls them, packed: a unit- or
// fixed-stride access keeps two numbers instead of 32 addresses, registers only when present. A batch of a
// few dozen instructions takes a few KiB, kept in the buffer itself (no allocation per warp); a longer
// run (a warp driven to a barrier) moves to the heap.
#pragma once
#include <cstdint>
#include <memory>

#include "models/common/workload.h"

namespace gms::kernels {

struct AddrProgression;

class InstBuffer {
 public:
  InstBuffer() = default;
  InstBuffer(const InstBuffer&) = delete;
  InstBuffer& operator=(const InstBuffer&) = delete;

  // `prog` non-null: the active lanes' addresses are prog->first + lane * prog->stride (inst.addr unread).
  void push(const WarpInst& inst, const AddrProgression* prog = nullptr);
  // The oldest instruction not yet popped; false when none is left (the buffer is then emptied).
  bool pop(WarpInst& out);
  size_t count() const { return count_; }
  size_t bytes() const { return size_ - read_; }

  // The most bytes one instruction takes: header, registers, 32 addresses.
  static constexpr size_t kMaxInstBytes = 64 + 2 * sizeof(RegSet) + kWarpSize * sizeof(uint64_t);
  static constexpr size_t kInlineBytes = 3072;

 private:
  void grow();

  uint8_t* data_ = inline_;
  size_t capacity_ = kInlineBytes;
  size_t size_ = 0, read_ = 0, count_ = 0;
  std::unique_ptr<uint8_t[]> heap_;
  uint8_t inline_[kInlineBytes];  // not initialised: only size_ bytes are ever read
};

}  // namespace gms::kernels
