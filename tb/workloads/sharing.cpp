// sharing: the sharing-intensive class of the adaptive-LLC paper (paper 004: private-cache-friendly
// workloads, every CTA reading the same read-only data): every load reads the read-only table
// [base, base + table_bytes), the same way in every CTA. access: sweep (default) - warp k of a CTA
// (k = w mod warps_per_cta), load i, lane l reads element c*32 + l of chunk c = (i*warps_per_cta + k) mod
// chunks (chunk = 32*width bytes, chunks = table_bytes / chunk): the CTA's warps walk the table together,
// coalesced, and every CTA walks the same chunks in the same order. access: random - lane l reads a
// uniformly random element of the table. Stores are streaming's (single writer): store j of warp w, lane l
// writes out_base + ((j*W + w)*32 + l)*width.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

class SharingPattern : public Pattern {
 public:
  SharingPattern(const KernelGeometry& geom, uint64_t table_bytes, bool random)
      : geom_(geom), table_bytes_(table_bytes), random_(random) {}

  uint64_t load_region_bytes() const override { return table_bytes_; }
  uint64_t store_region_bytes() const override {
    return saturate_bytes((unsigned __int128)geom_.stores_per_warp * geom_.num_warps * kWarpSize *
                          geom_.width);
  }

  void next_load(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = kLoadPc;
    if (random_) {
      const uint64_t elements = table_bytes_ / geom_.width;
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        inst.addr[lane] = warp.rng.below(elements) * geom_.width;
      return;
    }
    const uint64_t chunk_bytes = uint64_t(kWarpSize) * geom_.width;
    const uint64_t chunk =
        (uint64_t(warp.loads) * geom_.warps_per_cta + warp.warp_uid % geom_.warps_per_cta) %
        (table_bytes_ / chunk_bytes);
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      inst.addr[lane] = chunk * chunk_bytes + lane * geom_.width;
  }
  void next_store(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = kStorePc;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      inst.addr[lane] = grid_stride_element(warp.stores, warp.warp_uid, lane, geom_.num_warps) * geom_.width;
  }

 private:
  KernelGeometry geom_;
  uint64_t table_bytes_;
  bool random_;
};

}  // namespace

void register_sharing(PatternRegistry& registry) {
  registry.add("sharing", [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
    const uint64_t chunk = uint64_t(kWarpSize) * geom.width;
    const uint64_t table = n.require_uint("table_bytes", kLineBytes, uint64_t(1) << 40);
    if (table % kLineBytes || table % chunk)
      n.fail("table_bytes", "value " + std::to_string(table) +
                                " must be a multiple of 128 and of 32*width (" + std::to_string(chunk) + ")");
    const bool random = n.get_choice("access", "sweep", {"random", "sweep"}) == "random";
    return std::make_unique<SharingPattern>(geom, table, random);
  });
}

}  // namespace gms
