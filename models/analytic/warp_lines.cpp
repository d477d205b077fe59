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

bool all_bytes(const LineRequest& r, unsigned lo, unsigned hi) {
  for (unsigned w = lo / 64; w * 64 < hi; ++w) {
    unsigned a = std::max(lo, w * 64) - w * 64, b = std::min(hi, w * 64 + 64) - w * 64;
    uint64_t m = b - a == 64 ? ~uint64_t(0) : ((uint64_t(1) << (b - a)) - 1) << a;
    if ((r.byte_mask[w] & m) != m) return false;
  }
  return true;
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

// The coalescer's 128 B requests in order, each split into the model's lines as resize_lines does (with
// 128 B lines the same sequence as coalesce_lines), a sector being touched by any byte, full with all.
void WarpLines::lines(const WarpInst& inst, std::vector<uint64_t>& out, std::vector<SectorMask>& sectors) {
  out.clear();
  sectors.clear();
  for (const auto& r : coalescer_.run(inst))
    for (unsigned lo = 0; lo < kReqBytes; lo += line_bytes_) {
      if (!any_byte(r, lo, lo + line_bytes_)) continue;
      SectorMask m;
      for (unsigned s = lo, i = 0; s < lo + line_bytes_; s += sector_bytes_, ++i) {
        if (any_byte(r, s, s + sector_bytes_)) m.touched = uint8_t(m.touched | 1u << i);
        if (all_bytes(r, s, s + sector_bytes_)) m.full = uint8_t(m.full | 1u << i);
      }
      out.push_back(r.line_addr + lo);
      sectors.push_back(m);
    }
}

}  // namespace gms
