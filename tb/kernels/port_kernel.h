// One launch of a kernel port as the simulator sees it (a KernelSource): CTAs in dispatch order, each warp a
// stream the SM pulls. Every warp's code runs in a fiber of its own and stops after a batch of instructions
// or at a barrier, so a warp's stream is produced as it is consumed. A barrier orders the host execution as
// the hardware orders the warps: a warp goes past its k-th __syncthreads only after every unfinished warp of
// its CTA has run up to its own k-th (their instructions wait in their buffers), so shared memory written
// before a barrier is what the warps read after it, whatever order the SM pulls the streams in.
// A co_resident launch (KernelLaunch::co_resident) has CTAs that wait on each other (spin on a flag, a lock,
// a value another CTA computes), as a source does that sizes its grid to be resident at once: all its CTAs
// are made at the first next_cta(), and whenever one of its warps cannot go on by itself (it spins with
// nothing written in the launch since its last spin, or its CTA's barrier waits for such a warp) the
// host resumes every warp of the launch once, round robin (a batch each, or up to its next spin or barrier),
// so any consumer order (an SM's, CTA by CTA, warp by warp) ends. A launch that can never end (every warp
// spinning, nothing written for kDeadlockRounds rounds) throws std::runtime_error naming the kernel.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/workload.h"
#include "tb/kernels/block_cache.h"
#include "tb/kernels/fiber.h"
#include "tb/kernels/simt_warp.h"

namespace gms::kernels {

struct KernelLaunch {
  std::string name;
  Dim3 grid, block;
  uint32_t regs_per_thread = 0;  // occupancy (ptxas -v), 0: not limiting
  uint32_t shmem_per_cta = 0;    // bytes of static shared memory (ptxas -v), 0: not limiting
  std::function<void(Warp&)> body;
  // The CTAs wait on each other and must all be resident at once (the source sizes the grid from the
  // device for that): a simulator must refuse the launch when its grid does not fit at once.
  bool co_resident = false;
};

// What a run of the port shares among its kernels' CTAs: fiber stacks, memory blocks and the batch size.
// It must outlive every CTA handed out.
struct PortRuntime {
  StackPool stacks;
  BlockCache blocks;
  unsigned batch = 32;  // instructions a warp makes per resume (fewer at a barrier or its end)
};

class CtaRun;

// A launch and how far its CTAs have been handed out; shared by the kernel, its CTAs and the workload.
struct LaunchState {
  KernelLaunch launch;
  KernelInfo info;
  uint32_t next_cta = 0;
  // co_resident only: the CTAs alive (made and not destroyed, in CTA order), the CTAs made and not yet
  // handed out (index next_cta on; they point to this state without holding it), and the deadlock guard:
  // stores, atomics and warps finished so far, that count at the last round, and the rounds since it last
  // changed.
  std::vector<CtaRun*> live;
  std::vector<std::shared_ptr<CtaRun>> made;  // after `live`: destroyed first (a CTA leaves `live` then)
  uint64_t progress = 0, progress_at_round = 0, stalled_rounds = 0;
};

// Rounds of a co_resident launch with nothing written and no warp finished before it is a deadlock.
constexpr uint64_t kDeadlockRounds = 1000000;

class PortKernel : public KernelSource {
 public:
  // Throws std::invalid_argument for an empty or oversized grid or block.
  PortKernel(std::shared_ptr<LaunchState> state, PortRuntime& rt);
  static std::shared_ptr<LaunchState> make_state(KernelLaunch launch);
  const KernelInfo& info() const override { return state_->info; }
  // The launch as the host code made it (grid and block dimensions; CTA i is block index i, x fastest).
  const KernelLaunch& launch() const { return state_->launch; }
  std::unique_ptr<CtaWork> next_cta() override;
  // Runs the CTAs nobody pulled yet, their instructions dropped, for their effect on memory (a consumer
  // that stopped early: the host code after the launch must see the kernel's results). A co_resident
  // launch: takes every CTA left, then resumes the warps of every live CTA round robin until all end.
  void finish_functionally();

 private:
  std::shared_ptr<LaunchState> state_;
  PortRuntime& rt_;
};

// Runs a whole launch on the host, no instruction kept: the benchmark's result only.
void run_functionally(const KernelLaunch& launch);

}  // namespace gms::kernels
