// The address rule of a synthetic kernel. A pattern turns "warp w's n-th load (or store)" into one byte
// offset per lane inside the kernel's load region (or store region). Placement (base, out_base), the
// load/store mix, timing and the active mask belong to the kernel (synthetic_workload.h), so a pattern file
// holds nothing but its address rule. Patterns are immutable and shared by all warps of a kernel; a warp's
// progress and random stream live in its WarpCursor, so generation order never changes the addresses.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "models/common/config.h"
#include "models/common/rng.h"
#include "models/common/workload.h"

namespace gms {

// What every pattern knows about the kernel it generates for.
struct KernelGeometry {
  uint32_t num_ctas = 0;
  uint32_t threads_per_cta = 0;
  uint32_t warps_per_cta = 0;
  uint64_t num_warps = 0;       // num_ctas * warps_per_cta: warp uids are 0 .. num_warps-1
  uint32_t width = 4;           // bytes per thread access
  uint32_t loads_per_warp = 0;  // every warp of the kernel runs the same instruction mix
  uint32_t stores_per_warp = 0;

  // Lanes that hold a thread: all 32 except in the last warp of a CTA whose size is not a multiple of 32.
  uint32_t active_mask(uint64_t warp_uid) const {
    const uint64_t threads = threads_per_cta - (warp_uid % warps_per_cta) * kWarpSize;
    return threads >= kWarpSize ? 0xffffffffu : (1u << threads) - 1;
  }
  // Threads of the grid (not padded) and the CUDA global thread index blockIdx.x*blockDim.x + threadIdx.x
  // of lane `lane` of warp `warp_uid` (inactive padding lanes get indices that belong to the next CTA).
  uint64_t num_threads() const { return uint64_t(num_ctas) * threads_per_cta; }
  uint64_t thread_id(uint64_t warp_uid, unsigned lane) const {
    return warp_uid / warps_per_cta * threads_per_cta + warp_uid % warps_per_cta * kWarpSize + lane;
  }
  // Warps whose first lane's thread index is below `limit` (one thread per element: they run the loop).
  uint64_t warps_starting_below(uint64_t limit) const {
    uint64_t warps = 0;
    for (uint64_t w = 0; w < num_warps; ++w) warps += thread_id(w, 0) < limit;
    return warps;
  }
};

// Lanes of a warp whose element first + lane lies below `limit` (first < limit): the tail warp of a loop
// over `limit` elements drops the lanes past the end.
inline uint32_t lanes_below(uint64_t first, uint64_t limit) {
  return first + kWarpSize > limit ? (uint32_t(1) << (limit - first)) - 1 : 0xffffffffu;
}

// One warp's progress through its stream, owned by the warp's stream and handed to the pattern.
struct WarpCursor {
  uint64_t warp_uid = 0;
  uint32_t loads = 0;          // loads generated before the current one
  uint32_t stores = 0;         // stores generated before the current one
  uint64_t pattern_steps = 0;  // the pattern's own progress counter (hotcold: cold lines read so far;
                               // own-program patterns: instructions generated before the current one)
  Rng rng;                     // seeded from (workload seed, kernel index, warp uid)
};

class Pattern {
 public:
  virtual ~Pattern() = default;
  // Bytes from the region's start that loads (stores) may touch: [0, load_region_bytes()).
  virtual uint64_t load_region_bytes() const = 0;
  virtual uint64_t store_region_bytes() const = 0;
  // Set inst.pc and inst.addr[lane] (an offset into the region, aligned to the width) for all 32 lanes of
  // the warp's next load / store; the kernel adds the region base and clears inactive lanes.
  virtual void next_load(WarpCursor& warp, WarpInst& inst) const = 0;
  virtual void next_store(WarpCursor& warp, WarpInst& inst) const = 0;

  // Own program (patterns registered with own_program = true: SpMV rows of different lengths, a stencil's
  // five loads and one store): the pattern, not insts_per_warp / store_fraction, decides how many
  // instructions a warp runs and which are stores. next_inst() gets inst with the kernel's width and the
  // warp's thread mask preset and sets kind, pc, offsets (into the load or store region by kind), width
  // if it differs and active_mask (a non-empty subset of the thread mask: divergent lanes drop out);
  // false at the warp's end. total_insts() counts the kernel's warp instructions.
  virtual bool next_inst(WarpCursor& /*warp*/, WarpInst& /*inst*/) const { return false; }
  virtual uint64_t total_insts() const { return 0; }
};

// Builds a pattern for a kernel, reading its pattern-specific keys from the kernel's config node (the
// loader checks the common keys before and calls finish() after).
using PatternFactory = std::function<std::unique_ptr<Pattern>(const KernelGeometry&, const ConfigNode&)>;

// Program counters of the synthetic kernels' static memory instructions (one loop body).
constexpr uint64_t kLoadPc = 0x100;
constexpr uint64_t kSecondLoadPc = 0x108;  // a second load instruction (hotcold: the streaming load)
constexpr uint64_t kStorePc = 0x110;

// Element index of a grid-stride loop: iteration `iter` of warp `warp_uid`, lane `lane`, with every warp
// padded to 32 threads, so each warp instruction covers 32 consecutive elements.
inline uint64_t grid_stride_element(uint64_t iter, uint64_t warp_uid, unsigned lane, uint64_t num_warps) {
  return (iter * num_warps + warp_uid) * kWarpSize + lane;
}

// Region sizes are computed in 128 bits and saturate, so absurd sizes are caught by the loader's range
// check instead of wrapping around.
inline uint64_t saturate_bytes(unsigned __int128 bytes) {
  return bytes > UINT64_MAX ? UINT64_MAX : uint64_t(bytes);
}

// Rounds a region offset up to the next line (own-program patterns place their arrays line-aligned).
inline uint64_t line_align_up(uint64_t bytes) {
  return (bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
}

}  // namespace gms
