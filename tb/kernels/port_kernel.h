// One launch of a kernel port as the simulator sees it (a KernelSource): CTAs in dispatch order, each warp a
// stream the SM pulls. Every warp's code runs in a fiber of its own and stops after a batch of instructions
// or at a barrier, so a warp's stream is produced as it is consumed. A barrier orders the host execution as
// the hardware orders the warps: a warp goes past its k-th __syncthreads only after every unfinished warp of
// its CTA has run up to its own k-th (their instructions wait in their buffers), so shared memory written
// before a barrier is what the warps read after it, whatever order the SM pulls the streams in.
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
};

// What a run of the port shares among its kernels' CTAs: fiber stacks, memory blocks and the batch size.
// It must outlive every CTA handed out.
struct PortRuntime {
  StackPool stacks;
  BlockCache blocks;
  unsigned batch = 32;  // instructions a warp makes per resume (fewer at a barrier or its end)
};

// A launch and how far its CTAs have been handed out; shared by the kernel, its CTAs and the workload.
struct LaunchState {
  KernelLaunch launch;
  KernelInfo info;
  uint32_t next_cta = 0;
};

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
  // that stopped early: the host code after the launch must see the kernel's results).
  void finish_functionally();

 private:
  std::shared_ptr<LaunchState> state_;
  PortRuntime& rt_;
};

// Runs a whole launch on the host, no instruction kept: the benchmark's result only.
void run_functionally(const KernelLaunch& launch);

}  // namespace gms::kernels
