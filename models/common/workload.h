// What drives an SM: kernels of CTAs of warps, each warp a stream of memory instructions. Synthetic
// generators and trace readers (tb/) implement these interfaces; the SM front end consumes them, and the
// reuse-distance model reads them too, so they live with the other block-neutral types in models/common/.
// Streams are pulled lazily, CTA by CTA, so memory stays independent of workload length.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/mem_req.h"
#include "models/common/reg_set.h"

namespace gms {

constexpr unsigned kWarpSize = 32;

// One warp-level memory instruction: up to 32 thread addresses under an active mask.
struct WarpInst {
  uint64_t pc = 0;
  // Load, Store, Atomic (an atomic add of `width` bytes per lane, 4 or 8, performed at the LLC:
  // docs/atomics.md) or Barrier.
  MemKind kind = MemKind::Load;
  uint32_t active_mask = 0;  // lane i active when bit i set
  uint8_t width = 4;         // bytes per thread: 1, 2, 4, 8, 16
  uint32_t gap = 0;  // compute cycles (SM clock) between the previous instruction's issue and this one
  // Register dependences on earlier loads (traces that carry register operands; empty otherwise). The SM's
  // scoreboard holds this instruction until none of `waits_on` is still being written by an in-flight load
  // of the warp, and then `wait_gap` more cycles: the compute instructions from the first one that read
  // such a register up to this one. `writes`: the registers a load writes (reserved until its data is back).
  RegSet waits_on, writes;
  uint32_t wait_gap = 0;
  // Last: the fields above fit two host cache lines; a unit-stride instruction needs only addr[0] of these
  // four (the SM keeps such instructions compact while they wait to issue).
  std::array<uint64_t, kWarpSize> addr{};
};

class WarpStream {
 public:
  virtual ~WarpStream() = default;
  // Next instruction in program order; false at the warp's end.
  virtual bool next(WarpInst& out) = 0;
};

struct KernelInfo {
  std::string name;
  uint32_t num_ctas = 0;
  uint32_t threads_per_cta = 0;  // warps per CTA = ceil(threads / 32)
  uint32_t regs_per_thread = 0;  // 0 = not limiting
  uint32_t shmem_per_cta = 0;    // bytes; 0 = not limiting
  // The CTAs wait on each other (spin on values other CTAs write, as persistent-thread kernels do), so
  // every CTA must be resident at once: a configuration that cannot hold the grid is refused, not hung.
  bool co_resident = false;
  uint32_t warps_per_cta() const { return (threads_per_cta + kWarpSize - 1) / kWarpSize; }
};

// One CTA's work: a stream per warp.
struct CtaWork {
  uint32_t cta_id = 0;  // 0 .. num_ctas-1, in dispatch order
  std::vector<std::unique_ptr<WarpStream>> warps;
};

class KernelSource {
 public:
  virtual ~KernelSource() = default;
  virtual const KernelInfo& info() const = 0;
  // CTAs in dispatch order; nullptr when the kernel has no more.
  virtual std::unique_ptr<CtaWork> next_cta() = 0;
};

// Bytes [begin, end) of memory.
struct AddressRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  // Kernels in launch order; nullptr when done.
  virtual std::unique_ptr<KernelSource> next_kernel() = 0;
  // The memory every access of the workload falls in, when known before it runs (synthetic workloads
  // know their regions): true and `out` filled. False when only running it tells (traces). Multi-program
  // runs use it to reject programs whose memory overlaps before the run.
  virtual bool footprint(std::vector<AddressRange>& /*out*/) const { return false; }
};

// Sees every executed store and every returned load (the testbench's golden-memory checker).
// `warp_uid` identifies the warp within the kernel: cta_id * warps_per_cta + warp index in the CTA.
// `seq` is the instruction's place in its warp's program order (it grows with every issue of the warp;
// values of different warps are not comparable). Stores are reported at issue. A load's bytes arrive at
// response (on_load), possibly after later stores of its warp were issued: program order says the load
// reads memory as of its issue. So before any later store of the warp is reported, the load is announced
// (on_load_issue, with the bytes [first, last] it may read), and an announced load's end is announced
// after its last response (on_load_done). The SM announces lazily (SmCore::announce_loads): a load that ends
// before its warp stores again may never be announced, and needs nothing kept for it. Observers that
// ignore ordering need not override the announcements.
class MemObserver {
 public:
  virtual ~MemObserver() = default;
  virtual void on_store(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data,
                        unsigned bytes) = 0;
  virtual void on_load_issue(uint64_t /*warp_uid*/, uint64_t /*seq*/, uint64_t /*first*/, uint64_t /*last*/) {
  }
  virtual void on_load(uint64_t warp_uid, uint64_t seq, uint64_t addr, const uint8_t* data,
                       unsigned bytes) = 0;
  virtual void on_load_done(uint64_t /*warp_uid*/, uint64_t /*seq*/) {}
  // An atomic add of `bytes` (4 or 8) at addr (aligned to bytes) by one lane, at issue: `operand` is what it
  // adds (little endian). Atomics of a kernel commute: memory after the kernel holds the start value plus
  // every operand; what a load reads there during the kernel is unordered.
  virtual void on_atomic(uint64_t /*warp_uid*/, uint64_t /*seq*/, uint64_t /*addr*/,
                         const uint8_t* /*operand*/, unsigned /*bytes*/) {}
  virtual void on_kernel_end() = 0;
};

}  // namespace gms
