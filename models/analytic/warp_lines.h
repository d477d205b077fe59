// Coalescing before the reuse analysis (paper 003 sec. 4.1): a warp instruction's active lanes become the
// distinct cache lines they touch, through the SM's coalescer (128 B requests with byte masks), then split
// into or merged to the model's line size.
#pragma once
#include <cstdint>
#include <vector>

#include "models/sm/coalescer.h"

namespace gms {

class WarpLines {
 public:
  explicit WarpLines(uint32_t line_bytes) : line_bytes_(line_bytes) {}
  // Line byte addresses in order of first touch; empty for an instruction without active lanes.
  const std::vector<uint64_t>& lines(const WarpInst& inst);

 private:
  uint32_t line_bytes_;
  Coalescer coalescer_;
  std::vector<uint64_t> out_;
};

}  // namespace gms
