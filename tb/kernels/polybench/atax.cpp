// PolyBench ATAX, y = A^T (A x) (A: nx x ny floats): atax_kernel1 (tmp = A x, a thread per row) and
// atax_kernel2 (y = A^T tmp, a thread per column). The host launches CTAs of 32 x 8 threads on a grid sized
// by blockDim.x alone and the kernels index by blockIdx.x * blockDim.x + threadIdx.x, so the 8 warps of a
// CTA compute the same 32 rows (columns): each element is computed 8 times, as on the GPU. As compiled, a
// thread stores 0 to its element, then per step loads A and the vector element and stores the running sum.
#include <cmath>

#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry1 = 18,
                   kGapEntry2 = 19;         // index arithmetic and bounds test before the store of 0
constexpr uint32_t kGapA = 2, kGapVec = 0;  // loops unrolled 4x: 10 non-memory PTX per 4 iterations
constexpr uint32_t kGapSum = 1;             // the multiply-add before the store
constexpr uint32_t kRegs = 20;              // ptxas -v, sm_75, both kernels

class Atax : public KernelPort {
 public:
  explicit Atax(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("A", n * n);
    x_ = mem.alloc<float>("x", n);
    y_ = mem.alloc<float>("y", n);
    tmp_ = mem.alloc<float>("tmp", n);
    // init_array(): x[i] = i * M_PI, A[i][j] = (float)i*j / NX.
    for (size_t i = 0; i < n; ++i) {
      x_[i] = float(double(i) * M_PI);
      for (size_t j = 0; j < n; ++j) a_[i * n + j] = float(i) * float(j) / float(n);
    }
  }
  void run(Launcher& host) override {
    const int64_t N = n_;  // NX = NY
    KernelLaunch k1;
    k1.name = "atax_kernel1";
    k1.block = {32, 8, 1};
    k1.grid = {grid_of(n_, 32), 1, 1};
    k1.regs_per_thread = kRegs;
    k1.body = [this, N](Warp& w) {
      const Int i = w.global_x();
      w.compute(kGapEntry1);
      w.if_(i < N, [&] {
        Float t = 0.0f;
        w.store(0x10, tmp_, i, t);
        w.for_(0, N, 1, [&](const Int& j) {
          w.compute(kGapA);
          const Float a = w.load(0x20, a_, i * N + j);
          w.compute(kGapVec);
          const Float x = w.load(0x30, x_, j);
          t = polybench::accumulate(t, a * x);
          w.compute(kGapSum);
          w.store(0x40, tmp_, i, t);
        });
      });
    };
    host.launch(std::move(k1));

    KernelLaunch k2;
    k2.name = "atax_kernel2";
    k2.block = {32, 8, 1};
    k2.grid = {grid_of(n_, 32), 1, 1};
    k2.regs_per_thread = kRegs;
    k2.body = [this, N](Warp& w) {
      const Int j = w.global_x();
      w.compute(kGapEntry2);
      w.if_(j < N, [&] {
        Float y = 0.0f;
        w.store(0x50, y_, j, y);
        w.for_(0, N, 1, [&](const Int& i) {
          w.compute(kGapA);
          const Float a = w.load(0x60, a_, i * N + j);
          w.compute(kGapVec);
          const Float t = w.load(0x70, tmp_, i);
          y = polybench::accumulate(y, a * t);
          w.compute(kGapSum);
          w.store(0x80, y_, j, y);
        });
      });
    };
    host.launch(std::move(k2));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> tmp(n, 0.0f), y(n, 0.0f);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) tmp[i] = tmp[i] + a_[i * n + j] * x_[j];
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < n; ++i) y[j] = y[j] + a_[i * n + j] * tmp[i];
    std::string e = polybench::compare("tmp", tmp_, tmp);
    return e.empty() ? polybench::compare("y", y_, y) : e;
  }

 private:
  uint32_t n_;
  DeviceArray<float> a_, x_, y_, tmp_;
};

}  // namespace

void register_polybench_atax(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/atax";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/atax/atax.cu";
  p.input =
      "n = 1024 (NX = NY; PolyBench MINI_DATASET, A 4 MiB). The STANDARD 4096 (64 MiB) makes 25 M warp "
      "instructions (each element computed by 8 warps), SMALL 2048 6.3 M; 1024 makes 1.57 M and A is still "
      "5x the fermi LLC (768 KiB), streamed";
  p.papers = "reuse distance (003, PolyBench/GPU: atax 0, atax 1)";
  p.kernels = "atax_kernel1, atax_kernel2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Atax>(uint32_t(s.get_uint("n", 1024, 1, 16384)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
