#include "models/sm/coalescer.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gms {

void LineRequest::touch_bytes(unsigned lo, unsigned hi) {
  for (unsigned w = 0; w < 2; ++w) {
    unsigned a = std::max(lo, w * 64), b = std::min(hi, w * 64 + 64);
    if (a >= b) continue;
    unsigned n = b - a;
    uint64_t bits = n == 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1);
    byte_mask[w] |= bits << (a - w * 64);
  }
  for (unsigned c = lo / kChunkBytes; c * kChunkBytes < hi; ++c) chunk_mask |= uint8_t(1u << c);
}

namespace {

// The request for `line`, appended if new. The previous lane usually hit the same or the last line.
LineRequest& request_for(std::vector<LineRequest>& out, uint64_t line) {
  for (size_t i = out.size(); i-- > 0;)
    if (out[i].line_addr == line) return out[i];
  out.emplace_back();
  out.back().line_addr = line;
  return out.back();
}

}  // namespace

void Coalescer::coalesce(const WarpInst& inst, std::vector<LineRequest>& out) {
  out.clear();
  const unsigned w = inst.width;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw std::invalid_argument("coalescer: access width " + std::to_string(w) + " at pc " +
                                std::to_string(inst.pc) + " is not 1, 2, 4, 8 or 16 bytes");
  for (uint32_t m = inst.active_mask; m;) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    m &= m - 1;
    const uint64_t a = inst.addr[lane], end = a + w;
    for (uint64_t line = line_of(a); line < end; line += kLineBytes) {
      LineRequest& r = request_for(out, line);
      r.lanes |= 1u << lane;
      unsigned lo = a > line ? unsigned(a - line) : 0;
      unsigned hi = end - line < kLineBytes ? unsigned(end - line) : kLineBytes;
      r.touch_bytes(lo, hi);
    }
  }
}

}  // namespace gms
