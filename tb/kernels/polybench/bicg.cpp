// PolyBench BiCG, s = A^T r and q = A p (A: nx x ny floats): bicg_kernel1 (a thread per column of A, walking
// down it) and bicg_kernel2 (a thread per row, walking along it), CTAs of 256 threads. As compiled, a thread
// stores 0 to its element, then per step loads the vector element and A and stores the running sum.
#include <cmath>

#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry1 = 19,
                   kGapEntry2 = 18;                // index arithmetic and bounds test before the store of 0
constexpr uint32_t kGapFirst = 2, kGapSecond = 0;  // loops unrolled 4x: 10 non-memory PTX per 4 iterations
constexpr uint32_t kGapSum = 1;                    // the multiply-add before the store
constexpr uint32_t kRegs = 20;                     // ptxas -v, sm_75, both kernels

class Bicg : public KernelPort {
 public:
  explicit Bicg(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("A", n * n);
    r_ = mem.alloc<float>("r", n);
    s_ = mem.alloc<float>("s", n);
    p_ = mem.alloc<float>("p", n);
    q_ = mem.alloc<float>("q", n);
    // init_array(): p[i] = r[i] = i * M_PI, A[i][j] = (float)i*j / NX.
    for (size_t i = 0; i < n; ++i) {
      p_[i] = r_[i] = float(double(i) * M_PI);
      for (size_t j = 0; j < n; ++j) a_[i * n + j] = float(i) * float(j) / float(n);
    }
  }
  void run(Launcher& host) override {
    const int64_t N = n_;  // NX = NY
    KernelLaunch k1;
    k1.name = "bicg_kernel1";
    k1.block = {256, 1, 1};
    k1.grid = {grid_of(n_, 256), 1, 1};
    k1.regs_per_thread = kRegs;
    k1.body = [this, N](Warp& w) {
      const Int j = w.global_x();
      w.compute(kGapEntry1);
      w.if_(j < N, [&] {
        Float s = 0.0f;
        w.store(0x10, s_, j, s);
        w.for_(0, N, 1, [&](const Int& i) {
          w.compute(kGapFirst);
          const Float r = w.load(0x20, r_, i);
          w.compute(kGapSecond);
          const Float a = w.load(0x30, a_, i * N + j);
          s = polybench::accumulate(s, r * a);
          w.compute(kGapSum);
          w.store(0x40, s_, j, s);
        });
      });
    };
    host.launch(std::move(k1));

    KernelLaunch k2;
    k2.name = "bicg_kernel2";
    k2.block = {256, 1, 1};
    k2.grid = {grid_of(n_, 256), 1, 1};
    k2.regs_per_thread = kRegs;
    k2.body = [this, N](Warp& w) {
      const Int i = w.global_x();
      w.compute(kGapEntry2);
      w.if_(i < N, [&] {
        Float q = 0.0f;
        w.store(0x50, q_, i, q);
        w.for_(0, N, 1, [&](const Int& j) {
          w.compute(kGapFirst);
          const Float a = w.load(0x60, a_, i * N + j);
          w.compute(kGapSecond);
          const Float p = w.load(0x70, p_, j);
          q = polybench::accumulate(q, a * p);
          w.compute(kGapSum);
          w.store(0x80, q_, i, q);
        });
      });
    };
    host.launch(std::move(k2));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> s(n, 0.0f), q(n, 0.0f);
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < n; ++i) s[j] = s[j] + r_[i] * a_[i * n + j];
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) q[i] = q[i] + a_[i * n + j] * p_[j];
    std::string e = polybench::compare("s", s_, s);
    return e.empty() ? polybench::compare("q", q_, q) : e;
  }

 private:
  uint32_t n_;
  DeviceArray<float> a_, r_, s_, p_, q_;
};

}  // namespace

void register_polybench_bicg(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/bicg";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/bicg/bicg.cu";
  p.input = "n = 4096 (NX = NY; PolyBench STANDARD_DATASET, A 64 MiB): 3.15 M warp instructions, unscaled";
  p.papers = polybench::kPapers;
  p.kernels = "bicg_kernel1, bicg_kernel2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Bicg>(uint32_t(s.get_uint("n", 4096, 1, 16384)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
