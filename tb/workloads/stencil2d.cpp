// stencil2d: a (4*radius+1)-point 2D stencil, out[y][x] = f(in[y+dy][x+dx]) over an nx x ny interior; the
// input carries a halo of `radius` elements on every side (pitch P = nx + 2*radius elements), so every
// neighbour exists. Grid-stride loop over points: thread t (CUDA global index, T = grid*block threads)
// computes points p = t, t + T, t + 2T, ... < nx*ny, x = p mod nx, y = p / nx. Per point: loads of
// in[(y+r+dy)*P + x+r+dx] for (dx, dy) = (0,0), then for d = 1..radius: (-d,0), (d,0), (0,-d), (0,d) at
// pcs 0x100 + 8*k (k = the load's place), then the store of out[p] (pc 0x200). The centre, west and east
// loads share lines (spatial locality); north and south rows are the rows other warps load as their centre
// (inter-warp reuse). Lanes whose point is past the end drop out of the last iteration.
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

constexpr uint64_t kStencilStorePc = 0x200;

class Stencil2dPattern : public Pattern {
 public:
  Stencil2dPattern(const KernelGeometry& geom, uint64_t nx, uint64_t ny, uint64_t radius)
      : geom_(geom), nx_(nx), ny_(ny), r_(radius), per_point_(4 * radius + 2) {}

  uint64_t load_region_bytes() const override { return (nx_ + 2 * r_) * (ny_ + 2 * r_) * geom_.width; }
  uint64_t store_region_bytes() const override { return nx_ * ny_ * geom_.width; }
  void next_load(WarpCursor&, WarpInst&) const override {}
  void next_store(WarpCursor&, WarpInst&) const override {}

  bool next_inst(WarpCursor& warp, WarpInst& inst) const override {
    const uint64_t points = nx_ * ny_, threads = geom_.num_threads();
    const uint64_t it = warp.pattern_steps / per_point_, k = warp.pattern_steps % per_point_;
    const uint64_t first = geom_.thread_id(warp.warp_uid, 0) + it * threads;
    if (first >= points) return false;
    inst.active_mask &= lanes_below(first, points);
    const bool store = k + 1 == per_point_;
    inst.kind = store ? MemKind::Store : MemKind::Load;
    inst.pc = store ? kStencilStorePc : kLoadPc + 8 * k;
    int64_t dx = 0, dy = 0;
    if (!store && k > 0) {
      const int64_t d = int64_t((k - 1) / 4 + 1);
      const unsigned dir = unsigned((k - 1) % 4);
      dx = dir == 0 ? -d : dir == 1 ? d : 0;
      dy = dir == 2 ? -d : dir == 3 ? d : 0;
    }
    const uint64_t pitch = nx_ + 2 * r_;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const uint64_t p = first + lane, x = p % nx_, y = p / nx_;
      const uint64_t e = store ? p : uint64_t(int64_t(y + r_) + dy) * pitch + uint64_t(int64_t(x + r_) + dx);
      inst.addr[lane] = e * geom_.width;
    }
    return true;
  }
  uint64_t total_insts() const override {
    const uint64_t points = nx_ * ny_, threads = geom_.num_threads();
    uint64_t total = 0;
    for (uint64_t w = 0; w < geom_.num_warps; ++w) {
      const uint64_t t = geom_.thread_id(w, 0);
      if (t < points) total += ((points - t - 1) / threads + 1) * per_point_;
    }
    return total;
  }

 private:
  KernelGeometry geom_;
  uint64_t nx_, ny_, r_, per_point_;
};

}  // namespace

void register_stencil2d(PatternRegistry& registry) {
  registry.add(
      "stencil2d",
      [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
        const uint64_t nx = n.require_uint("nx", 1, 1u << 20);
        const uint64_t ny = n.require_uint("ny", 1, 1u << 20);
        const uint64_t radius = n.get_uint("radius", 1, 1, 4);
        // Bounded so that a warp's instruction count (an uint32) cannot overflow.
        const uint64_t iterations = (nx * ny + geom.num_threads() - 1) / geom.num_threads();
        if (iterations * (4 * radius + 2) > UINT32_MAX)
          n.fail("ny", "nx x ny needs " + std::to_string(iterations) +
                           " points per thread: too many instructions per warp; use a larger grid");
        return std::make_unique<Stencil2dPattern>(geom, nx, ny, radius);
      },
      true);
}

}  // namespace gms
