// Coalescing before the reuse analysis (paper 003 sec. 4.1): a warp instruction's active lanes become the
// distinct cache lines they touch. With the model's lines equal to the coalescer's 128 B lines the model's
// own line-only coalescing (line_coalesce.h) gives them directly; otherwise the SM's coalescer (128 B
// requests with byte masks) runs and its requests are split into or merged to the model's line size.
// With tracked sectors (lines of at most 128 B) the coalescer's byte masks also give each line's sectors.
#pragma once
#include <cstdint>
#include <vector>

#include "models/analytic/line_coalesce.h"
#include "models/coalescing/coalescer.h"

namespace gms {

// The sectors (bit i = sector i of the line) a warp instruction touches in one line, and those it covers
// completely (every byte: what a write-allocate store makes valid).
struct SectorMask {
  uint8_t touched = 0;
  uint8_t full = 0;
};

class WarpLines {
 public:
  // sector_bytes: the tracked sector size (0: sectors not tracked; else it divides line_bytes <= 128).
  explicit WarpLines(uint32_t line_bytes, uint32_t sector_bytes = 0)
      : line_bytes_(line_bytes), sector_bytes_(sector_bytes) {}
  // Line byte addresses in order of first touch into `out`; empty for an instruction without active lanes.
  void lines(const WarpInst& inst, std::vector<uint64_t>& out) {
    if (line_bytes_ == kReqBytes)
      coalesce_lines(inst, out);
    else
      resize_lines(inst, out);
  }
  // The same lines, with their sectors (tracked sectors only).
  void lines(const WarpInst& inst, std::vector<uint64_t>& out, std::vector<SectorMask>& sectors);

 private:
  static constexpr uint32_t kReqBytes = 128;  // the coalescer's request size
  void resize_lines(const WarpInst& inst, std::vector<uint64_t>& out);
  uint32_t line_bytes_;
  uint32_t sector_bytes_;
  Coalescer coalescer_;
};

}  // namespace gms
