// matmul: C = A x B with A m x k, B k x n, C m x n, row-major `width`-byte elements; A at the load
// region's start, B at the next line after A, C in the store region. The cache-friendly class of the
// Decoupled L1D paper (paper 002: MM).
// naive (tile: 0): thread t < m*n (CUDA global index) computes C[i][j], i = t / n, j = t mod n:
//   for kk < k: load A[i*k + kk] (pc 0x100; a warp's lanes share a row: one or two lines, reused by the
//   next kk), load B[kk*n + j] (pc 0x108, coalesced; the same rows for every warp), then store C[i][j]
//   (pc 0x200): 2k + 1 instructions.
// tiled (tile: T, block = T*T): CTA c < (m/T)*(n/T) computes tile (ti, tj) = (c / (n/T), c mod (n/T));
//   thread (ty, tx) = (tid / T, tid mod T) per step s < k/T loads A[(ti*T + ty)*k + s*T + tx] and
//   B[(s*T + ty)*n + tj*T + tx] into shared memory (the arithmetic on it is the kernel's gap), then stores
//   C[ti*T + ty][tj*T + tx]: 2k/T + 1 instructions. Threads (CTAs) without an element idle.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

constexpr uint64_t kMatmulStorePc = 0x200;

class MatmulPattern : public Pattern {
 public:
  MatmulPattern(const KernelGeometry& geom, uint64_t m, uint64_t n, uint64_t k, uint64_t tile)
      : geom_(geom), m_(m), n_(n), k_(k), tile_(tile), b_offset_(line_align_up(m * k * geom.width)) {}

  uint64_t load_region_bytes() const override { return b_offset_ + k_ * n_ * geom_.width; }
  uint64_t store_region_bytes() const override { return m_ * n_ * geom_.width; }
  void next_load(WarpCursor&, WarpInst&) const override {}
  void next_store(WarpCursor&, WarpInst&) const override {}

  bool next_inst(WarpCursor& warp, WarpInst& inst) const override {
    const uint64_t steps = tile_ ? k_ / tile_ : k_;
    const uint64_t s = warp.pattern_steps;
    if (s > 2 * steps || !has_work(warp.warp_uid)) return false;
    const bool store = s == 2 * steps, b = s % 2;
    inst.kind = store ? MemKind::Store : MemKind::Load;
    inst.pc = store ? kMatmulStorePc : b ? kSecondLoadPc : kLoadPc;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      uint64_t i, j, a_col, b_row;  // C element (i, j); this step's A column and B row
      if (tile_) {
        const uint64_t cta = warp.warp_uid / geom_.warps_per_cta, tiles_n = n_ / tile_;
        const uint64_t tid = warp.warp_uid % geom_.warps_per_cta * kWarpSize + lane;
        const uint64_t ty = tid / tile_, tx = tid % tile_;
        i = cta / tiles_n * tile_ + ty;
        j = cta % tiles_n * tile_ + tx;
        a_col = s / 2 * tile_ + tx;
        b_row = s / 2 * tile_ + ty;
      } else {
        const uint64_t t = geom_.thread_id(warp.warp_uid, lane);
        i = t / n_;
        j = t % n_;
        a_col = b_row = s / 2;
        if (t >= m_ * n_) inst.active_mask &= ~(uint32_t(1) << lane);
      }
      const uint64_t e = store ? i * n_ + j : b ? b_row * n_ + j : i * k_ + a_col;
      inst.addr[lane] = (store || !b ? 0 : b_offset_) + e * geom_.width;
    }
    return true;
  }
  uint64_t total_insts() const override {
    uint64_t warps = 0;
    for (uint64_t w = 0; w < geom_.num_warps; ++w) warps += has_work(w);
    return warps * (2 * (tile_ ? k_ / tile_ : k_) + 1);
  }

 private:
  bool has_work(uint64_t warp_uid) const {
    if (tile_) return warp_uid / geom_.warps_per_cta < (m_ / tile_) * (n_ / tile_);
    return geom_.thread_id(warp_uid, 0) < m_ * n_;
  }

  KernelGeometry geom_;
  uint64_t m_, n_, k_, tile_, b_offset_;
};

}  // namespace

void register_matmul(PatternRegistry& registry) {
  registry.add(
      "matmul",
      [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
        const uint64_t m = n.require_uint("m", 1, 1u << 16);
        const uint64_t cols = n.require_uint("n", 1, 1u << 16);
        const uint64_t k = n.require_uint("k", 1, 1u << 16);
        const uint64_t tile = n.get_uint("tile", 0, 0, 32);
        if (tile) {
          if (geom.threads_per_cta != tile * tile)
            n.fail("tile", "tile " + std::to_string(tile) +
                               " needs block = tile*tile = " + std::to_string(tile * tile) +
                               " threads, not " + std::to_string(geom.threads_per_cta));
          for (const auto& [key, v] : {std::pair<const char*, uint64_t>{"m", m}, {"n", cols}, {"k", k}})
            if (v % tile)
              n.fail(key, "value " + std::to_string(v) + " must be a multiple of tile (" +
                              std::to_string(tile) + ")");
        }
        return std::make_unique<MatmulPattern>(geom, m, cols, k, tile);
      },
      true);
}

}  // namespace gms
