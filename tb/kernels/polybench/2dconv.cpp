// PolyBench 2DCONV, a 3 x 3 convolution of an n x n float image A into B (B's border rows and columns are not
// written): convolution2D_kernel, one thread per element, CTAs of 32 x 8 threads (x along j). An interior
// thread loads its 9 neighbours row by row (i - 1, i, i + 1; j - 1, j, j + 1 in each), as compiled, and
// stores their weighted sum. As in the source, the host sizes the grid's x from NI and its y from NJ (equal
// here).
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"
#include "tb/kernels/rodinia/libc_rand.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 -O3 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory
// instructions.
constexpr uint32_t kGapEntry = 29;  // index arithmetic and the four bounds tests before the first load
constexpr uint32_t kGapLoad[9] = {0, 0, 2, 1, 3, 1, 1, 1, 1};  // before each of the 9 loads (after the first)
constexpr uint32_t kGapStore = 2;                              // the last multiply-adds
constexpr uint32_t kRegs = 24;                                 // ptxas -v, sm_75

// The kernel's weights, in the order its sum uses them (c11, c21, c31, c12, c22, c32, c13, c23, c33).
constexpr float kWeight[9] = {0.2f, 0.5f, -0.8f, -0.3f, 0.6f, -0.9f, 0.4f, 0.7f, 0.10f};

class Conv2d : public KernelPort {
 public:
  explicit Conv2d(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("A", n * n);
    b_ = mem.alloc<float>("B", n * n);
    // init(): A[i][j] = (float)rand() / RAND_MAX, glibc's rand() unseeded (seed 1).
    LibcRand rng(1);
    for (size_t i = 0; i < n * n; ++i) a_[i] = float(rng.rand()) / float(LibcRand::kRandMax);
  }
  void run(Launcher& host) override {
    const int64_t N = n_;  // NI = NJ
    KernelLaunch k;
    k.name = "convolution2D_kernel";
    k.block = {32, 8, 1};
    k.grid = {grid_of(n_, 32), grid_of(n_, 8), 1};
    k.regs_per_thread = kRegs;
    k.body = [this, N](Warp& w) {
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapEntry);
      w.if_(i < N - 1 && j < N - 1 && i > 0 && j > 0, [&] {
        Float sum = 0.0f;
        unsigned t = 0;
        for (int64_t di = -1; di <= 1; ++di)
          for (int64_t dj = -1; dj <= 1; ++dj, ++t) {
            w.compute(kGapLoad[t]);
            const Float a = w.load(0x10 + 0x10 * t, a_, (i + di) * N + (j + dj));
            sum = t == 0 ? kWeight[0] * a : sum + kWeight[t] * a;
          }
        w.compute(kGapStore);
        w.store(0xa0, b_, i * N + j, sum);
      });
    };
    host.launch(std::move(k));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> want(n * n, 0.0f);
    for (size_t i = 1; i + 1 < n; ++i)
      for (size_t j = 1; j + 1 < n; ++j) {
        float sum = 0.0f;
        unsigned t = 0;
        for (size_t ii = i - 1; ii <= i + 1; ++ii)
          for (size_t jj = j - 1; jj <= j + 1; ++jj, ++t)
            sum = t == 0 ? kWeight[0] * a_[ii * n + jj] : sum + kWeight[t] * a_[ii * n + jj];
        want[i * n + j] = sum;
      }
    return polybench::compare("B", b_, want);
  }

 private:
  uint32_t n_;
  DeviceArray<float> a_, b_;
};

}  // namespace

void register_polybench_2dconv(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/2dconv";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/stencils/convolution-2d/2DConvolution.cu";
  p.input =
      "n = 2048 (NI = NJ; PolyBench SMALL_DATASET, A and B 16 MiB each). The STANDARD 4096 (128 MiB) makes "
      "5.2 M warp instructions; 2048 makes 1.3 M and A is still 21x the fermi LLC (768 KiB): a stream with "
      "reuse between neighbouring rows only, as at 4096";
  p.papers = polybench::kPapers;
  p.kernels = "convolution2D_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Conv2d>(uint32_t(s.get_uint("n", 2048, 3, 16384)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
