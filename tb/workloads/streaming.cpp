// streaming: a grid-stride copy loop, out[e] = f(in[e]). Load i of warp w, lane l reads element
// e = (i*W + w)*32 + l (W = warps in the kernel) at base + e*width; store j writes element (j*W + w)*32 + l
// at out_base + e*width. Each warp instruction covers 32*width consecutive bytes (fully coalesced) and no
// address is touched twice in the kernel, so every store has a single writer and no load hits a line an
// earlier instruction brought in.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

class StreamingPattern : public Pattern {
 public:
  explicit StreamingPattern(const KernelGeometry& geom) : geom_(geom) {}

  uint64_t load_region_bytes() const override { return bytes_for(geom_.loads_per_warp); }
  uint64_t store_region_bytes() const override { return bytes_for(geom_.stores_per_warp); }

  void next_load(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = kLoadPc;
    fill(warp.loads, warp.warp_uid, inst);
  }
  void next_store(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = kStorePc;
    fill(warp.stores, warp.warp_uid, inst);
  }

 private:
  uint64_t bytes_for(uint32_t iterations) const {
    return saturate_bytes((unsigned __int128)iterations * geom_.num_warps * kWarpSize * geom_.width);
  }
  void fill(uint32_t iteration, uint64_t warp_uid, WarpInst& inst) const {
    // Lanes are consecutive elements: an induction the compiler vectorises, not 32 multiplies.
    uint64_t a = grid_stride_element(iteration, warp_uid, 0, geom_.num_warps) * geom_.width;
    for (unsigned lane = 0; lane < kWarpSize; ++lane, a += geom_.width) inst.addr[lane] = a;
  }

  KernelGeometry geom_;
};

}  // namespace

void register_streaming(PatternRegistry& registry) {
  registry.add("streaming", [](const KernelGeometry& geom, const ConfigNode&) -> std::unique_ptr<Pattern> {
    return std::make_unique<StreamingPattern>(geom);
  });
}

}  // namespace gms
