// Parboil LBM (cuda version), a D3Q19 lattice-Boltzmann step (lid-driven cavity) iterated by the host with
// the two grids swapped after each launch: performStreamCollide_kernel, a CTA per (y, z) row of SIZE_X
// threads, a thread per cell. Layout: structure of arrays, 20 planes (19 distributions, then the flags) of
// PADDED_X x PADDED_Y x PADDED_Z cells; the grid pointer sits 2 xy planes into an allocation with a margin
// of 2 * PADDED_X * PADDED_Y * 20 floats at each end. SCATTER variant (layout_config.h): the thread loads
// its cell's 19 distributions and its flags (20 loads, a stride of one plane each), collides (obstacle
// cells bounce back, fluid cells relax) and stores each distribution to the neighbour it streams to.
#include <cstdint>
#include <cstring>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v on lbm_kernel.cu: PTX between the
// memory instructions.
constexpr uint32_t kGapEntry = 10;     // indices before the first load (the other 19 loads follow at once)
constexpr uint32_t kGapBranch = 5;     // the obstacle test
constexpr uint32_t kGapCollide = 195;  // the fluid cell's collision (the obstacle's swap is renaming)
constexpr uint32_t kGapStore = 3;      // the destination address (the 19 stores follow at once)
constexpr uint32_t kRegs = 49;         // ptxas -v, sm_75; no shared memory
constexpr uint32_t kPadX = 8, kPadY = 0, kPadZ = 4;  // layout_config.h
constexpr uint32_t kEntries = 20;                    // C .. WB, FLAGS
constexpr uint32_t kFlags = 19;
constexpr uint32_t kObstacle = 1, kAccel = 2;
constexpr float kOmega = 1.95f, kDfl1 = 1.0f / 3.0f, kDfl2 = 1.0f / 18.0f, kDfl3 = 1.0f / 36.0f;

// Each distribution's streaming direction (x, y, z), in the enum's order C, N, S, E, W, T, B, NE, NW, SE,
// SW, NT, NB, ST, SB, ET, EB, WT, WB.
constexpr int kDir[19][3] = {{0, 0, 0},   {0, 1, 0},  {0, -1, 0}, {1, 0, 0},  {-1, 0, 0},
                             {0, 0, 1},   {0, 0, -1}, {1, 1, 0},  {-1, 1, 0}, {1, -1, 0},
                             {-1, -1, 0}, {0, 1, 1},  {0, 1, -1}, {0, -1, 1}, {0, -1, -1},
                             {1, 0, 1},   {1, 0, -1}, {-1, 0, 1}, {-1, 0, -1}};
enum { C, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB };

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// One cell's collision, in the kernel's statement order (the host's arithmetic, no fused multiply-add):
// t holds the 19 distributions in, and out.
void collide(float* t, uint32_t flags) {
  if (flags & kObstacle) {  // bounce back
    std::swap(t[N], t[S]), std::swap(t[E], t[W]), std::swap(t[T], t[B]), std::swap(t[NE], t[SW]);
    std::swap(t[NW], t[SE]), std::swap(t[NT], t[SB]), std::swap(t[NB], t[ST]), std::swap(t[ET], t[WB]);
    std::swap(t[EB], t[WT]);
    return;
  }
  float rho = t[C];
  for (int e = N; e <= WB; ++e) rho = rho + t[e];
  float ux = +t[E] - t[W] + t[NE] - t[NW] + t[SE] - t[SW] + t[ET] + t[EB] - t[WT] - t[WB];
  float uy = +t[N] - t[S] + t[NE] + t[NW] - t[SE] - t[SW] + t[NT] + t[NB] - t[ST] - t[SB];
  float uz = +t[T] - t[B] + t[NT] - t[NB] + t[ST] - t[SB] + t[ET] - t[EB] + t[WT] - t[WB];
  ux /= rho, uy /= rho, uz /= rho;
  if (flags & kAccel) ux = 0.005f, uy = 0.002f, uz = 0.000f;
  const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz) - 1.0f;
  const float base = kOmega * rho, t2 = 1.0f - kOmega;
  float t1 = kDfl1 * base;
  t[C] = t2 * t[C] + t1 * (-u2);
  t1 = kDfl2 * base;
  auto relax = [&](int e, float u) { t[e] = t2 * t[e] + t1 * (u * (4.5f * u + 3.0f) - u2); };
  relax(N, uy), relax(S, -uy), relax(T, uz), relax(B, -uz), relax(E, ux), relax(W, -ux);
  t1 = kDfl3 * base;
  relax(NT, +uy + uz), relax(NB, +uy - uz), relax(ST, -uy + uz), relax(SB, -uy - uz);
  relax(NE, +ux + uy), relax(SE, +ux - uy), relax(ET, +ux + uz), relax(EB, +ux - uz);
  relax(NW, -ux + uy), relax(SW, -ux - uy), relax(WT, -ux + uz), relax(WB, -ux - uz);
}

class Lbm : public KernelPort {
 public:
  Lbm(uint32_t sx, uint32_t sy, uint32_t sz, uint32_t iterations, uint32_t obstacle_permille, uint64_t seed)
      : sx_(sx),
        sy_(sy),
        sz_(sz),
        iterations_(iterations),
        obstacle_permille_(obstacle_permille),
        seed_(seed) {
    px_ = sx_ + kPadX, py_ = sy_ + kPadY, pz_ = sz_ + kPadZ;
    cells_ = int64_t(px_) * py_ * pz_;
    margin_ = 2 * int64_t(px_) * py_;  // REAL_MARGIN
    total_ = size_t(cells_ * kEntries + 2 * margin_ * kEntries);
  }

  void setup(DeviceMemory& mem) override {
    // The host grids: LBM_initializeGrid, the obstacle file, LBM_initializeSpecialCellsForLDC.
    std::vector<float> g(total_, 0.0f);
    const float init[19] = {kDfl1, kDfl2, kDfl2, kDfl2, kDfl2, kDfl2, kDfl2, kDfl3, kDfl3, kDfl3,
                            kDfl3, kDfl3, kDfl3, kDfl3, kDfl3, kDfl3, kDfl3, kDfl3, kDfl3};
    for (int64_t z = 0; z < sz_; ++z)
      for (int64_t y = 0; y < sy_; ++y)
        for (int64_t x = 0; x < sx_; ++x) {
          for (uint32_t e = 0; e < 19; ++e) g[at(x, y, z, e)] = init[e];
          g[at(x, y, z, kFlags)] = from_bits(0);
        }
    auto set_flag = [&](int64_t x, int64_t y, int64_t z, uint32_t f) {
      float& v = g[at(x, y, z, kFlags)];
      v = from_bits(bits(v) | f);
    };
    uint64_t s = seed_;
    if (obstacle_permille_)
      for (int64_t z = 0; z < sz_; ++z)
        for (int64_t y = 0; y < sy_; ++y)
          for (int64_t x = 0; x < sx_; ++x)
            if (splitmix(s) % 1000 < obstacle_permille_) set_flag(x, y, z, kObstacle);
    for (int64_t z = -2; z < sz_ + 2; ++z)
      for (int64_t y = 0; y < sy_; ++y)
        for (int64_t x = 0; x < sx_; ++x) {
          if (x == 0 || x == sx_ - 1 || y == 0 || y == sy_ - 1 || z == 0 || z == sz_ - 1)
            set_flag(x, y, z, kObstacle);
          else if ((z == 1 || z == sz_ - 2) && x > 1 && x < sx_ - 2 && y > 1 && y < sy_ - 2)
            set_flag(x, y, z, kAccel);
        }
    src_ = mem.alloc<float>("CUDA_srcGrid", total_);
    dst_ = mem.alloc<float>("CUDA_dstGrid", total_);
    src_.host() = g;
    dst_.host() = g;
    input_ = std::move(g);
  }

  void run(Launcher& host) override {
    DeviceArray<float>* src = &src_;
    DeviceArray<float>* dst = &dst_;
    for (uint32_t t = 0; t < iterations_; ++t) {
      KernelLaunch k;
      k.name = "performStreamCollide_kernel";
      k.block = {sx_, 1, 1};
      k.grid = {sy_, sz_, 1};
      k.regs_per_thread = kRegs;
      k.body = [this, src, dst](Warp& w) { body(w, *src, *dst); };
      host.launch(std::move(k));
      std::swap(src, dst);
    }
  }

  std::string check() const override {
    std::vector<float> a = input_, b = input_;
    for (uint32_t t = 0; t < iterations_; ++t) {
      for (int64_t z = 0; z < sz_; ++z)
        for (int64_t y = 0; y < sy_; ++y)
          for (int64_t x = 0; x < sx_; ++x) {
            float v[19];
            for (uint32_t e = 0; e < 19; ++e) v[e] = a[at(x, y, z, e)];
            collide(v, bits(a[at(x, y, z, kFlags)]));
            for (uint32_t e = 0; e < 19; ++e) b[at(x + kDir[e][0], y + kDir[e][1], z + kDir[e][2], e)] = v[e];
          }
      std::swap(a, b);
    }
    // After the last swap the source grid holds the result; both grids are compared whole.
    const DeviceArray<float>& res = iterations_ % 2 ? dst_ : src_;
    const DeviceArray<float>& other = iterations_ % 2 ? src_ : dst_;
    for (size_t i = 0; i < total_; ++i) {
      if (bits(res[i]) != bits(a[i]))
        return "result[" + std::to_string(i) + "] = " + std::to_string(res[i]) + ", expected " +
               std::to_string(a[i]);
      if (bits(other[i]) != bits(b[i]))
        return "other grid[" + std::to_string(i) + "] = " + std::to_string(other[i]) + ", expected " +
               std::to_string(b[i]);
    }
    return "";
  }

 private:
  // The allocation's index of CALC_INDEX(x, y, z, e) past the grid pointer.
  size_t at(int64_t x, int64_t y, int64_t z, int64_t e) const {
    return size_t(margin_ + cells_ * e + x + y * px_ + z * int64_t(px_) * py_);
  }

  void body(Warp& w, DeviceArray<float>& src, DeviceArray<float>& dst) const {
    const int64_t px = px_, plane = int64_t(px_) * py_;
    const Int& x = w.thread_idx_x();
    const int64_t y = w.block_idx().x, z = w.block_idx().y;
    const Int cell = x + (margin_ + y * px + z * plane);
    w.compute(kGapEntry);
    Float t[19];
    for (uint32_t e = 0; e < 19; ++e) t[e] = w.load(0x10 + 0x10 * e, src, cell + cells_ * int64_t(e));
    const Float flags = w.load(0x140, src, cell + cells_ * int64_t(kFlags));
    w.compute(kGapBranch);
    Bool obstacle;
    for (unsigned l = 0; l < kWarpSize; ++l) obstacle.v[l] = bits(flags.v[l]) & kObstacle;
    obstacle.deps = flags.deps;
    w.if_(!obstacle, [&] { w.compute(kGapCollide); });
    // Every lane's collision (inactive lanes' results are never stored).
    RegSet deps = flags.deps;
    for (uint32_t e = 0; e < 19; ++e) deps |= t[e].deps;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      float v[19];
      for (uint32_t e = 0; e < 19; ++e) v[e] = t[e].v[l];
      collide(v, bits(flags.v[l]));
      for (uint32_t e = 0; e < 19; ++e) t[e].v[l] = v[e];
    }
    w.compute(kGapStore);
    for (uint32_t e = 0; e < 19; ++e) {
      t[e].deps = deps;
      const int64_t off = cells_ * int64_t(e) + kDir[e][0] + kDir[e][1] * px + kDir[e][2] * plane;
      w.store(0x150 + 0x10 * e, dst, cell + off, t[e]);
    }
  }

  uint32_t sx_, sy_, sz_, iterations_, obstacle_permille_;
  uint64_t seed_;
  uint32_t px_ = 0, py_ = 0, pz_ = 0;
  int64_t cells_ = 0, margin_ = 0;
  size_t total_ = 0;
  DeviceArray<float> src_, dst_;
  std::vector<float> input_;
};

}  // namespace

void register_parboil_lbm(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/lbm";
  p.suite = "Parboil 2.5, CUDA";
  p.source =
      "github.com/abduld/Parboil @a4c63da, benchmarks/lbm/src/cuda (lbm_kernel.cu, lbm.cu, main.cc, "
      "layout_config.h: SCATTER)";
  p.input =
      "Parboil's short input (lbm has no medium one; short and long share the grid), the fixed 120 x 120 x "
      "150 lid-driven cavity (2 grids of 189 MiB with their margins), unscaled; its obstacle file "
      "(120_120_150_ldc.of) is taken to hold no interior obstacles, the walls and the accelerated lid come "
      "from LBM_initializeSpecialCellsForLDC (obstacle_permille > 0 adds seeded random obstacle cells); 2 "
      "time steps (paper 003 caps Parboil's iterations at 2; short runs 100): 2 x 72,000 warps x 39 = 5.6 "
      "M warp memory instructions";
  p.papers = "reuse distance (003)";
  p.kernels = "performStreamCollide_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t sx = s.get_uint("size_x", 120, 5, 1024);  // the CTA's width
    const uint64_t sy = s.get_uint("size_y", 120, 5, 65535);
    const uint64_t sz = s.get_uint("size_z", 150, 5, 65535);
    const uint64_t it = s.get_uint("iterations", 2, 1, 1000);
    const uint64_t obst = s.get_uint("obstacle_permille", 0, 0, 1000);
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Lbm>(uint32_t(sx), uint32_t(sy), uint32_t(sz), uint32_t(it), uint32_t(obst),
                                 seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
