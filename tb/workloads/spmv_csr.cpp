// spmv_csr: the scalar CSR SpMV kernel, y = A*x with one thread per row, the G-Cache paper's example
// (paper 001: the matrix streams, the vector is reused). Thread r < rows runs
//   start = row_ptr[r]; end = row_ptr[r+1]; for (e = start; e < end; e++) sum += val[e] * x[col[e]];
//   y[r] = sum;
// Warp program: load row_ptr[r] (pc 0x100) and row_ptr[r+1] (pc 0x108), then for e < the longest row of
// the warp, on the lanes whose row is longer than e: load col[start+e] (pc 0x110), val[start+e] (pc 0x118),
// x[col[start+e]] (pc 0x120), then the store of y[r] (pc 0x200): 3*maxlen + 3 instructions. Indices are
// 4 bytes, val / x / y `width` bytes. The matrix (csr_graph.h) has power-law or uniform row lengths and
// is built once per kernel from the YAML keys. Load region: row_ptr, col, val, x, each line-aligned.
#include <algorithm>

#include "tb/workloads/csr_graph.h"
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

constexpr uint64_t kSpmvStorePc = 0x200;

class SpmvCsrPattern : public Pattern {
 public:
  SpmvCsrPattern(const KernelGeometry& geom, CsrGraph graph, uint64_t cols)
      : geom_(geom), g_(std::move(graph)), cols_(cols) {
    col_at_ = line_align_up((g_.rows() + 1) * 4);
    val_at_ = line_align_up(col_at_ + g_.nnz() * 4);
    x_at_ = line_align_up(val_at_ + g_.nnz() * geom_.width);
  }

  uint64_t load_region_bytes() const override { return x_at_ + cols_ * geom_.width; }
  uint64_t store_region_bytes() const override { return g_.rows() * geom_.width; }
  void next_load(WarpCursor&, WarpInst&) const override {}
  void next_store(WarpCursor&, WarpInst&) const override {}

  bool next_inst(WarpCursor& warp, WarpInst& inst) const override {
    const uint64_t first = geom_.thread_id(warp.warp_uid, 0);
    const unsigned lanes = rows_of(warp.warp_uid);
    if (lanes == 0) return false;
    if (lanes < kWarpSize) inst.active_mask &= (uint32_t(1) << lanes) - 1;
    const uint64_t s = warp.pattern_steps, loop_end = 2 + 3 * uint64_t(max_len(first, lanes));
    if (s > loop_end) return false;
    if (s < 2 || s == loop_end) {  // the row bounds, or the store of y
      const bool store = s == loop_end;
      inst.kind = store ? MemKind::Store : MemKind::Load;
      inst.pc = store ? kSpmvStorePc : kLoadPc + 8 * s;
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        inst.addr[lane] = store ? (first + lane) * geom_.width : (first + lane + s) * 4;
      if (!store) inst.width = 4;
      return true;
    }
    const uint64_t e = (s - 2) / 3, which = (s - 2) % 3;  // 0 col, 1 val, 2 x
    inst.pc = 0x110 + 8 * which;
    if (which == 0) inst.width = 4;
    uint32_t mask = 0;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      const uint64_t r = first + lane;
      if (e >= g_.len(r)) continue;
      mask |= uint32_t(1) << lane;
      const uint64_t k = g_.row_ptr[r] + e;
      inst.addr[lane] = which == 0   ? col_at_ + k * 4
                        : which == 1 ? val_at_ + k * geom_.width
                                     : x_at_ + uint64_t(g_.col[k]) * geom_.width;
    }
    inst.active_mask &= mask;
    return true;
  }
  uint64_t total_insts() const override {
    uint64_t total = 0;
    for (uint64_t w = 0; w < geom_.num_warps; ++w) {
      const unsigned lanes = rows_of(w);
      if (lanes) total += 3 + 3 * uint64_t(max_len(geom_.thread_id(w, 0), lanes));
    }
    return total;
  }

 private:
  // Lanes 0 .. n-1 of the warp hold a thread with a row (padding lanes of a partial warp hold none).
  unsigned rows_of(uint64_t warp_uid) const {
    const uint64_t first = geom_.thread_id(warp_uid, 0);
    if (first >= g_.rows()) return 0;
    return unsigned(std::min<uint64_t>(__builtin_popcount(geom_.active_mask(warp_uid)), g_.rows() - first));
  }
  uint32_t max_len(uint64_t first, unsigned lanes) const {
    uint32_t m = 0;
    for (unsigned lane = 0; lane < lanes; ++lane) m = std::max(m, g_.len(first + lane));
    return m;
  }

  KernelGeometry geom_;
  CsrGraph g_;
  uint64_t cols_, col_at_ = 0, val_at_ = 0, x_at_ = 0;
};

}  // namespace

void register_spmv_csr(PatternRegistry& registry) {
  registry.add(
      "spmv_csr",
      [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
        const CsrShape shape = read_csr_shape(
            n, {"rows", "cols", "nnz_per_row", "row_dist", "max_row", "matrix_seed"}, geom.num_threads());
        return std::make_unique<SpmvCsrPattern>(geom, CsrGraph::generate(shape), shape.cols);
      },
      true);
}

}  // namespace gms
