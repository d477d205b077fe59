#include "models/analytic/warp_lines.h"

#include <algorithm>

namespace gms {

namespace {

bool any_byte(const LineRequest& r, unsigned lo, unsigned hi) {
  for (unsigned w = lo / 64; w * 64 < hi; ++w) {
    unsigned a = std::max(lo, w * 64) - w * 64, b = std::min(hi, w * 64 + 64) - w * 64;
    uint64_t m = b - a == 64 ? ~uint64_t(0) : ((uint64_t(1) << (b - a)) - 1) << a;
    if (r.byte_mask[w] & m) return true;
  }
  return false;
}
}  // namespace

void WarpLines::resize_lines(const WarpInst& inst, std::vector<uint64_t>& out) {
  out.clear();
  const auto& reqs = coalescer_.run(inst);
  if (line_bytes_ < kReqBytes) {
    for (const auto& r : reqs)
      for (unsigned lo = 0; lo < kReqBytes; lo += line_bytes_)
        if (any_byte(r, lo, lo + line_bytes_)) out.push_back(r.line_addr + lo);
  } else {
    for (const auto& r : reqs) {
      uint64_t l = r.line_addr & ~uint64_t(line_bytes_ - 1);
      if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
    }
  }
}

}  // namespace gms
