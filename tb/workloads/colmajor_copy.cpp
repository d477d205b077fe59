// colmajor_copy: the MSHR experiment of the reuse-distance paper (paper 003, Figure 3): a rows x columns
// matrix of `width`-byte elements copied "column-major", each thread copying an entire row: thread r < rows
// runs `for (j = 0; j < columns; j++) out[r*columns + j] = in[r*columns + j];`. Load j (pc 0x100) and
// store j (pc 0x110) of lane r touch element r*columns + j: the lanes of a warp are a row apart
// (uncoalesced, one line per lane once columns*width >= 128) and a line's locality lies within one
// thread, across 128/width iterations. Program per warp: load, store, ... 2*columns instructions.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

class ColMajorCopyPattern : public Pattern {
 public:
  ColMajorCopyPattern(const KernelGeometry& geom, uint64_t rows, uint64_t columns)
      : geom_(geom), rows_(rows), columns_(columns) {}

  uint64_t load_region_bytes() const override { return rows_ * columns_ * geom_.width; }
  uint64_t store_region_bytes() const override { return load_region_bytes(); }
  void next_load(WarpCursor&, WarpInst&) const override {}
  void next_store(WarpCursor&, WarpInst&) const override {}

  bool next_inst(WarpCursor& warp, WarpInst& inst) const override {
    const uint64_t n = warp.pattern_steps;
    const uint64_t first = geom_.thread_id(warp.warp_uid, 0);
    if (n >= 2 * columns_ || first >= rows_) return false;
    const bool store = n % 2;
    inst.kind = store ? MemKind::Store : MemKind::Load;
    inst.pc = store ? kStorePc : kLoadPc;
    inst.active_mask &= lanes_below(first, rows_);
    uint64_t a = (first * columns_ + n / 2) * geom_.width;
    for (unsigned lane = 0; lane < kWarpSize; ++lane, a += columns_ * geom_.width) inst.addr[lane] = a;
    return true;
  }
  uint64_t total_insts() const override { return geom_.warps_starting_below(rows_) * 2 * columns_; }

 private:
  KernelGeometry geom_;
  uint64_t rows_, columns_;
};

}  // namespace

void register_colmajor_copy(PatternRegistry& registry) {
  registry.add(
      "colmajor_copy",
      [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
        const uint64_t columns = n.get_uint("columns", 1024, 1, 1u << 20);
        const uint64_t rows = n.get_uint("rows", geom.num_threads(), 1, geom.num_threads());
        if ((unsigned __int128)rows * columns * geom.width >= (unsigned __int128)1 << 48)
          n.fail("columns", "rows x columns x width exceeds the 48-bit address space");
        return std::make_unique<ColMajorCopyPattern>(geom, rows, columns);
      },
      true);
}

}  // namespace gms
