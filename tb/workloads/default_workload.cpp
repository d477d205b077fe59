// The workload `gpumemsys` runs with no arguments. Sized for a few seconds on the 15-SM Fermi preset:
// 2 x 3840 warps x 128 instructions = 983,040 warp memory instructions (as many L1 accesses: every one
// touches one line), about 3 s at the 300,000 accesses per second the model targets.
// 480 CTAs of 256 threads are 5.3 waves of 6 CTAs per SM (1536 threads) on 15 SMs.
#include "tb/workloads/workload_loader.h"

namespace gms {

const std::string& embedded_default_workload_yaml() {
  static const std::string text =
      R"(# Built-in workload: a streaming copy, then a hot/cold kernel that reads the copy's output.
workload:
  name: default
  seed: 1
  kernels:
    - name: stream_copy        # out[e] = f(in[e]): fully coalesced, no reuse; 1 store per 4 instructions
      pattern: streaming
      grid: 480
      block: 256
      insts_per_warp: 128
      width: 4
      store_fraction: 0.25
      gap: 4
      base: 0x10000000
      out_base: 0x20000000
    - name: hot_cold           # 64 hot lines (half a Fermi L1) reused among streaming lines (G-Cache)
      pattern: hotcold
      grid: 480
      block: 256
      insts_per_warp: 128
      width: 4
      store_fraction: 0.125
      gap: 4
      base: 0x20000000         # the hot lines and the first cold lines are what stream_copy wrote
      out_base: 0x30000000
      hot_lines: 64
      hot_fraction: 0.5
)";
  return text;
}

}  // namespace gms
