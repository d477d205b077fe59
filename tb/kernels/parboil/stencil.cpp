// Parboil STENCIL (cuda version), a 7-point Jacobi step on an nx x ny x nz float grid, iterated by the host
// with the two grids swapped after each launch: block2D_hybrid_coarsen_x, CTAs of 32 x 4 threads, each
// thread two points along x (i and i + 32) and the whole z column. The current xy plane sits in shared
// memory (64 x 4 floats); a thread keeps the planes below and above in registers. Per plane: load the plane
// above; neighbours in the tile come from shared memory, those outside it from global memory (the warp at
// threadIdx.y = 3 loads the row above, the one at 0 the row below, lane 0 the left and lane 31 the right
// neighbour); store the point; the same for the second point; then two barriers around the plane shift.
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory
// instructions (shared-memory accesses add one each, in the machinery).
constexpr uint32_t kGapEntry = 30;      // indices and region flags before the first shared store
constexpr uint32_t kGapFirst = 9;       // to the first plane's loads
constexpr uint32_t kGapSecondLoad = 4;  // between a point's two first-plane loads
constexpr uint32_t kGapSecondPoint = 6;
constexpr uint32_t kGapLoopSetup = 55;          // after the barrier, before the z loop
constexpr uint32_t kGapTop = 2;                 // the plane above
constexpr uint32_t kGapNeighbour = 2;           // each global neighbour load
constexpr uint32_t kGapStore = 10;              // the sum, before the store
constexpr uint32_t kGapLoopBack = 10;           // the loop's increment and test
constexpr uint32_t kRegs = 36;                  // ptxas -v, sm_75
constexpr uint32_t kTx = 32, kTy = 4;           // main.cu's tx, ty
constexpr uint32_t kShmem = kTx * 2 * kTy * 4;  // sh_size, dynamic shared memory

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// dst = src in the warp's active lanes (a value assigned under a branch).
void assign_active(const Warp& w, Float& dst, const Float& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps |= src.deps;
}

class Stencil : public KernelPort {
 public:
  Stencil(uint32_t nx, uint32_t ny, uint32_t nz, uint32_t iterations, uint64_t seed)
      : nx_(nx), ny_(ny), nz_(nz), iterations_(iterations), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const size_t size = size_t(nx_) * ny_ * nz_;
    a0_ = mem.alloc<float>("d_A0", size);
    anext_ = mem.alloc<float>("d_Anext", size);
    uint64_t s = seed_;
    for (size_t i = 0; i < size; ++i) a0_[i] = float(splitmix(s) % 65536) / 65536.0f;
    anext_.host() = a0_.host();  // cudaMemcpy(d_Anext, d_A0, DeviceToDevice)
    input_ = a0_.host();
  }

  void run(Launcher& host) override {
    DeviceArray<float>* in = &a0_;
    DeviceArray<float>* out = &anext_;
    for (uint32_t t = 0; t < iterations_; ++t) {
      KernelLaunch k;
      k.name = "block2D_hybrid_coarsen_x";
      k.block = {kTx, kTy, 1};
      k.grid = {(nx_ + kTx * 2 - 1) / (kTx * 2), (ny_ + kTy - 1) / kTy, 1};
      k.regs_per_thread = kRegs;
      k.shmem_per_cta = kShmem;
      k.body = [this, in, out](Warp& w) { body(w, *in, *out); };
      host.launch(std::move(k));
      std::swap(in, out);
    }
    result_ = in;  // the host's final swap: the last output
  }

  std::string check() const override {
    const int64_t nx = nx_, ny = ny_, nz = nz_;
    auto at = [&](int64_t i, int64_t j, int64_t k) { return size_t(i + nx * (j + ny * k)); };
    std::vector<float> a = input_, b = input_;
    for (uint32_t t = 0; t < iterations_; ++t) {
      for (int64_t k = 1; k < nz - 1; ++k)
        for (int64_t j = 1; j < ny - 1; ++j)
          for (int64_t i = 1; i < nx - 1; ++i)
            b[at(i, j, k)] = (a[at(i, j, k + 1)] + a[at(i, j, k - 1)] + a[at(i, j + 1, k)] +
                              a[at(i, j - 1, k)] + a[at(i + 1, j, k)] + a[at(i - 1, j, k)]) *
                                 kC1 -
                             a[at(i, j, k)] * kC0;
      std::swap(a, b);
    }
    for (size_t i = 0; i < a.size(); ++i)
      if ((*result_)[i] != a[i])
        return "A[" + std::to_string(i) + "] = " + std::to_string((*result_)[i]) + ", expected " +
               std::to_string(a[i]);
    return "";
  }

 private:
  void body(Warp& w, DeviceArray<float>& a0, DeviceArray<float>& anext) const {
    const int64_t nx = nx_, ny = ny_, nz = nz_;
    const int64_t bdx = w.block_dim().x, bdy = w.block_dim().y;
    const Int& tx = w.thread_idx_x();
    const Int& ty = w.thread_idx_y();
    const Int i = tx + int64_t(w.block_idx().x) * bdx * 2;
    const Int i2 = i + bdx;
    const Int j = ty + int64_t(w.block_idx().y) * bdy;
    const Int sh_id = tx + ty * bdx * 2;
    const Int sh_id2 = sh_id + bdx;
    auto idx = [&](const Int& x, const Int& y, const Int& z) { return x + nx * (y + ny * z); };
    std::vector<float>& sh = w.shared<float>(0, size_t(bdx * 2 * bdy));

    w.compute(kGapEntry);
    w.shared_store(sh, sh_id, 0.0f);
    w.shared_store(sh, sh_id2, 0.0f);
    w.sync();
    const Bool w_region = i > 0 && j > 0 && i < nx - 1 && j < ny - 1;
    const Bool w_region2 = j > 0 && i2 < nx - 1 && j < ny - 1;
    const Bool x_l_bound = tx == 0;
    const Bool x_h_bound = tx + bdx == bdx * 2 - 1;
    const Bool y_l_bound = ty == 0;
    const Bool y_h_bound = ty == bdy - 1;
    Float bottom = 0.0f, bottom2 = 0.0f, top = 0.0f, top2 = 0.0f;

    w.compute(kGapFirst);
    w.if_(i < nx && j < ny, [&] {
      assign_active(w, bottom, w.load(0x10, a0, idx(i, j, 0)));
      w.compute(kGapSecondLoad);
      w.shared_store(sh, sh_id, w.load(0x20, a0, idx(i, j, 1)));
    });
    w.compute(kGapSecondPoint);
    w.if_(i2 < nx && j < ny, [&] {
      assign_active(w, bottom2, w.load(0x30, a0, idx(i2, j, 0)));
      w.compute(kGapSecondLoad);
      w.shared_store(sh, sh_id2, w.load(0x40, a0, idx(i2, j, 1)));
    });
    w.sync();

    w.compute(kGapLoopSetup);
    w.for_(1, nz - 1, 1, [&](const Int& k) {
      Float up, down, lr;
      // A neighbour from global memory where `outside`, else from the tile.
      auto neighbour = [&](Float& dst, const Bool& outside, uint32_t pc, const Int& gidx, const Int& sidx) {
        w.if_else(
            outside,
            [&] {
              w.compute(kGapNeighbour);
              assign_active(w, dst, w.load(pc, a0, gidx));
            },
            [&] { assign_active(w, dst, w.shared_load(sh, sidx)); });
      };
      w.if_(i < nx && j < ny, [&] {
        w.compute(kGapTop);
        assign_active(w, top, w.load(0x50, a0, idx(i, j, k + 1)));
      });
      w.if_(w_region, [&] {
        neighbour(up, y_h_bound, 0x60, idx(i, j + 1, k), sh_id + 2 * bdx);
        neighbour(down, y_l_bound, 0x70, idx(i, j - 1, k), sh_id - 2 * bdx);
        neighbour(lr, x_l_bound, 0x80, idx(i - 1, j, k), sh_id - 1);
        const Float right = w.shared_load(sh, sh_id + 1);
        const Float centre = w.shared_load(sh, sh_id);
        w.compute(kGapStore);
        w.store(0x90, anext, idx(i, j, k), (top + bottom + up + down + right + lr) * kC1 - centre * kC0);
      });
      w.if_(i2 < nx && j < ny, [&] {
        w.compute(kGapTop);
        assign_active(w, top2, w.load(0xa0, a0, idx(i2, j, k + 1)));
      });
      w.if_(w_region2, [&] {
        neighbour(up, y_h_bound, 0xb0, idx(i2, j + 1, k), sh_id2 + 2 * bdx);
        neighbour(down, y_l_bound, 0xc0, idx(i2, j - 1, k), sh_id2 - 2 * bdx);
        neighbour(lr, x_h_bound, 0xd0, idx(i2 + 1, j, k), sh_id2 + 1);
        const Float left = w.shared_load(sh, sh_id2 - 1);
        const Float centre = w.shared_load(sh, sh_id2);
        w.compute(kGapStore);
        w.store(0xe0, anext, idx(i2, j, k), (top2 + bottom2 + up + down + lr + left) * kC1 - centre * kC0);
      });
      w.sync();
      bottom = w.shared_load(sh, sh_id);
      w.shared_store(sh, sh_id, top);
      bottom2 = w.shared_load(sh, sh_id2);
      w.shared_store(sh, sh_id2, top2);
      w.sync();
      w.compute(kGapLoopBack);
    });
  }

  static constexpr float kC0 = 1.0f / 6.0f, kC1 = 1.0f / 6.0f / 6.0f;  // main.cu's c0, c1
  uint32_t nx_, ny_, nz_, iterations_;
  uint64_t seed_;
  DeviceArray<float> a0_, anext_;
  DeviceArray<float>* result_ = &anext_;
  std::vector<float> input_;
};

}  // namespace

void register_parboil_stencil(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/stencil";
  p.suite = "Parboil 2.5, CUDA";
  p.source = "github.com/abduld/Parboil @a4c63da, benchmarks/stencil/src/cuda (kernels.cu, main.cu)";
  p.input =
      "Parboil's default input, a 512 x 512 x 64 grid (2 x 64 MiB), its data file replaced by seeded uniform "
      "values (seed = 1); 2 iterations (paper 003 caps Parboil's iterations at 2; the source's 100 would "
      "make "
      "224 M warp instructions; 2 make 4.48 M, barriers included)";
  p.papers = "TSC (000), G-Cache (001), reuse distance (003)";
  p.kernels = "block2D_hybrid_coarsen_x";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t nx = s.get_uint("nx", 512, 3, 8192);
    const uint64_t ny = s.get_uint("ny", 512, 3, 8192);
    const uint64_t nz = s.get_uint("nz", 64, 3, 8192);
    const uint64_t it = s.get_uint("iterations", 2, 1, 1000);
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Stencil>(uint32_t(nx), uint32_t(ny), uint32_t(nz), uint32_t(it), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
