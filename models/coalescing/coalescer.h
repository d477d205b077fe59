// Coalescing unit: merges a warp instruction's active-lane accesses into the 128 B line requests it needs,
// each with the 32 B chunk (sector) mask the lanes touch (papers 000 sec. 3.2, 001, 002, 003 sec. 4.1).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/workload.h"

namespace gms {

struct LineRequest {
  uint64_t line_addr = 0;          // 128 B aligned
  uint8_t chunk_mask = 0;          // 32 B chunks touched
  uint32_t lanes = 0;              // lanes with at least one byte in this line
  uint64_t byte_mask[2] = {0, 0};  // bytes touched: bit i of word i/64 = byte i of the line
  // The part of the 128 B line the request is about: all of it, or one small L1 line (split_to_lines).
  uint8_t span_lo = 0, span_hi = 128;

  bool byte_touched(unsigned offset) const { return (byte_mask[offset / 64] >> (offset % 64)) & 1; }
  void touch_bytes(unsigned lo, unsigned hi);  // [lo, hi) within the line
};

// The 8 B words of a line that a byte mask touches (MemReq::word_mask).
inline uint16_t words_of_bytes(const uint64_t (&byte_mask)[2]) {
  uint16_t w = 0;
  for (unsigned i = 0; i < 16; ++i)
    if ((byte_mask[i / 8] >> (8 * (i % 8))) & 0xFFu) w = uint16_t(w | 1u << i);
  return w;
}

// Every access must fit below 2^64: bytes [addr, addr + width) with addr + width <= 2^64 (the very last
// line, 0xffffffffffffff80, is an ordinary line). The first active lane whose access wraps past the top,
// or -1; and the message for it: "lane 5 address 0xfffffffffffffffe + 4 bytes wraps past 2^64". Trace
// readers reject such instructions as bad input with this message.
int first_wrapping_lane(const WarpInst& inst);
std::string wrap_error(const WarpInst& inst, unsigned lane);
// What the SM cannot issue because of an address: a wrapping lane (above), or an atomic lane not aligned to
// its width ("atomic lane 3 address 0x1002 is not aligned to its 4 bytes"); "" when none.
std::string address_error(const WarpInst& inst);

// Coalescing to an L1 line smaller than 128 B (paper 000 sec. 2.2: "memory coalescing is done using the
// granularity of cache line size"): each 128 B request becomes one request per `line_bytes` line it
// touches (32 or 64), with chunk mask, byte mask and lanes restricted to that line; `scratch` is reused.
void split_to_lines(const WarpInst& inst, unsigned line_bytes, std::vector<LineRequest>& reqs,
                    std::vector<LineRequest>& scratch);

class Coalescer {
 public:
  // Line requests in order of first touch by lane index; an access crossing a line boundary is split
  // across both lines; every active lane is in at least one request. Throws std::invalid_argument for a
  // width other than 1, 2, 4, 8 or 16 and for a lane whose access wraps past 2^64 (wrap_error()).
  static void coalesce(const WarpInst& inst, std::vector<LineRequest>& out);
  // Same, into a buffer owned by the coalescer (reused: no allocation in steady state).
  const std::vector<LineRequest>& run(const WarpInst& inst) {
    coalesce(inst, buf_);
    return buf_;
  }

 private:
  std::vector<LineRequest> buf_;
};

}  // namespace gms
