// The context a kernel port's code runs in: one warp of 32 threads executing in lockstep (SIMT). A port
// writes its kernel once, as CUDA computes it, with per-lane values (lanes.h); Warp turns every global load
// and store into a warp instruction under the current active mask, and its control-flow helpers (if_,
// while_, break_if, return_if) keep the mask as the hardware's reconvergence stack would: lanes whose branch
// condition fails sit out the branch and rejoin after it, lanes that leave a loop wait at its end.
// Compute between memory instructions becomes the next instruction's gap; loads write registers and what is
// computed from them carries the dependence (the SM's scoreboard waits for it).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/common/workload.h"
#include "tb/kernels/device_array.h"
#include "tb/kernels/lane_vec.h"
#include "tb/kernels/lanes.h"

namespace gms::kernels {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

struct AddrProgression {
  uint64_t first = 0, stride = 0;
};

// Where a warp's instructions go: a buffer the SM drains (and, when a batch is full or at a barrier, a way
// to hand over control), or nowhere (a functional run computes results only).
class InstSink {
 public:
  virtual ~InstSink() = default;
  // `prog` non-null: the active lanes' addresses are prog->first + lane * prog->stride, and inst.addr is
  // not filled (the common case, kept as two numbers from the index to the buffer).
  virtual void emit(const WarpInst& inst, const AddrProgression* prog) = 0;
  virtual void barrier() = 0;  // after emitting the barrier instruction: wait for the CTA's other warps
  // The warp is waiting for another warp or CTA (Warp::spin): hand over control, whatever the batch holds.
  virtual void spin() {}
};

// A CTA's shared memory: arrays by slot, created on first use, shared by the CTA's warps.
class SharedMemory {
 public:
  template <class T>
  std::vector<T>& array(unsigned slot, size_t n) {
    if (slot >= arrays_.size()) arrays_.resize(slot + 1);
    if (!arrays_[slot]) arrays_[slot] = std::make_shared<std::vector<T>>(n);
    return *static_cast<std::vector<T>*>(arrays_[slot].get());
  }

 private:
  std::vector<std::shared_ptr<void>> arrays_;
};

class Warp {
 public:
  Warp(const Dim3& grid, const Dim3& block, const Dim3& block_idx, uint32_t warp_in_cta, SharedMemory& shared,
       InstSink* sink);

  // CUDA's built-ins.
  const Dim3& grid_dim() const { return grid_; }
  const Dim3& block_dim() const { return block_; }
  const Dim3& block_idx() const { return block_idx_; }
  const Int& thread_idx_x() const { return tid_x_; }
  const Int& thread_idx_y() const { return tid_y_; }
  const Int& thread_idx_z() const { return tid_z_; }
  // threadIdx as one number (x fastest), and blockIdx.x * blockDim.x + threadIdx.x.
  const Int& thread_in_block() const { return tid_; }
  Int global_x() const { return tid_x_ + int64_t(block_idx_.x) * int64_t(block_.x); }
  Int global_y() const { return tid_y_ + int64_t(block_idx_.y) * int64_t(block_.y); }
  uint32_t warp_in_cta() const { return warp_; }
  uint32_t active() const { return mask_; }

  // Global memory: one warp instruction each (none if no lane is active).
  template <class T>
  Lanes<T> load(uint32_t pc, DeviceArray<T>& a, const Int& idx);
  template <class T, class V>
  void store(uint32_t pc, DeviceArray<T>& a, const Int& idx, const V& value);
  // Global atomics: one warp instruction (MemKind::Atomic, performed at the LLC; 4- or 8-byte elements).
  // Each active lane in lane order reads its element, writes op(old, lane) and gets old back in a register
  // (as a load's). The memory system adds synthetic operands whatever op is (docs/atomics.md): the port's
  // own op decides its results and so its later addresses.
  template <class T, class F>
  Lanes<T> atomic(uint32_t pc, DeviceArray<T>& a, const Int& idx, const RegSet& value_deps, F op);
  template <class T, class V>
  Lanes<T> atomic_add(uint32_t pc, DeviceArray<T>& a, const Int& idx, const V& value) {
    return atomic(pc, a, idx, detail::deps_of(value),
                  [&](T old, unsigned l) { return T(old + T(detail::lane(value, l))); });
  }
  template <class T, class V>
  Lanes<T> atomic_min(uint32_t pc, DeviceArray<T>& a, const Int& idx, const V& value) {
    return atomic(pc, a, idx, detail::deps_of(value), [&](T old, unsigned l) {
      const T v = T(detail::lane(value, l));
      return v < old ? v : old;
    });
  }
  template <class T, class V>
  Lanes<T> atomic_max(uint32_t pc, DeviceArray<T>& a, const Int& idx, const V& value) {
    return atomic(pc, a, idx, detail::deps_of(value), [&](T old, unsigned l) {
      const T v = T(detail::lane(value, l));
      return old < v ? v : old;
    });
  }
  template <class T, class V>
  Lanes<T> atomic_exch(uint32_t pc, DeviceArray<T>& a, const Int& idx, const V& value) {
    return atomic(pc, a, idx, detail::deps_of(value),
                  [&](T, unsigned l) { return T(detail::lane(value, l)); });
  }
  // atomicCAS: old == compare ? value : old.
  template <class T, class C, class V>
  Lanes<T> atomic_cas(uint32_t pc, DeviceArray<T>& a, const Int& idx, const C& compare, const V& value) {
    RegSet deps = detail::deps_of(compare);
    deps |= detail::deps_of(value);
    return atomic(pc, a, idx, deps, [&](T old, unsigned l) {
      return old == T(detail::lane(compare, l)) ? T(detail::lane(value, l)) : old;
    });
  }
  // Shared memory: no global access, a cycle of compute each.
  template <class T>
  Lanes<T> shared_load(std::vector<T>& s, const Int& idx);
  template <class T, class V>
  void shared_store(std::vector<T>& s, const Int& idx, const V& value);
  template <class T>
  std::vector<T>& shared(unsigned slot, size_t n) {
    return shared_.array<T>(slot, n);
  }

  // `insts` instructions of compute before the next memory instruction (from the kernel's PTX counts).
  void compute(uint32_t insts) { gap_ += insts; }
  // __syncthreads().
  void sync();
  // One iteration of a spin-wait loop ended (call it after the poll's loads, where some lane found the value
  // it waits for not there yet): control goes back to whoever drives the warp, so that the warp or CTA it
  // waits for can run (a co_resident launch, port_kernel.h). No instruction: the poll is the loop's loads.
  void spin() {
    if (sink_) sink_->spin();
  }

  // Structured control flow under the active mask.
  template <class F>
  void if_(const Bool& c, F&& then);
  template <class F, class G>
  void if_else(const Bool& c, F&& then, G&& otherwise);
  // while (cond()) body(); cond is evaluated by the lanes still in the loop.
  template <class C, class B>
  void while_(C&& cond, B&& body);
  // for (i = from; i < to; i += step) body(i), with per-lane bounds.
  template <class B>
  void for_(const Int& from, const Int& to, const Int& step, B&& body);
  // Lanes where c holds leave the innermost loop (break), this iteration (continue), the kernel (return).
  void break_if(const Bool& c);
  void continue_if(const Bool& c);
  void return_if(const Bool& c);
  // Whether any active lane has c (a warp-uniform decision, e.g. a loop the whole warp runs).
  bool any(const Bool& c);

 private:
  uint32_t lanes_of(const Bool& c) const;
  void depend(const RegSet& deps) { ctrl_deps_ |= deps; }
  // Fills the scratch instruction's header; returns false (nothing to emit) when no lane is active.
  bool begin(uint32_t pc, MemKind kind, unsigned width, const RegSet& deps);
  void finish();
  uint32_t off() const { return ret_ | brk_ | cont_; }
  // Whether every lane is active and idx steps by a constant inside [0, n): then `step` is that constant
  // and the instruction's addresses are the progression from base + idx[0] * width.
  bool progression(const Int& idx, size_t n, uint64_t base, uint64_t width, int64_t& step) {
    if (mask_ != ~0u || !vec::index_progression(idx.v.data(), step)) return false;
    const int64_t first = idx.v[0], last = first + int64_t(kWarpSize - 1) * step;
    if (first < 0 || last < 0 || uint64_t(first) >= n || uint64_t(last) >= n) return false;
    prog_.first = base + uint64_t(first) * width;
    prog_.stride = uint64_t(step) * width;
    has_prog_ = true;
    return true;
  }
  // Every lane's address: base + idx * width.
  void addresses(uint64_t base, uint64_t width, const Int& idx) {
    if ((width & (width - 1)) == 0)
      vec::scaled_add(inst_.addr.data(), idx.v.data(), base, unsigned(__builtin_ctzll(width)));
    else
      for (unsigned l = 0; l < kWarpSize; ++l) inst_.addr[l] = base + uint64_t(idx.v[l]) * width;
  }
  // A load's result gets its register; the instruction goes out.
  void loaded(RegSet& deps) {
    const unsigned reg = next_reg_;
    next_reg_ = (next_reg_ + 1) % RegSet::kRegs;
    inst_.writes.set(reg);
    deps.set(reg);
    finish();
  }
  [[noreturn]] static void shared_out_of_range(int64_t i, size_t n);

  Dim3 grid_, block_, block_idx_;
  uint32_t warp_;
  SharedMemory& shared_;
  InstSink* sink_;
  Int tid_x_, tid_y_, tid_z_, tid_;
  uint32_t mask_ = 0, threads_ = 0;
  uint32_t ret_ = 0, brk_ = 0, cont_ = 0;  // lanes returned / out of the loop / skipping its iteration
  RegSet ctrl_deps_;                       // branch conditions' loads: the next instruction waits for them
  uint32_t gap_ = 0;
  unsigned next_reg_ = 0;
  bool has_prog_ = false;  // the instruction being made has prog_'s addresses (inst_.addr unused)
  AddrProgression prog_;
  WarpInst inst_;
};

}  // namespace gms::kernels

#include "tb/kernels/simt_warp_impl.h"
