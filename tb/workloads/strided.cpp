// strided: the grid-stride loop of streaming with consecutive threads `stride` bytes apart. Load i of warp
// w, lane l reads base + ((i*W + w)*32 + l)*stride; store j writes out_base + ((j*W + w)*32 + l)*stride.
// With stride >= 32 every lane lands in its own 32 B chunk (uncoalesced: 32*stride/128 lines per
// instruction); distinct (instruction, warp, lane) never share an element, so stores have one writer.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

class StridedPattern : public Pattern {
 public:
  StridedPattern(const KernelGeometry& geom, uint64_t stride) : geom_(geom), stride_(stride) {}

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
  // The last element starts at (n*W*32 - 1)*stride and is `width` <= stride bytes long.
  uint64_t bytes_for(uint32_t iterations) const {
    return saturate_bytes((unsigned __int128)iterations * geom_.num_warps * kWarpSize * stride_);
  }
  void fill(uint32_t iteration, uint64_t warp_uid, WarpInst& inst) const {
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      inst.addr[lane] = grid_stride_element(iteration, warp_uid, lane, geom_.num_warps) * stride_;
  }

  KernelGeometry geom_;
  uint64_t stride_;
};

}  // namespace

void register_strided(PatternRegistry& registry) {
  registry.add("strided", [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
    const uint64_t stride = n.require_uint("stride", 1, UINT32_MAX);
    if (stride < geom.width || stride % geom.width)
      n.fail("stride", "value " + std::to_string(stride) + " must be a multiple of width (" +
                           std::to_string(geom.width) + ")");
    return std::make_unique<StridedPattern>(geom, stride);
  });
}

}  // namespace gms
