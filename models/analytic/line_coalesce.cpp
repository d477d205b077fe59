#include "models/analytic/line_coalesce.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "models/coalescing/coalescer.h"

namespace gms {

namespace {

constexpr uint64_t kLine = 128;  // the coalescer's request size

// Distinct lines in first-touch order: open addressing over at most 64 lines (as the coalescer's index).
class Distinct {
 public:
  explicit Distinct(std::vector<uint64_t>& out) : out_(out) { std::memset(slot_, 0, sizeof slot_); }
  void add(uint64_t line) {
    if (!out_.empty() && out_.back() == line) return;  // neighbouring lanes share a line
    for (unsigned h = unsigned((line / kLine) * 0x9E3779B97F4A7C15ULL >> 57);; h = (h + 1) % 128) {
      if (slot_[h] == 0) {
        out_.push_back(line);
        slot_[h] = uint8_t(out_.size());
        return;
      }
      if (out_[slot_[h] - 1u] == line) return;
    }
  }

 private:
  std::vector<uint64_t>& out_;
  uint8_t slot_[128];  // index in out + 1; 0 = empty
};

// Lanes in address order (strided loads, e.g. a record per thread): their lines come in non-decreasing
// order, so a line repeats only right after itself and no index is needed. False (out cleared) when a
// lane goes back to an earlier line or wraps past 2^64 (the general path reports it).
bool ordered_lines(const WarpInst& inst, uint32_t mask, unsigned w, std::vector<uint64_t>& out) {
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint64_t a = inst.addr[unsigned(__builtin_ctz(m))], last_byte = a + (w - 1);
    const uint64_t first = a & ~(kLine - 1), last = last_byte & ~(kLine - 1);
    if (last_byte < a || (!out.empty() && first < out.back())) {
      out.clear();
      return false;
    }
    if (out.empty() || first != out.back()) out.push_back(first);
    if (last != first) out.push_back(last);
  }
  return true;
}

}  // namespace

void coalesce_lines(const WarpInst& inst, std::vector<uint64_t>& out) {
  out.clear();
  const unsigned w = inst.width;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw std::invalid_argument("coalescer: access width " + std::to_string(w) + " at pc " +
                                std::to_string(inst.pc) + " is not 1, 2, 4, 8 or 16 bytes");
  const uint32_t mask = inst.active_mask;
  if (!mask) return;
  // The common case: every active lane's first and last byte in the first active lane's line (a lane
  // wrapping past the top of the address space fails this and is rejected below, as by the coalescer).
  const uint64_t line = inst.addr[unsigned(__builtin_ctz(mask))] & ~(kLine - 1);
  uint64_t diff = 0;
  if (mask == ~0u) {
    // Two lanes at a time (portable GCC/Clang vectors, SSE2 on x86-64); x + w - 1 >= 128 or wrapping:
    // outside the line.
    typedef uint64_t V2 __attribute__((vector_size(16)));
    V2 acc = {0, 0};
    for (unsigned l = 0; l < kWarpSize; l += 2) {
      V2 a;
      std::memcpy(&a, &inst.addr[l], sizeof a);
      const V2 x = a ^ line;
      acc |= x | (x + (w - 1));
    }
    diff = acc[0] | acc[1];
  } else {
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint64_t a = inst.addr[unsigned(__builtin_ctz(m))];
      diff |= (a ^ line) | ((a + w - 1) ^ line);
    }
  }
  if (diff < kLine) {
    out.push_back(line);
    return;
  }
  if (ordered_lines(inst, mask, w, out)) return;
  Distinct d(out);
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    const uint64_t a = inst.addr[lane], last_byte = a + (w - 1);
    if (last_byte < a) throw std::invalid_argument(wrap_error(inst, lane));  // as the coalescer
    const uint64_t last = last_byte & ~(kLine - 1);  // at most two lines (width <= 16)
    for (uint64_t l = a & ~(kLine - 1);; l += kLine) {
      d.add(l);
      if (l == last) break;
    }
  }
}

}  // namespace gms
