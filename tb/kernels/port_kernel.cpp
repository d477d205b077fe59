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
  // `state` null: a co_resident CTA made before it is handed out, owned by the state (LaunchState::made)
  // until hand_out() gives it the state to hold.
  CtaRun(LaunchState& s, std::shared_ptr<LaunchState> state, uint32_t cta, PortRuntime& rt)
      : owner_(std::move(state)), state_(&s), rt_(rt) {
    const KernelLaunch& launch = state_->launch;
    const Dim3 idx = block_index(launch.grid, cta);
    n_ = uint32_t((launch.block.count() + kWarpSize - 1) / kWarpSize);
    warps_ = static_cast<WarpRun*>(rt_.blocks.take(n_ * sizeof(WarpRun)));
    for (uint32_t w = 0; w < n_; ++w)
      new (&warps_[w]) WarpRun(*this, launch, idx, w);  // a fiber does not move
    if (co_resident()) state_->live.push_back(this);
  }
  ~CtaRun() {
    if (co_resident()) {
      auto& live = state_->live;
      for (size_t i = 0; i < live.size(); ++i)
        if (live[i] == this) {
          live.erase(live.begin() + ptrdiff_t(i));
          break;
        }
    }
    for (uint32_t w = n_; w-- > 0;) warps_[w].~WarpRun();
    rt_.blocks.give(warps_, n_ * sizeof(WarpRun));
  }
  CtaRun(const CtaRun&) = delete;
  CtaRun& operator=(const CtaRun&) = delete;
  size_t warps() const { return n_; }
  void hand_out(std::shared_ptr<LaunchState> state) { owner_ = std::move(state); }

  bool next(uint32_t w, WarpInst& out) {
    WarpRun& r = warps_[w];
    while (!r.buffer.pop(out)) {
      if (r.fiber.done()) return false;
      if (r.at_barrier) {  // past its k-th barrier only when every other warp has reached its own k-th
        bring_to_barrier(r.barriers);
        r.at_barrier = false;
      }
      r.resume();
      if (r.fiber.done()) ++state_->progress;
      if (r.stuck) {  // spun twice with nothing written in the launch: its producer may be nobody's turn
        r.stuck = false;
        round(*state_, false, nullptr, 0);
      }
    }
    return true;
  }

  // co_resident: every live CTA's unfinished warps resumed once each, in CTA and warp order (a batch, or up
  // to a spin, a barrier or the end); a warp at a barrier its CTA has not all reached waits. `except`'s
  // warps at or past barrier `k` are left alone (its caller waits there). With `discard` the instructions
  // made are dropped (a functional run). Returns whether any warp is unfinished; throws on a deadlock.
  static bool round(LaunchState& s, bool discard, const CtaRun* except, uint64_t k) {
    bool left = false;
    for (size_t c = 0; c < s.live.size(); ++c) {
      CtaRun& cta = *s.live[c];
      for (uint32_t w = 0; w < cta.n_; ++w) {
        WarpRun& r = cta.warps_[w];
        if (r.fiber.done()) continue;
        left = true;
        if (&cta == except && r.barriers >= k) continue;
        if (r.at_barrier) {
          if (cta.behind(r.barriers)) continue;
          r.at_barrier = false;
        }
        r.resume();
        r.stuck = false;
        if (r.fiber.done()) ++s.progress;
        if (discard)
          for (WarpInst scratch; r.buffer.pop(scratch);) {
          }
      }
    }
    if (s.progress != s.progress_at_round) {
      s.progress_at_round = s.progress;
      s.stalled_rounds = 0;
    } else if (left && ++s.stalled_rounds >= kDeadlockRounds) {
      throw std::runtime_error("kernel '" + s.launch.name + "': its co-resident CTAs deadlocked (" +
                               std::to_string(kDeadlockRounds) +
                               " rounds of every warp with nothing stored and no warp finished)");
    }
    return left;
  }

 private:
  struct WarpRun : InstSink {
    WarpRun(CtaRun& cta, const KernelLaunch& launch, const Dim3& idx, uint32_t w)
        : cta(cta),
          warp(launch.grid, launch.block, idx, w, cta.shared_, this),
          fiber([this, &launch] { launch.body(warp); }, cta.rt_.stacks) {}
    void emit(const WarpInst& inst, const AddrProgression* prog) override {
      buffer.push(inst, prog);
      if (inst.kind == MemKind::Store || inst.kind == MemKind::Atomic) ++cta.state_->progress;
      if (buffer.count() >= cta.rt_.batch && !draining) fiber.yield();
    }
    void barrier() override {
      ++barriers;
      at_barrier = true;
      fiber.yield();
    }
    void spin() override {
      if (cta.co_resident()) {
        const uint64_t now = cta.state_->progress;
        if (now == spun_at) stuck = true;
        spun_at = now;
      }
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
    uint64_t barriers = 0;            // barriers reached
    uint64_t spun_at = ~uint64_t(0);  // the launch's progress at its last spin
    bool at_barrier = false, draining = false;
    bool stuck = false;  // it spun with nothing written in the launch since its previous spin
  };

  bool co_resident() const { return state_->launch.co_resident; }

  // Whether an unfinished warp has reached fewer than k barriers.
  bool behind(uint64_t k) const {
    for (uint32_t w = 0; w < n_; ++w)
      if (!warps_[w].fiber.done() && warps_[w].barriers < k) return true;
    return false;
  }

  // Runs every other unfinished warp until it has reached barrier k (the warps behind are at an earlier
  // barrier, which every warp has reached: this one passed it). In a co_resident launch a warp that spins
  // twice on the way with nothing written in between waits while the whole launch makes a round.
  void bring_to_barrier(uint64_t k) {
    for (;;) {
      for (uint32_t w = 0; w < n_; ++w) {
        WarpRun& o = warps_[w];
        while (!o.fiber.done() && o.barriers < k) {
          o.at_barrier = false;
          o.draining = true;  // no batch limit: the warp must reach the barrier
          o.fiber.resume();
          if (o.fiber.done() && co_resident()) ++state_->progress;
          if (o.stuck) break;  // spun twice with nothing written: the launch must go on first
        }
      }
      if (!co_resident() || !behind(k)) return;
      round(*state_, false, this, k);
    }
  }

  std::shared_ptr<LaunchState> owner_;  // keeps the state, whose launch.body the fibers run, alive
  LaunchState* state_;
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
  s->info.co_resident = launch.co_resident;  // the dispatcher refuses a grid the machine cannot hold at once
  s->launch = std::move(launch);
  return s;
}

PortKernel::PortKernel(std::shared_ptr<LaunchState> state, PortRuntime& rt)
    : state_(std::move(state)), rt_(rt) {}

std::unique_ptr<CtaWork> PortKernel::next_cta() {
  LaunchState& s = *state_;
  if (s.next_cta >= s.info.num_ctas) return nullptr;
  if (s.launch.co_resident && s.next_cta == 0 && s.made.empty())  // all resident at once: all made now
    for (uint32_t c = 0; c < s.info.num_ctas; ++c)
      s.made.push_back(std::allocate_shared<CtaRun>(CachedAlloc<CtaRun>(rt_.blocks), s, nullptr, c, rt_));
  auto cta = std::make_unique<CtaWork>();
  cta->cta_id = s.next_cta;
  std::shared_ptr<CtaRun> run =
      s.launch.co_resident
          ? std::move(s.made[s.next_cta])
          : std::allocate_shared<CtaRun>(CachedAlloc<CtaRun>(rt_.blocks), s, state_, s.next_cta, rt_);
  if (s.launch.co_resident) run->hand_out(state_);
  if (++s.next_cta == s.info.num_ctas) s.made.clear();
  cta->warps.reserve(run->warps());
  for (uint32_t w = 0; w < run->warps(); ++w)
    cta->warps.push_back(std::unique_ptr<WarpStream>(new (rt_.blocks) PortWarpStream(run, w)));
  return cta;
}

void PortKernel::finish_functionally() {
  if (state_->launch.co_resident) {
    std::vector<std::unique_ptr<CtaWork>> taken;
    for (std::unique_ptr<CtaWork> c; (c = next_cta());) taken.push_back(std::move(c));
    while (CtaRun::round(*state_, true, nullptr, 0)) {
    }
    return;
  }
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
