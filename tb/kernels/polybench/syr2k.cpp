// PolyBench SYR2K, C = alpha * A * B^T + alpha * B * A^T + beta * C (A, B: ni x nj, C: ni x ni floats):
// syr2k_kernel, one thread per C element, CTAs of 32 x 8 threads. As compiled, the thread loads C[i][j] once,
// scales and stores it, then per k loads A[i][k] and B[i][k] (the same word for a whole warp) and B[j][k] and
// A[j][k] (32 rows: 32 lines per warp) in the order A[i][k], B[j][k], B[i][k], A[j][k], and stores the
// running sum to C[i][j] (kept in a register; the store stays, as the arrays may alias).
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 -O3 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory
// instructions.
constexpr uint32_t kGapEntry = 22;  // index arithmetic and bounds test before the load of C
constexpr uint32_t kGapScale = 1;   // C *= beta
constexpr uint32_t kGapLoad = 1;    // k loop unrolled 8x: 53 non-memory PTX per 8 iterations, 3 of them
constexpr uint32_t kGapSum = 3;     //   the multiplies and adds before each store, the rest ~1 per load
constexpr uint32_t kRegs = 32;      // ptxas -v, sm_75

class Syr2k : public KernelPort {
 public:
  explicit Syr2k(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("A", n * n);
    b_ = mem.alloc<float>("B", n * n);
    c_ = mem.alloc<float>("C", n * n);
    // init_arrays(): A, B and C all (float)i*j / ni.
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        a_[i * n + j] = b_[i * n + j] = c_[i * n + j] = float(i) * float(j) / float(n);
    c0_ = c_.host();
  }
  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "syr2k_kernel";
    k.block = {32, 8, 1};
    k.grid = {grid_of(n_, 32), grid_of(n_, 8), 1};
    k.regs_per_thread = kRegs;
    k.body = [this](Warp& w) {
      const int64_t N = n_;  // NI = NJ
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapEntry);
      w.if_(i < N && j < N, [&] {
        const Int ci = i * N + j;
        Float c = w.load(0x10, c_, ci) * kBeta;
        w.compute(kGapScale);
        w.store(0x20, c_, ci, c);
        w.for_(0, N, 1, [&](const Int& k) {
          w.compute(kGapLoad);
          const Float aik = w.load(0x30, a_, i * N + k);
          w.compute(kGapLoad);
          const Float bjk = w.load(0x40, b_, j * N + k);
          w.compute(kGapLoad);
          const Float bik = w.load(0x50, b_, i * N + k);
          w.compute(kGapLoad);
          const Float ajk = w.load(0x60, a_, j * N + k);
          c = polybench::accumulate(c, kAlpha * aik * bjk + kAlpha * bik * ajk);
          w.compute(kGapSum);
          w.store(0x70, c_, ci, c);
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
        for (size_t k = 0; k < n; ++k)
          c = c + (kAlpha * a_[i * n + k] * b_[j * n + k] + kAlpha * b_[i * n + k] * a_[j * n + k]);
        want[i * n + j] = c;
      }
    return polybench::compare("C", c_, want);
  }

 private:
  static constexpr float kAlpha = 32412, kBeta = 2123;  // init_arrays()'
  uint32_t n_;
  DeviceArray<float> a_, b_, c_;
  std::vector<float> c0_;
};

}  // namespace

void register_polybench_syr2k(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/syr2k";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/syr2k/syr2k.cu";
  p.input =
      "n = 256 (NI = NJ; PolyBench MINI_DATASET, 768 KiB: A, B, C). The STANDARD 1024 (12 MiB) makes 168 M "
      "warp instructions, SMALL 512 21 M; 256 makes 2.63 M, footprint the size of the fermi LLC (768 KiB)";
  p.papers = polybench::kPapers;
  p.kernels = "syr2k_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Syr2k>(uint32_t(s.get_uint("n", 256, 1, 8192)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
