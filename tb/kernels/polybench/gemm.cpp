// PolyBench GEMM, C = alpha * A * B + beta * C (n x n floats): gemm_kernel, one thread per C element, CTAs of
// 32 x 8 threads. As compiled, the thread loads C[i][j] once, scales and stores it, then per k loads A[i][k]
// (the same word for a whole warp) and B[k][j] (one line per warp) and stores the running sum to C[i][j]
// (the accumulator stays in a register; the store stays, as the arrays may alias).
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry = 28;        // index arithmetic and bounds test before the load of C
constexpr uint32_t kGapScale = 1;         // C *= beta
constexpr uint32_t kGapA = 2, kGapB = 1;  // k loop unrolled 4x: 16 non-memory PTX per 4 iterations
constexpr uint32_t kGapSum = 1;           // the multiply-add before the store
constexpr uint32_t kRegs = 24;            // ptxas -v, sm_75

class Gemm : public KernelPort {
 public:
  explicit Gemm(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("A", n * n);
    b_ = mem.alloc<float>("B", n * n);
    c_ = mem.alloc<float>("C", n * n);
    // init(): every matrix (float)i*j / NI.
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        a_[i * n + j] = b_[i * n + j] = c_[i * n + j] = float(i) * float(j) / float(n);
    c0_ = c_.host();
  }
  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "gemm_kernel";
    k.block = {32, 8, 1};
    k.grid = {grid_of(n_, 32), grid_of(n_, 8), 1};
    k.regs_per_thread = kRegs;
    k.body = [this](Warp& w) {
      const int64_t N = n_;
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapEntry);
      w.if_(i < N && j < N, [&] {
        const Int ci = i * N + j;
        Float c = w.load(0x10, c_, ci) * kBeta;
        w.compute(kGapScale);
        w.store(0x20, c_, ci, c);
        w.for_(0, N, 1, [&](const Int& k) {
          w.compute(kGapA);
          const Float a = w.load(0x30, a_, i * N + k);
          w.compute(kGapB);
          const Float b = w.load(0x40, b_, k * N + j);
          c = polybench::accumulate(c, kAlpha * a * b);
          w.compute(kGapSum);
          w.store(0x50, c_, ci, c);
        });
      });
    };
    host.launch(std::move(k));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> want = c0_;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        float c = want[i * n + j] * kBeta;
        for (size_t k = 0; k < n; ++k) c = c + kAlpha * a_[i * n + k] * b_[k * n + j];
        want[i * n + j] = c;
      }
    return polybench::compare("C", c_, want);
  }

 private:
  static constexpr float kAlpha = 32412, kBeta = 2123;  // init()'s
  uint32_t n_;
  DeviceArray<float> a_, b_, c_;
  std::vector<float> c0_;
};

}  // namespace

void register_polybench_gemm(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/gemm";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/gemm/gemm.cu";
  p.input =
      "n = 256 (NI = NJ = NK; PolyBench SMALL_DATASET, 768 KiB: A, B, C). The STANDARD 512 (3 MiB) makes "
      "12.6 M warp instructions; 256 makes 1.58 M and its footprint is still the fermi LLC's size (768 KiB)";
  p.papers = std::string(polybench::kPapers) + ", H-Xbar LLC (004, GEMM: 1.8 MB of shared LLC data)";
  p.kernels = "gemm_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Gemm>(uint32_t(s.get_uint("n", 256, 1, 8192)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
