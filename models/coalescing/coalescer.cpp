#include "models/coalescing/coalescer.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "models/common/text_excerpt.h"

namespace gms {

namespace {

using u128 = unsigned __int128;

// Bits [0, n) of the 128-bit byte mask of a line.
u128 bytes_below(unsigned n) {
  return n >= kLineBytes ? ~u128(0) : (u128(1) << n) - 1;
}

// Byte mask bits [lo, hi) set: word arithmetic, no per-byte loop.
void set_bytes(uint64_t (&mask)[2], unsigned lo, unsigned hi) {
  const u128 m = bytes_below(hi) & ~bytes_below(lo);
  mask[0] |= uint64_t(m);
  mask[1] |= uint64_t(m >> 64);
}

// Chunk c is touched when any byte of [32c, 32c+32) is.
uint8_t chunks_of(const uint64_t (&mask)[2]) {
  static_assert(kChunkBytes == 32 && kLineBytes == 128, "two chunks per 64-bit mask word");
  return uint8_t((uint32_t(mask[0]) != 0) | (uint32_t(mask[0] >> 32) != 0) << 1 |
                 (uint32_t(mask[1]) != 0) << 2 | (uint32_t(mask[1] >> 32) != 0) << 3);
}

// Line address -> index in the output, for one instruction: open addressing over at most 64 lines (32
// lanes, each in one or two lines), so the lookup stays O(1) even when every lane hits a different line.
class LineIndex {
 public:
  LineIndex() { std::memset(slot_, 0, sizeof slot_); }
  LineRequest& find_or_add(std::vector<LineRequest>& out, uint64_t line) {
    // Neighbouring lanes usually hit the line the previous lane hit.
    if (!out.empty() && out.back().line_addr == line) return out.back();
    for (unsigned h = unsigned((line / kLineBytes) * 0x9E3779B97F4A7C15ULL >> 57);; h = (h + 1) % kSlots) {
      if (slot_[h] == 0) {
        out.emplace_back();
        out.back().line_addr = line;
        slot_[h] = uint8_t(out.size());
        return out.back();
      }
      LineRequest& r = out[slot_[h] - 1u];
      if (r.line_addr == line) return r;
    }
  }

 private:
  static constexpr unsigned kSlots = 128;  // a power of two (the hash takes the top 7 bits), load <= 1/2
  uint8_t slot_[kSlots];                   // index in the output + 1; 0 = empty
};

// The commonest instruction of all: every lane active, lane i at base + i*width, all in one line. The
// check has no early exit so the compiler vectorises it; false, with `out` untouched, otherwise.
bool coalesce_unit_stride(const WarpInst& inst, unsigned width, std::vector<LineRequest>& out) {
  if (inst.active_mask != 0xffffffffu) return false;
  const uint64_t base = inst.addr[0], span = uint64_t(width) * kWarpSize;
  if (base % width || line_of(base) != line_of(base + span - 1) || base + (span - 1) < base) return false;
  uint64_t off = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) off |= inst.addr[l] ^ (base + uint64_t(l) * width);
  if (off) return false;
  LineRequest& r = out.emplace_back();
  r.line_addr = line_of(base);
  r.lanes = inst.active_mask;
  set_bytes(r.byte_mask, unsigned(base % kLineBytes), unsigned(base % kLineBytes + span));
  r.chunk_mask = chunks_of(r.byte_mask);
  return true;
}

// The fully coalesced case, in one tight loop: every active lane inside the first active lane's line and
// inside one 64-bit word of its byte mask (always so for width-aligned accesses). False, with `out`
// untouched, when some lane is not.
bool coalesce_one_line(const WarpInst& inst, unsigned width, std::vector<LineRequest>& out) {
  // A lane inside one 64-bit word of the line cannot wrap past 2^64, not even in the very last line.
  const uint64_t line = line_of(inst.addr[unsigned(__builtin_ctz(inst.active_mask))]);
  const uint64_t lane_bytes = (uint64_t(1) << width) - 1;
  uint64_t bytes[2] = {0, 0};
  for (uint32_t m = inst.active_mask; m; m &= m - 1) {
    const uint64_t a = inst.addr[unsigned(__builtin_ctz(m))];
    if (line_of(a) != line || a % 64 + width > 64) return false;
    bytes[(a % kLineBytes) / 64] |= lane_bytes << (a % 64);
  }
  LineRequest& r = out.emplace_back();
  r.line_addr = line;
  r.lanes = inst.active_mask;
  r.byte_mask[0] = bytes[0];
  r.byte_mask[1] = bytes[1];
  r.chunk_mask = chunks_of(r.byte_mask);
  return true;
}

}  // namespace

int first_wrapping_lane(const WarpInst& inst) {
  for (uint32_t m = inst.active_mask; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    if (inst.addr[lane] + (inst.width ? inst.width - 1u : 0u) < inst.addr[lane]) return int(lane);
  }
  return -1;
}

std::string wrap_error(const WarpInst& inst, unsigned lane) {
  return "lane " + std::to_string(lane) + " address " + to_hex(inst.addr[lane]) + " + " +
         std::to_string(inst.width) + " bytes wraps past 2^64";
}

std::string address_error(const WarpInst& inst) {
  if (const int lane = first_wrapping_lane(inst); lane >= 0) return wrap_error(inst, unsigned(lane));
  if (inst.kind == MemKind::Atomic && inst.width)
    for (uint32_t m = inst.active_mask; m; m &= m - 1) {
      const unsigned lane = unsigned(__builtin_ctz(m));
      if (inst.addr[lane] % inst.width)
        return "atomic lane " + std::to_string(lane) + " address " + to_hex(inst.addr[lane]) +
               " is not aligned to its " + std::to_string(inst.width) + " bytes";
    }
  return "";
}

void LineRequest::touch_bytes(unsigned lo, unsigned hi) {
  set_bytes(byte_mask, lo, hi);
  // Chunks [lo / 32, ceil(hi / 32)).
  const unsigned first = lo / kChunkBytes, last = (hi + kChunkBytes - 1) / kChunkBytes;
  if (first < last) chunk_mask |= uint8_t((1u << last) - (1u << first));
}

void Coalescer::coalesce(const WarpInst& inst, std::vector<LineRequest>& out) {
  out.clear();
  const unsigned w = inst.width;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw std::invalid_argument("coalescer: access width " + std::to_string(w) + " at pc " +
                                std::to_string(inst.pc) + " is not 1, 2, 4, 8 or 16 bytes");
  if (!inst.active_mask || coalesce_unit_stride(inst, w, out) || coalesce_one_line(inst, w, out)) return;
  const uint64_t lane_bytes = (uint64_t(1) << w) - 1;
  LineIndex index;
  // Consecutive lanes in one line are gathered in registers and merged into the output once per run;
  // runs are merged in lane order, so requests keep the order of first touch.
  uint64_t run_line = 0, run_bytes[2] = {0, 0};
  uint32_t run_lanes = 0;
  auto flush = [&] {
    if (!run_lanes) return;
    LineRequest& r = index.find_or_add(out, run_line);
    r.lanes |= run_lanes;
    r.byte_mask[0] |= run_bytes[0];
    r.byte_mask[1] |= run_bytes[1];
    run_lanes = 0;
    run_bytes[0] = run_bytes[1] = 0;
  };
  for (uint32_t m = inst.active_mask; m;) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    m &= m - 1;
    const uint64_t a = inst.addr[lane], last = a + (w - 1);  // last byte: no overflow in the last line
    if (last < a) throw std::invalid_argument(wrap_error(inst, lane));
    const unsigned word_off = unsigned(a % 64);
    if (word_off + w <= 64) {
      // Within one 64-bit word of the byte mask (always so for width-aligned accesses): one shift.
      const uint64_t line = line_of(a);
      if (line != run_line) {
        flush();
        run_line = line;
      }
      run_lanes |= 1u << lane;
      run_bytes[(a % kLineBytes) / 64] |= lane_bytes << word_off;
      continue;
    }
    // Misaligned: maybe crossing into the next line (at most two lines: width <= 16).
    flush();
    for (uint64_t line = line_of(a);; line += kLineBytes) {
      LineRequest& r = index.find_or_add(out, line);
      r.lanes |= 1u << lane;
      const unsigned lo = a > line ? unsigned(a - line) : 0;
      const unsigned hi = last - line < kLineBytes ? unsigned(last - line) + 1 : kLineBytes;
      set_bytes(r.byte_mask, lo, hi);
      if (line == line_of(last)) break;
    }
  }
  flush();
  // Chunk masks once per line rather than once per lane; every active lane must be in some line (an
  // instruction whose lane made no request would never be answered nor checked).
  uint32_t lanes = 0;
  for (LineRequest& r : out) {
    r.chunk_mask = chunks_of(r.byte_mask);
    lanes |= r.lanes;
  }
  if (lanes != inst.active_mask)
    throw std::logic_error("coalescer: active lanes " + to_hex(inst.active_mask & ~lanes) + " at pc " +
                           to_hex(inst.pc) + " made no line request");
}

void split_to_lines(const WarpInst& inst, unsigned line_bytes, std::vector<LineRequest>& reqs,
                    std::vector<LineRequest>& scratch) {
  if (line_bytes >= kLineBytes) return;
  scratch.clear();
  for (const LineRequest& r : reqs)
    for (unsigned lo = 0; lo < kLineBytes; lo += line_bytes) {
      uint64_t part[2] = {0, 0};
      set_bytes(part, lo, lo + line_bytes);
      part[0] &= r.byte_mask[0];
      part[1] &= r.byte_mask[1];
      if (!part[0] && !part[1]) continue;
      LineRequest& q = scratch.emplace_back();
      q.line_addr = r.line_addr;
      q.byte_mask[0] = part[0];
      q.byte_mask[1] = part[1];
      q.chunk_mask = chunks_of(part);
      q.span_lo = uint8_t(lo);
      q.span_hi = uint8_t(lo + line_bytes);
      // Lanes with a byte in [line + lo, line + lo + line_bytes), in 128-bit arithmetic (the last line
      // of the address space ends at 2^64).
      const u128 first = u128(r.line_addr) + lo, end = first + line_bytes;
      for (uint32_t m = r.lanes; m; m &= m - 1) {
        const unsigned l = unsigned(__builtin_ctz(m));
        const u128 a = inst.addr[l];
        if (a < end && a + inst.width > first) q.lanes |= 1u << l;
      }
    }
  reqs.swap(scratch);
}

}  // namespace gms
