#include "tb/kernels/port_kernel.h"

#include <cstddef>
#include <new>
#include <stdexcept>
#include <vector>

#include "tb/kernels/inst_buffer.h"

namespace gms::kernels {

namespace {

Dim3 block_index(const Dim3& grid, uint64_t linear) {
  Dim3 b;
  b.x = uint32_t(linear % grid.x);
  b.y = uint32_t(linear / grid.x % grid.y);
  b.z = uint32_t(linear / (uint64_t(grid.x) * grid.y));
  return b;
}

}  // namespace

// One CTA in flight: its warps' fibers, instruction buffers and barrier progress.
class CtaRun : public std::enable_shared_from_this<CtaRun> {
 public:
  CtaRun(std::shared_ptr<LaunchState> state, uint32_t cta, PortRuntime& rt)
      : state_(std::move(state)), rt_(rt) {
    const KernelLaunch& launch = state_->launch;
    const Dim3 idx = block_index(launch.grid, cta);
    n_ = uint32_t((launch.block.count() + kWarpSize - 1) / kWarpSize);
    warps_ = static_cast<WarpRun*>(rt_.blocks.take(n_ * sizeof(WarpRun)));
    for (uint32_t w = 0; w < n_; ++w)
      new (&warps_[w]) WarpRun(*this, launch, idx, w);  // a fiber does not move
  }
  ~CtaRun() {
    for (uint32_t w = n_; w-- > 0;) warps_[w].~WarpRun();
    rt_.blocks.give(warps_, n_ * sizeof(WarpRun));
  }
  CtaRun(const CtaRun&) = delete;
  CtaRun& operator=(const CtaRun&) = delete;
  size_t warps() const { return n_; }

  bool next(uint32_t w, WarpInst& out) {
    WarpRun& r = warps_[w];
    while (!r.buffer.pop(out)) {
      if (r.fiber.done()) return false;
      if (r.at_barrier) {  // past its k-th barrier only when every other warp has reached its own k-th
        bring_to_barrier(r.barriers);
        r.at_barrier = false;
      }
      r.resume();
    }
    return true;
  }

 private:
  struct WarpRun : InstSink {
    WarpRun(CtaRun& cta, const KernelLaunch& launch, const Dim3& idx, uint32_t w)
        : cta(cta),
          warp(launch.grid, launch.block, idx, w, cta.shared_, this),
          fiber([this, &launch] { launch.body(warp); }, cta.rt_.stacks) {}
    void emit(const WarpInst& inst, const AddrProgression* prog) override {
      buffer.push(inst, prog);
      if (buffer.count() >= cta.rt_.batch && !draining) fiber.yield();
    }
    void barrier() override {
      ++barriers;
      at_barrier = true;
      fiber.yield();
    }
    void resume() {
      draining = false;
      fiber.resume();
    }
    CtaRun& cta;
    Warp warp;
    Fiber fiber;
    InstBuffer buffer;
    uint64_t barriers = 0;  // barriers reached
    bool at_barrier = false, draining = false;
  };

  // Runs every other unfinished warp until it has reached barrier k (the warps behind are at an earlier
  // barrier, which every warp has reached: this one passed it).
  void bring_to_barrier(uint64_t k) {
    for (uint32_t w = 0; w < n_; ++w) {
      WarpRun& o = warps_[w];
      while (!o.fiber.done() && o.barriers < k) {
        o.at_barrier = false;
        o.draining = true;  // no batch limit: the warp must reach the barrier
        o.fiber.resume();
      }
    }
  }

  std::shared_ptr<LaunchState> state_;  // outlives the warps' fibers, which run its body
  PortRuntime& rt_;
  SharedMemory shared_;
  WarpRun* warps_ = nullptr;  // n_ of them, built in place in one block
  uint32_t n_ = 0;
};

namespace {

// Made with `new (cache) PortWarpStream(...)`: the block, from the run's cache, starts with a header naming
// the cache, so the deleting destructor (through unique_ptr<WarpStream>) gives it back there.
class PortWarpStream final : public WarpStream {
 public:
  PortWarpStream(std::shared_ptr<CtaRun> cta, uint32_t w) : cta_(std::move(cta)), w_(w) {}
  bool next(WarpInst& out) override { return cta_->next(w_, out); }
  static void* operator new(size_t bytes, BlockCache& cache) {
    char* raw = static_cast<char*>(cache.take(bytes + kHeader));
    *reinterpret_cast<BlockCache**>(raw) = &cache;
    return raw + kHeader;
  }
  static void operator delete(void* p, size_t bytes) {
    char* raw = static_cast<char*>(p) - kHeader;
    (*reinterpret_cast<BlockCache**>(raw))->give(raw, bytes + kHeader);
  }
  static void operator delete(void* p, BlockCache&) { operator delete(p, sizeof(PortWarpStream)); }

 private:
  static constexpr size_t kHeader = alignof(std::max_align_t);
  std::shared_ptr<CtaRun> cta_;
  uint32_t w_;
};

}  // namespace

std::shared_ptr<LaunchState> PortKernel::make_state(KernelLaunch launch) {
  if (launch.grid.count() == 0 || launch.grid.count() > UINT32_MAX)
    throw std::invalid_argument("kernel '" + launch.name + "': grid of " +
                                std::to_string(launch.grid.count()) + " CTAs outside [1, 2^32-1]");
  if (launch.block.count() == 0 || launch.block.count() > 1024)
    throw std::invalid_argument("kernel '" + launch.name + "': block of " +
                                std::to_string(launch.block.count()) + " threads outside [1, 1024]");
  auto s = std::make_shared<LaunchState>();
  s->info.name = launch.name;
  s->info.num_ctas = uint32_t(launch.grid.count());
  s->info.threads_per_cta = uint32_t(launch.block.count());
  s->info.regs_per_thread = launch.regs_per_thread;
  s->info.shmem_per_cta = launch.shmem_per_cta;
  s->launch = std::move(launch);
  return s;
}

PortKernel::PortKernel(std::shared_ptr<LaunchState> state, PortRuntime& rt)
    : state_(std::move(state)), rt_(rt) {}

std::unique_ptr<CtaWork> PortKernel::next_cta() {
  if (state_->next_cta >= state_->info.num_ctas) return nullptr;
  auto cta = std::make_unique<CtaWork>();
  cta->cta_id = state_->next_cta;
  auto run = std::allocate_shared<CtaRun>(CachedAlloc<CtaRun>(rt_.blocks), state_, state_->next_cta, rt_);
  ++state_->next_cta;
  cta->warps.reserve(run->warps());
  for (uint32_t w = 0; w < run->warps(); ++w)
    cta->warps.push_back(std::unique_ptr<WarpStream>(new (rt_.blocks) PortWarpStream(run, w)));
  return cta;
}

void PortKernel::finish_functionally() {
  for (std::unique_ptr<CtaWork> c; (c = next_cta());) {
    WarpInst scratch;
    for (auto& w : c->warps)
      while (w->next(scratch)) {
      }
  }
}

void run_functionally(const KernelLaunch& launch) {
  PortRuntime rt;
  PortKernel(PortKernel::make_state(launch), rt).finish_functionally();
}

}  // namespace gms::kernels
