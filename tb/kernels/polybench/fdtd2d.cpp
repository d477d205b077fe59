// PolyBench FDTD-2D, a 2D finite-difference time-domain step on nx x ny float fields ex, ey, hz, tmax times:
// per time step t the host launches fdtd_step1_kernel (row 0 of ey from _fict_[t], the other rows from hz's
// vertical difference), fdtd_step2_kernel (ex from hz's horizontal difference, columns 1..) and
// fdtd_step3_kernel (hz from ex and ey, the first nx - 1 rows and ny - 1 columns), each one thread per
// element, CTAs of 32 x 8 threads (x along j). As compiled, the neighbours' loads come before the updated
// element's own load (hz[i-1][j], hz[i][j], then ey[i][j]), and step 3 loads ex[i][j], ex[i][j+1],
// ey[i+1][j], ey[i][j], hz[i][j].
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 -O3 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory
// instructions.
constexpr uint32_t kGap1Entry = 21;              // indices, bounds test and the i == 0 test
constexpr uint32_t kGap1Fict = 3, kGap1Ey0 = 2;  // row 0: _fict_[t] and its store to ey
constexpr uint32_t kGap1Hz = 9, kGap1Ey = 1,
                   kGap1Store = 1;  // other rows: address arithmetic, then the loads
constexpr uint32_t kGap2Entry = 28, kGap2Ex = 1, kGap2Store = 1;
constexpr uint32_t kGap3Entry = 27, kGap3Ey1 = 2, kGap3Ey = 1, kGap3Hz = 1, kGap3Store = 1;
constexpr uint32_t kRegs1 = 12, kRegs2 = 12, kRegs3 = 18;  // ptxas -v, sm_75

class Fdtd2d : public KernelPort {
 public:
  Fdtd2d(uint32_t tmax, uint32_t nx, uint32_t ny) : tmax_(tmax), nx_(nx), ny_(ny) {}
  void setup(DeviceMemory& mem) override {
    const size_t nx = nx_, ny = ny_;
    fict_ = mem.alloc<float>("_fict_", tmax_);
    ex_ = mem.alloc<float>("ex", nx * ny);
    ey_ = mem.alloc<float>("ey", nx * ny);
    hz_ = mem.alloc<float>("hz", nx * ny);
    // init_arrays().
    for (size_t t = 0; t < tmax_; ++t) fict_[t] = float(t);
    const float fnx = float(nx);
    for (size_t i = 0; i < nx; ++i)
      for (size_t j = 0; j < ny; ++j) {
        const int64_t si = int64_t(i), sj = int64_t(j);
        ex_[i * ny + j] = (float(si) * float(sj + 1) + 1.0f) / fnx;
        ey_[i * ny + j] = (float(si - 1) * float(sj + 2) + 2.0f) / fnx;
        hz_[i * ny + j] = (float(si - 9) * float(sj + 4) + 3.0f) / fnx;
      }
    ex0_ = ex_.host();
    ey0_ = ey_.host();
    hz0_ = hz_.host();
  }
  void run(Launcher& host) override {
    const int64_t NX = nx_, NY = ny_;
    const Dim3 block{32, 8, 1}, grid{grid_of(ny_, 32), grid_of(nx_, 8), 1};
    for (int64_t t = 0; t < int64_t(tmax_); ++t) {
      KernelLaunch k1;
      k1.name = "fdtd_step1_kernel";
      k1.block = block;
      k1.grid = grid;
      k1.regs_per_thread = kRegs1;
      k1.body = [this, NX, NY, t](Warp& w) {
        const Int j = w.global_x(), i = w.global_y();
        w.compute(kGap1Entry);
        w.if_(i < NX && j < NY, [&] {
          w.if_else(
              i == 0,
              [&] {
                w.compute(kGap1Fict);
                const Float f = w.load(0x10, fict_, Int(t));
                w.compute(kGap1Ey0);
                w.store(0x20, ey_, i * NY + j, f);
              },
              [&] {
                w.compute(kGap1Hz);
                const Float hzp = w.load(0x30, hz_, (i - 1) * NY + j);
                const Float hz = w.load(0x40, hz_, i * NY + j);
                w.compute(kGap1Ey);
                const Float ey = w.load(0x50, ey_, i * NY + j);
                w.compute(kGap1Store);
                w.store(0x60, ey_, i * NY + j, ey - 0.5f * (hz - hzp));
              });
        });
      };
      host.launch(std::move(k1));

      KernelLaunch k2;
      k2.name = "fdtd_step2_kernel";
      k2.block = block;
      k2.grid = grid;
      k2.regs_per_thread = kRegs2;
      k2.body = [this, NX, NY](Warp& w) {
        const Int j = w.global_x(), i = w.global_y();
        w.compute(kGap2Entry);
        w.if_(i < NX && j < NY && j > 0, [&] {
          const Float hzp = w.load(0x70, hz_, i * NY + (j - 1));
          const Float hz = w.load(0x80, hz_, i * NY + j);
          w.compute(kGap2Ex);
          const Float ex = w.load(0x90, ex_, i * NY + j);
          w.compute(kGap2Store);
          w.store(0xa0, ex_, i * NY + j, ex - 0.5f * (hz - hzp));
        });
      };
      host.launch(std::move(k2));

      KernelLaunch k3;
      k3.name = "fdtd_step3_kernel";
      k3.block = block;
      k3.grid = grid;
      k3.regs_per_thread = kRegs3;
      k3.body = [this, NX, NY](Warp& w) {
        const Int j = w.global_x(), i = w.global_y();
        w.compute(kGap3Entry);
        w.if_(i < NX - 1 && j < NY - 1, [&] {
          const Float ex = w.load(0xb0, ex_, i * NY + j);
          const Float ex1 = w.load(0xc0, ex_, i * NY + (j + 1));
          w.compute(kGap3Ey1);
          const Float ey1 = w.load(0xd0, ey_, (i + 1) * NY + j);
          w.compute(kGap3Ey);
          const Float ey = w.load(0xe0, ey_, i * NY + j);
          w.compute(kGap3Hz);
          const Float hz = w.load(0xf0, hz_, i * NY + j);
          w.compute(kGap3Store);
          w.store(0x100, hz_, i * NY + j, hz - 0.7f * (ex1 - ex + ey1 - ey));
        });
      };
      host.launch(std::move(k3));
    }
  }
  std::string check() const override {
    const size_t nx = nx_, ny = ny_;
    std::vector<float> ex = ex0_, ey = ey0_, hz = hz0_;
    for (size_t t = 0; t < tmax_; ++t) {
      for (size_t j = 0; j < ny; ++j) ey[j] = fict_[t];
      for (size_t i = 1; i < nx; ++i)
        for (size_t j = 0; j < ny; ++j)
          ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
      for (size_t i = 0; i < nx; ++i)
        for (size_t j = 1; j < ny; ++j)
          ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
      for (size_t i = 0; i + 1 < nx; ++i)
        for (size_t j = 0; j + 1 < ny; ++j)
          hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + j + 1] - ex[i * ny + j] +
                                                    ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
    std::string e = polybench::compare("ex", ex_, ex);
    if (e.empty()) e = polybench::compare("ey", ey_, ey);
    return e.empty() ? polybench::compare("hz", hz_, hz) : e;
  }

 private:
  uint32_t tmax_, nx_, ny_;
  DeviceArray<float> fict_, ex_, ey_, hz_;
  std::vector<float> ex0_, ey0_, hz0_;
};

}  // namespace

void register_polybench_fdtd2d(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/fdtd-2d";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/stencils/fdtd-2d/fdtd2d.cu";
  p.input =
      "tmax = 1, nx = ny = 2048 (PolyBench STANDARD_DATASET fields, ex, ey, hz 16 MiB each, 64x the fermi "
      "LLC "
      "(768 KiB); STANDARD's tmax = 500 would make 915 M warp instructions). Every time step runs the same "
      "3 kernels over the same 48 MiB, none of it left in the LLC from the step before, so one step keeps "
      "the footprint and the per-step stream: 1.83 M warp instructions";
  p.papers = polybench::kPapers;
  p.kernels = "fdtd_step1_kernel, fdtd_step2_kernel, fdtd_step3_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Fdtd2d>(uint32_t(s.get_uint("tmax", 1, 1, 100000)),
                                    uint32_t(s.get_uint("nx", 2048, 2, 16384)),
                                    uint32_t(s.get_uint("ny", 2048, 2, 16384)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
