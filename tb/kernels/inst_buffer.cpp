#include "tb/kernels/inst_buffer.h"

#include <algorithm>
#include <cstring>

namespace gms::kernels {

namespace {

enum Flags : uint8_t { kStrided = 1, kWaits = 2, kWrites = 4 };

// Active lanes' addresses equal first + lane * stride (the first active lane's address extended back).
bool strided(const WarpInst& w, uint64_t& first, uint64_t& stride) {
  const uint32_t m = w.active_mask;
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

}  // namespace

template <class T>
void InstBuffer::put(const T& x) {  // push() made room for the whole instruction
  std::memcpy(buf_.data() + size_, &x, sizeof(T));
  size_ += sizeof(T);
}

template <class T>
T InstBuffer::get() {
  T x;
  std::memcpy(&x, buf_.data() + read_, sizeof(T));
  read_ += sizeof(T);
  return x;
}

void InstBuffer::push(const WarpInst& w) {
  if (buf_.size() < size_ + kMaxInstBytes) buf_.resize(std::max(2 * buf_.size(), size_ + kMaxInstBytes));
  uint64_t first = 0, stride = 0;
  const bool has_addr = w.kind != MemKind::Barrier;
  const bool is_strided = has_addr && strided(w, first, stride);
  uint8_t flags = 0;
  if (is_strided) flags |= kStrided;
  if (w.waits_on.any()) flags |= kWaits;
  if (w.writes.any()) flags |= kWrites;
  put(uint8_t(w.kind));
  put(w.width);
  put(flags);
  put(w.active_mask);
  put(w.pc);
  put(w.gap);
  if (flags & kWaits) {
    put(w.waits_on);
    put(w.wait_gap);
  }
  if (flags & kWrites) put(w.writes);
  if (!has_addr) {
  } else if (is_strided) {
    put(first);
    put(stride);
  } else {
    for (uint32_t b = w.active_mask; b; b &= b - 1) put(w.addr[unsigned(__builtin_ctz(b))]);
  }
  ++count_;
}

bool InstBuffer::pop(WarpInst& w) {
  if (!count_) {
    size_ = read_ = 0;
    return false;
  }
  w.kind = MemKind(get<uint8_t>());
  w.width = get<uint8_t>();
  const uint8_t flags = get<uint8_t>();
  w.active_mask = get<uint32_t>();
  w.pc = get<uint64_t>();
  w.gap = get<uint32_t>();
  w.waits_on.clear();
  w.wait_gap = 0;
  w.writes.clear();
  if (flags & kWaits) {
    w.waits_on = get<RegSet>();
    w.wait_gap = get<uint32_t>();
  }
  if (flags & kWrites) w.writes = get<RegSet>();
  w.addr.fill(0);
  if (w.kind == MemKind::Barrier) {
  } else if (flags & kStrided) {
    const uint64_t first = get<uint64_t>(), stride = get<uint64_t>();
    for (uint32_t b = w.active_mask; b; b &= b - 1) {
      const unsigned l = unsigned(__builtin_ctz(b));
      w.addr[l] = first + stride * l;
    }
  } else {
    for (uint32_t b = w.active_mask; b; b &= b - 1) w.addr[unsigned(__builtin_ctz(b))] = get<uint64_t>();
  }
  if (--count_ == 0) size_ = read_ = 0;
  return true;
}

}  // namespace gms::kernels
