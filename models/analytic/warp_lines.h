// Coalescing before the reuse analysis (paper 003 sec. 4.1): a warp instruction's active lanes become the
// distinct cache lines they touch. With the model's lines equal to the coalescer's 128 B lines the model's
// own line-only coalescing (line_coalesce.h) gives them directly; otherwise the SM's coalescer (128 B
// requests with byte masks) runs and its requests are split into or merged to the model's line size.
#pragma once
#include <cstdint>
#include <vector>

#include "models/analytic/line_coalesce.h"
#include "models/coalescing/coalescer.h"

namespace gms {

class WarpLines {
 public:
  explicit WarpLines(uint32_t line_bytes) : line_bytes_(line_bytes) {}
  // Line byte addresses in order of first touch into `out`; empty for an instruction without active lanes.
  void lines(const WarpInst& inst, std::vector<uint64_t>& out) {
    if (line_bytes_ == kReqBytes)
      coalesce_lines(inst, out);
    else
      resize_lines(inst, out);
  }

 private:
  static constexpr uint32_t kReqBytes = 128;  // the coalescer's request size
  void resize_lines(const WarpInst& inst, std::vector<uint64_t>& out);
  uint32_t line_bytes_;
  Coalescer coalescer_;
};

}  // namespace gms
