#include "tb/kernels/inst_buffer.h"

#include <cstring>

#include "tb/kernels/lane_vec.h"
#include "tb/kernels/simt_warp.h"

namespace gms::kernels {

namespace {

enum Flags : uint8_t { kStrided = 1, kWaits = 2, kWrites = 4 };

// Active lanes' addresses equal first + lane * stride (the first active lane's address extended back).
bool strided(const WarpInst& w, uint64_t& first, uint64_t& stride) {
  const uint32_t m = w.active_mask;
  if (m == ~0u) {  // the common case: every lane
    first = w.addr[0];
    stride = w.addr[1] - w.addr[0];
    return vec::is_progression(w.addr.data(), first, stride);
  }
  if (!m) return false;
  const unsigned l0 = unsigned(__builtin_ctz(m));
  const uint32_t rest = m & (m - 1);
  if (!rest) {  // one lane
    stride = 0;
    first = w.addr[l0];
    return true;
  }
  const unsigned l1 = unsigned(__builtin_ctz(rest));
  const uint64_t d = w.addr[l1] - w.addr[l0];
  if (d % (l1 - l0)) return false;
  stride = d / (l1 - l0);
  first = w.addr[l0] - stride * l0;
  for (uint32_t b = rest; b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    if (w.addr[l] != first + stride * l) return false;
  }
  return true;
}

template <class T>
inline void put(uint8_t*& p, const T& x) {
  std::memcpy(p, &x, sizeof(T));
  p += sizeof(T);
}

template <class T>
inline T get(const uint8_t*& p) {
  T x;
  std::memcpy(&x, p, sizeof(T));
  p += sizeof(T);
  return x;
}

}  // namespace

void InstBuffer::grow() {
  size_t cap = 2 * capacity_;
  while (cap < size_ - read_ + kMaxInstBytes) cap *= 2;
  std::unique_ptr<uint8_t[]> bigger(new uint8_t[cap]);
  std::memcpy(bigger.get(), data_ + read_, size_ - read_);
  size_ -= read_;
  read_ = 0;
  heap_ = std::move(bigger);
  data_ = heap_.get();
  capacity_ = cap;
}

void InstBuffer::push(const WarpInst& w, const AddrProgression* prog) {
  if (capacity_ < size_ + kMaxInstBytes) grow();
  uint64_t first = 0, stride = 0;
  const bool has_addr = w.kind != MemKind::Barrier;
  bool is_strided = false;
  if (prog && has_addr) {
    first = prog->first;
    stride = prog->stride;
    is_strided = true;
  } else {
    is_strided = has_addr && strided(w, first, stride);
  }
  uint8_t flags = 0;
  if (is_strided) flags |= kStrided;
  if (w.waits_on.any()) flags |= kWaits;
  if (w.writes.any()) flags |= kWrites;
  uint8_t* p = data_ + size_;
  put(p, uint8_t(w.kind));
  put(p, w.width);
  put(p, flags);
  put(p, w.active_mask);
  put(p, w.pc);
  put(p, w.gap);
  if (flags & kWaits) {
    put(p, w.waits_on);
    put(p, w.wait_gap);
  }
  if (flags & kWrites) put(p, w.writes);
  if (!has_addr) {
  } else if (is_strided) {
    put(p, first);
    put(p, stride);
  } else {
    for (uint32_t b = w.active_mask; b; b &= b - 1) put(p, w.addr[unsigned(__builtin_ctz(b))]);
  }
  size_ = size_t(p - data_);
  ++count_;
}

bool InstBuffer::pop(WarpInst& w) {
  if (!count_) {
    size_ = read_ = 0;
    return false;
  }
  const uint8_t* p = data_ + read_;
  w.kind = MemKind(get<uint8_t>(p));
  w.width = get<uint8_t>(p);
  const uint8_t flags = get<uint8_t>(p);
  const uint32_t m = w.active_mask = get<uint32_t>(p);
  w.pc = get<uint64_t>(p);
  w.gap = get<uint32_t>(p);
  if (flags & kWaits) {
    w.waits_on = get<RegSet>(p);
    w.wait_gap = get<uint32_t>(p);
  } else {
    w.waits_on.clear();
    w.wait_gap = 0;
  }
  if (flags & kWrites)
    w.writes = get<RegSet>(p);
  else
    w.writes.clear();
  if (w.kind == MemKind::Barrier) {
    w.addr.fill(0);
  } else if (flags & kStrided) {  // every lane written: active ones their address, the others 0
    const uint64_t first = get<uint64_t>(p), stride = get<uint64_t>(p);
    vec::progression(w.addr.data(), first, stride, m);
  } else {
    w.addr.fill(0);
    for (uint32_t b = m; b; b &= b - 1) w.addr[unsigned(__builtin_ctz(b))] = get<uint64_t>(p);
  }
  read_ = size_t(p - data_);
  if (--count_ == 0) size_ = read_ = 0;
  return true;
}

}  // namespace gms::kernels
