#include "tb/traces/native_codec.h"

namespace gms {

int width_code(unsigned width) {
  switch (width) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 4:
      return 2;
    case 8:
      return 3;
    case 16:
      return 4;
    default:
      return -1;
  }
}

AddrEncoding choose_encoding(const WarpInst& in, int64_t& stride) {
  stride = 0;
  const uint32_t m = in.active_mask;
  if (!m) return AddrEncoding::List;
  bool arith = true, small = true, first = true, second = true;
  uint64_t prev = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(m >> l & 1)) continue;
    const uint64_t a = in.addr[l];
    if (!first) {
      const int64_t d = int64_t(a - prev);
      if (second)
        stride = d;
      else if (d != stride)
        arith = false;
      if (d < INT32_MIN || d > INT32_MAX) small = false;
      second = false;
    }
    first = false;
    prev = a;
  }
  if (arith) return AddrEncoding::Stride;
  stride = 0;
  return small ? AddrEncoding::Delta : AddrEncoding::List;
}

void encode_inst(const TraceInst& t, CodecState& st, std::vector<uint8_t>& out) {
  const WarpInst& in = t.inst;
  const bool full = in.active_mask == 0xffffffffu;
  if (in.kind == MemKind::Barrier) {  // pc, mask, gap, time: no width, no addresses
    out.push_back(uint8_t((kBarrierEncoding << kEncodingShift) | (t.has_time ? kFlagTime : 0) |
                          (full ? kFlagFullMask : 0)));
    put_varint(out, zigzag(int64_t(in.pc - st.pc)));
    st.pc = in.pc;
    if (!full) put_varint(out, in.active_mask);
    put_varint(out, in.gap);
    if (t.has_time) {
      put_varint(out, zigzag(int64_t(t.time - st.time)));
      st.time = t.time;
    }
    return;
  }
  const bool atomic = in.kind == MemKind::Atomic;
  if (in.kind != MemKind::Load && in.kind != MemKind::Store && !atomic)
    throw std::invalid_argument(std::string("native trace: cannot record a ") + to_string(in.kind) +
                                " instruction (only loads, stores, atomics and barriers)");
  if (atomic && in.width != 4 && in.width != 8)
    throw std::invalid_argument("native trace: atomic width " + std::to_string(in.width) + " is not 4 or 8");
  const int wc = atomic ? int(in.width == 4 ? kAtomicWidthCode4 : kAtomicWidthCode8) : width_code(in.width);
  if (wc < 0)
    throw std::invalid_argument("native trace: width " + std::to_string(in.width) +
                                " is not 1, 2, 4, 8 or 16");
  int64_t stride = 0;
  const AddrEncoding enc = choose_encoding(in, stride);
  out.push_back(uint8_t((in.kind != MemKind::Load ? kFlagStore : 0) | (wc << kWidthShift) |
                        (unsigned(enc) << kEncodingShift) | (t.has_time ? kFlagTime : 0) |
                        (full ? kFlagFullMask : 0)));
  put_varint(out, zigzag(int64_t(in.pc - st.pc)));
  st.pc = in.pc;
  if (!full) put_varint(out, in.active_mask);
  put_varint(out, in.gap);
  if (t.has_time) {
    put_varint(out, zigzag(int64_t(t.time - st.time)));
    st.time = t.time;
  }
  const uint32_t m = in.active_mask;
  if (!m) return;
  bool first = true;
  uint64_t prev = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(m >> l & 1)) continue;
    const uint64_t a = in.addr[l];
    if (enc == AddrEncoding::List) {
      put_varint(out, a);
      if (first) st.base = a;
    } else if (first) {
      put_varint(out, zigzag(int64_t(a - st.base)));
      st.base = a;
      if (enc == AddrEncoding::Stride) {
        put_varint(out, zigzag(stride));
        return;
      }
    } else {
      put_varint(out, zigzag(int64_t(a - prev)));
    }
    first = false;
    prev = a;
  }
}

}  // namespace gms
