// random: every lane of a load reads a uniformly random `width`-aligned element of the footprint
// [base, base + footprint). Stores keep the single-writer rule: the output region [out_base, out_base +
// W*slice) is cut into one slice per warp (slice = footprint / W, rounded down to 32*width) and each slice
// into 32 lane parts; lane l of warp w stores to a random element of its own part, so no two warps (and no
// two lanes of one store) ever write the same byte.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

class RandomPattern : public Pattern {
 public:
  RandomPattern(const KernelGeometry& geom, uint64_t footprint, uint64_t slice)
      : geom_(geom), footprint_(footprint), slice_(slice) {}

  uint64_t load_region_bytes() const override { return footprint_; }
  uint64_t store_region_bytes() const override {
    return saturate_bytes((unsigned __int128)geom_.num_warps * slice_);
  }

  void next_load(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = kLoadPc;
    const uint64_t elements = footprint_ / geom_.width;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      inst.addr[lane] = warp.rng.below(elements) * geom_.width;
  }
  void next_store(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = kStorePc;
    const uint64_t lane_part = slice_ / kWarpSize;
    const uint64_t elements = lane_part / geom_.width;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      inst.addr[lane] = warp.warp_uid * slice_ + lane * lane_part + warp.rng.below(elements) * geom_.width;
  }

 private:
  KernelGeometry geom_;
  uint64_t footprint_;
  uint64_t slice_;  // bytes of the output region each warp owns; a multiple of 32*width
};

}  // namespace

void register_random(PatternRegistry& registry) {
  registry.add("random", [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
    const uint64_t footprint = n.require_uint("footprint", kLineBytes);
    if (footprint % kLineBytes)
      n.fail("footprint", "value " + std::to_string(footprint) + " must be a multiple of 128 (a line)");
    const uint64_t lane_group = uint64_t(kWarpSize) * geom.width;
    const uint64_t slice = footprint / geom.num_warps / lane_group * lane_group;
    if (geom.stores_per_warp > 0 && slice == 0)
      n.fail("footprint", "value " + std::to_string(footprint) + " leaves no store slice for each of the " +
                              std::to_string(geom.num_warps) + " warps (needs at least " +
                              std::to_string(geom.num_warps * lane_group) + " bytes)");
    return std::make_unique<RandomPattern>(geom, footprint, slice);
  });
}

}  // namespace gms
