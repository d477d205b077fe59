#include "tb/kernels/simt_warp.h"

#include <stdexcept>
#include <string>

namespace gms::kernels {

Warp::Warp(const Dim3& grid, const Dim3& block, const Dim3& block_idx, uint32_t warp_in_cta,
           SharedMemory& shared, InstSink* sink)
    : grid_(grid),
      block_(block),
      block_idx_(block_idx),
      warp_(warp_in_cta),
      shared_(shared),
      sink_(sink),
      tid_x_(Int::Uninit{}),
      tid_y_(Int::Uninit{}),
      tid_z_(Int::Uninit{}),
      tid_(Int::Uninit{}) {
  const uint64_t threads = block.count(), first = uint64_t(warp_in_cta) * kWarpSize;  // x fastest
  uint64_t x = first % block.x, yz = first / block.x, y = yz % block.y, z = yz / block.y;
  if (x + kWarpSize <= block.x) {  // the warp lies in one row of the block (block.x a multiple of 32)
    for (unsigned l = 0; l < kWarpSize; ++l) {
      tid_.v[l] = int64_t(first + l);
      tid_x_.v[l] = int64_t(x + l);
    }
    tid_y_.v.fill(int64_t(y));
    tid_z_.v.fill(int64_t(z));
  } else {
    for (unsigned l = 0; l < kWarpSize; ++l) {  // counted up, no division per lane
      tid_.v[l] = int64_t(first + l);
      tid_x_.v[l] = int64_t(x);
      tid_y_.v[l] = int64_t(y);
      tid_z_.v[l] = int64_t(z);
      if (++x == block.x) {
        x = 0;
        if (++y == block.y) y = 0, ++z;
      }
    }
  }
  threads_ = first >= threads ? 0 : threads - first >= kWarpSize ? ~0u : (1u << (threads - first)) - 1;
  mask_ = threads_;
}

uint32_t Warp::lanes_of(const Bool& c) const {
  return vec::true_lanes(c.v.data());
}

bool Warp::begin(uint32_t pc, MemKind kind, unsigned width, const RegSet& deps) {
  if (!mask_) return false;
  inst_.pc = pc;
  inst_.kind = kind;
  inst_.width = uint8_t(width);
  inst_.active_mask = mask_;
  inst_.gap = gap_;
  RegSet waits = deps;  // made here and stored once (a store forwarded into a wider load stalls)
  waits |= ctrl_deps_;
  inst_.waits_on = waits;
  inst_.wait_gap = waits.any() ? gap_ : 0;
  inst_.writes.clear();
  return true;
}

void Warp::finish() {
  if (sink_) sink_->emit(inst_, has_prog_ ? &prog_ : nullptr);
  has_prog_ = false;
  gap_ = 0;
  ctrl_deps_.clear();
}

void Warp::sync() {
  // Every thread of the CTA waits, whatever the mask (a divergent __syncthreads is undefined in CUDA); a
  // warp all of whose threads returned has exited and takes no part.
  if (!(threads_ & ~ret_)) return;
  inst_.pc = 0;
  inst_.kind = MemKind::Barrier;
  inst_.width = 0;
  inst_.active_mask = threads_ & ~ret_;
  inst_.gap = gap_;
  inst_.waits_on = ctrl_deps_;
  inst_.wait_gap = 0;
  inst_.writes.clear();
  if (sink_) {
    sink_->emit(inst_, nullptr);
    sink_->barrier();
  }
  gap_ = 0;
  ctrl_deps_.clear();
}

void Warp::break_if(const Bool& c) {
  depend(c.deps);
  const uint32_t leaving = mask_ & lanes_of(c);
  brk_ |= leaving;
  mask_ &= ~leaving;
}

void Warp::continue_if(const Bool& c) {
  depend(c.deps);
  const uint32_t leaving = mask_ & lanes_of(c);
  cont_ |= leaving;
  mask_ &= ~leaving;
}

void Warp::return_if(const Bool& c) {
  depend(c.deps);
  const uint32_t leaving = mask_ & lanes_of(c);
  ret_ |= leaving;
  mask_ &= ~leaving;
}

bool Warp::any(const Bool& c) {
  depend(c.deps);
  return (mask_ & lanes_of(c)) != 0;
}

void Warp::shared_out_of_range(int64_t i, size_t n) {
  throw std::out_of_range("kernel port: shared-memory index " + std::to_string(i) + " outside [0, " +
                          std::to_string(n) + ")");
}

}  // namespace gms::kernels
