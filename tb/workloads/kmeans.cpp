// kmeans: Rodinia kmeans' invert_mapping kernel, the TSC paper's Figure 3 (paper 000): thread p < npoints
// runs `for (i = 0; i < nfeatures; i++) output[p + npoints*i] = input[p*nfeatures + i];`. Its load i
// (pc 0x100) reads input element p*nfeatures + i (the lanes of a warp are nfeatures elements apart:
// one line per lane once nfeatures*width >= 128, reused by the same thread in later iterations only),
// its store i (pc 0x110) writes output element p + npoints*i (transposed: coalesced, single writer).
// Program per warp: load, store, load, store, ... 2*nfeatures instructions; lanes p >= npoints idle.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

class KmeansPattern : public Pattern {
 public:
  KmeansPattern(const KernelGeometry& geom, uint64_t npoints, uint64_t nfeatures)
      : geom_(geom), npoints_(npoints), nfeatures_(nfeatures) {}

  uint64_t load_region_bytes() const override { return npoints_ * nfeatures_ * geom_.width; }
  uint64_t store_region_bytes() const override { return load_region_bytes(); }
  void next_load(WarpCursor&, WarpInst&) const override {}
  void next_store(WarpCursor&, WarpInst&) const override {}

  bool next_inst(WarpCursor& warp, WarpInst& inst) const override {
    const uint64_t n = warp.pattern_steps;
    const uint64_t first = geom_.thread_id(warp.warp_uid, 0);
    if (n >= 2 * nfeatures_ || first >= npoints_) return false;
    const uint64_t i = n / 2;
    const bool store = n % 2;
    inst.kind = store ? MemKind::Store : MemKind::Load;
    inst.pc = store ? kStorePc : kLoadPc;
    inst.active_mask &= lanes_below(first, npoints_);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const uint64_t p = first + lane;
      inst.addr[lane] = (store ? p + npoints_ * i : p * nfeatures_ + i) * geom_.width;
    }
    return true;
  }
  uint64_t total_insts() const override {
    // Warps whose first thread is a point run the whole program.
    return geom_.warps_starting_below(npoints_) * 2 * nfeatures_;
  }

 private:
  KernelGeometry geom_;
  uint64_t npoints_, nfeatures_;
};

}  // namespace

void register_kmeans(PatternRegistry& registry) {
  registry.add(
      "kmeans",
      [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
        const uint64_t nfeatures = n.require_uint("nfeatures", 1, 1u << 20);
        const uint64_t npoints = n.get_uint("npoints", geom.num_threads(), 1, geom.num_threads());
        if ((unsigned __int128)npoints * nfeatures * geom.width >= (unsigned __int128)1 << 48)
          n.fail("nfeatures", "npoints x nfeatures x width exceeds the 48-bit address space");
        return std::make_unique<KmeansPattern>(geom, npoints, nfeatures);
      },
      true);
}

}  // namespace gms
