// hotcold: the G-Cache contention example (paper 001): a few hot lines reused among streaming ones, like
// SpMV's vector among its matrix. Each load touches one 128 B line, lane l at offset (l*width) mod 128:
// with probability hot_fraction one of the hot_lines lines at [base, base + hot_lines*128), drawn
// uniformly; otherwise the warp's next streaming ("cold") line: its c-th cold load reads cold line
// (c*W + w) mod cold_lines of the cold region that follows the hot lines (cold_lines = footprint / 128).
// The default footprint gives every cold load its own line. Stores are streaming's: store j of warp w,
// lane l writes out_base + ((j*W + w)*32 + l)*width (single writer).
#include <algorithm>

#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

class HotColdPattern : public Pattern {
 public:
  HotColdPattern(const KernelGeometry& geom, uint64_t hot_lines, double hot_fraction, uint64_t cold_lines)
      : geom_(geom), hot_lines_(hot_lines), hot_fraction_(hot_fraction), cold_lines_(cold_lines) {}

  uint64_t load_region_bytes() const override {
    return saturate_bytes((unsigned __int128)(hot_lines_ + cold_lines_) * kLineBytes);
  }
  uint64_t store_region_bytes() const override {
    return saturate_bytes((unsigned __int128)geom_.stores_per_warp * geom_.num_warps * kWarpSize *
                          geom_.width);
  }

  void next_load(WarpCursor& warp, WarpInst& inst) const override {
    uint64_t line;
    if (warp.rng.chance(hot_fraction_)) {
      inst.pc = kLoadPc;
      line = warp.rng.below(hot_lines_);
    } else {
      inst.pc = kSecondLoadPc;
      line = hot_lines_ + (warp.pattern_steps++ * geom_.num_warps + warp.warp_uid) % cold_lines_;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      inst.addr[lane] = line * kLineBytes + (lane * geom_.width) % kLineBytes;
  }
  void next_store(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = kStorePc;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      inst.addr[lane] = grid_stride_element(warp.stores, warp.warp_uid, lane, geom_.num_warps) * geom_.width;
  }

 private:
  KernelGeometry geom_;
  uint64_t hot_lines_;
  double hot_fraction_;
  uint64_t cold_lines_;
};

}  // namespace

void register_hotcold(PatternRegistry& registry) {
  registry.add("hotcold", [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
    const uint64_t hot_lines = n.require_uint("hot_lines", 1, UINT32_MAX);
    if (!n.has("hot_fraction")) n.fail("hot_fraction", "missing required key");
    const double hot_fraction = n.get_double("hot_fraction", 0.0, 0.0, 1.0);
    // Default: one line per load, enough that cold lines never repeat.
    const uint64_t default_footprint =
        saturate_bytes((unsigned __int128)geom.loads_per_warp * geom.num_warps * kLineBytes);
    const uint64_t footprint =
        n.get_uint("footprint", std::max<uint64_t>(default_footprint, kLineBytes), kLineBytes);
    if (footprint % kLineBytes)
      n.fail("footprint", "value " + std::to_string(footprint) + " must be a multiple of 128 (a line)");
    return std::make_unique<HotColdPattern>(geom, hot_lines, hot_fraction, footprint / kLineBytes);
  });
}

}  // namespace gms
