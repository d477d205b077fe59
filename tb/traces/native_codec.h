// One warp instruction as the native trace stores it (docs/trace-format.md): the compact address encodings
// (base + stride, base + deltas, list) and the packed binary record that both the binary file and the
// reader's in-memory CTA buffers use. Records are delta-coded against the previous instruction of the same
// warp (CodecState, reset at every warp), so a warp's records decode on their own.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/workload.h"
#include "tb/traces/native_varint.h"

namespace gms {

// An instruction plus its optional timestamp (cycles, as recorded; replay ignores it: `gap` drives timing).
struct TraceInst {
  WarpInst inst;
  bool has_time = false;
  uint64_t time = 0;
};

enum class AddrEncoding : uint8_t { Stride = 0, Delta = 1, List = 2 };

// The most compact encoding of the active lanes' addresses (in lane order): Stride when they form an
// arithmetic sequence (one active lane: stride 0), else Delta when every step fits 32 bits signed, else
// List. No active lane: List (of nothing). `stride` is set for Stride.
AddrEncoding choose_encoding(const WarpInst& in, int64_t& stride);

// Widths 1, 2, 4, 8, 16 as 0..4; -1 for anything else.
int width_code(unsigned width);

struct CodecState {
  uint64_t pc = 0, base = 0, time = 0;
};

// Appends the packed record of `t`. Throws std::invalid_argument for a kind other than load, store, atomic
// or barrier, a load/store width other than 1, 2, 4, 8, 16, or an atomic's other than 4, 8. A barrier keeps
// pc, mask, gap (and time) only.
void encode_inst(const TraceInst& t, CodecState& st, std::vector<uint8_t>& out);

// flags byte of a packed record
constexpr uint8_t kFlagStore = 0x01;    // else load
constexpr unsigned kWidthShift = 1;     // bits 1-3: width code
constexpr unsigned kEncodingShift = 4;  // bits 4-5: AddrEncoding, or kBarrierEncoding
// A barrier (__syncthreads): no addresses, store bit and width code 0. Readers before barriers were added
// reject it as "unknown address encoding 3".
constexpr unsigned kBarrierEncoding = 3;
// An atomic (docs/atomics.md): the store bit with width code 5 (4 bytes) or 6 (8 bytes). Readers before
// atomics were added reject it as "width code 5 (or 6) is not one of 0..4".
constexpr unsigned kAtomicWidthCode4 = 5, kAtomicWidthCode8 = 6;
constexpr uint8_t kFlagTime = 0x40;      // a timestamp follows the gap
constexpr uint8_t kFlagFullMask = 0x80;  // mask 0xffffffff, not stored

template <class Src>
void decode_inst(Src& src, CodecState& st, TraceInst& out) {
  const uint8_t f = src.byte();
  WarpInst& in = out.inst;
  in.kind = (f & kFlagStore) ? MemKind::Store : MemKind::Load;
  const unsigned wc = (f >> kWidthShift) & 7;
  if (wc == kAtomicWidthCode4 || wc == kAtomicWidthCode8) {
    if (!(f & kFlagStore))
      src.fail("width code " + std::to_string(wc) + " (an atomic's) without the store bit");
    in.kind = MemKind::Atomic;
    in.width = wc == kAtomicWidthCode4 ? 4 : 8;
  } else if (wc > 4) {
    src.fail("width code " + std::to_string(wc) + " is not one of 0..6 (1, 2, 4, 8, 16 bytes; 5, 6 atomics)");
  } else {
    in.width = uint8_t(1u << wc);
  }
  const unsigned enc = (f >> kEncodingShift) & 3;
  const bool barrier = enc == kBarrierEncoding;
  if (barrier) {
    if (f & (kFlagStore | 7u << kWidthShift))
      src.fail(std::string("barrier record (encoding 3) with the store bit or a width code set (flags 0x") +
               "0123456789abcdef"[f >> 4] + "0123456789abcdef"[f & 15] + ")");
    in.kind = MemKind::Barrier;
    in.width = 0;
  }
  st.pc += uint64_t(unzigzag(get_varint(src)));
  in.pc = st.pc;
  in.active_mask = (f & kFlagFullMask) ? 0xffffffffu : get_varint32(src, "active mask");
  in.gap = get_varint32(src, "gap");
  out.has_time = (f & kFlagTime) != 0;
  out.time = 0;
  if (out.has_time) {
    st.time += uint64_t(unzigzag(get_varint(src)));
    out.time = st.time;
  }
  in.addr.fill(0);
  uint32_t m = in.active_mask;
  if (!m || barrier) return;
  if (enc == unsigned(AddrEncoding::List)) {
    bool first = true;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (m >> l & 1) {
        in.addr[l] = get_varint(src);
        if (first) st.base = in.addr[l];
        first = false;
      }
    return;
  }
  st.base += uint64_t(unzigzag(get_varint(src)));
  uint64_t a = st.base;
  const uint64_t stride = enc == unsigned(AddrEncoding::Stride) ? uint64_t(unzigzag(get_varint(src))) : 0;
  bool first = true;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(m >> l & 1)) continue;
    if (!first) a += enc == unsigned(AddrEncoding::Stride) ? stride : uint64_t(unzigzag(get_varint(src)));
    in.addr[l] = a;
    first = false;
  }
}

// One warp's instructions, packed (a few bytes per regular instruction).
struct PackedWarp {
  uint32_t count = 0;
  std::vector<uint8_t> bytes;
  CodecState st;  // encoder state after the last add()
  void add(const TraceInst& t) {
    encode_inst(t, st, bytes);
    ++count;
  }
  void clear() {
    count = 0;
    bytes.clear();
    st = CodecState{};
  }
};

// Decodes records we packed ourselves: running past the end is a programming error.
class SpanSource {
 public:
  SpanSource(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  uint8_t byte() {
    if (p_ == end_) fail("record runs past the end of the buffer");
    return *p_++;
  }
  [[noreturn]] void fail(const std::string& msg) { throw std::logic_error("packed warp stream: " + msg); }
  bool done() const { return p_ == end_; }
  const uint8_t* pos() const { return p_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

}  // namespace gms
