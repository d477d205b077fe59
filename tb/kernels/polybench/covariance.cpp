// PolyBench COVARIANCE (n x n floats, data[i][j]: sample i, variable j): mean_kernel (a thread per column,
// CTAs of 256), reduce_kernel (data -= mean, CTAs of 32 x 8) and covar_kernel (a thread per column j1,
// walking j2 from j1 to the end: the triangle of symmat, CTAs of 256; the warp's lanes start at different
// j2, so the warp runs n - j1 of its first lane's iterations, lanes leaving one by one at the end).
// As in the source, the host sizes the grids with (size_t)(ceil((float)M) / 256.0f) (n a multiple of 256
// here) and reduce_kernel's grid with N / 32 rows of 8-row CTAs: only the first n / 4 rows are centred
// (a bug of the benchmark, kept). As compiled, sums stay in registers and are stored every step.
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapMeanEntry = 17, kGapMeanLoad = 2, kGapMeanSum = 1, kGapMeanDiv = 1;  // 12 per 4 steps
constexpr uint32_t kGapReduceEntry = 25, kGapReduceStore = 1;
constexpr uint32_t kGapCovarEntry = 14;  // to the j2 loop
constexpr uint32_t kGapCovarZero = 5;    // j2 loop top, before symmat[j1][j2] = 0
constexpr uint32_t kGapCovarLoad = 2;    // i loop unrolled 4x: 14 non-memory PTX per 4 steps
constexpr uint32_t kGapCovarSum = 1;
constexpr uint32_t kGapCovarMirror = 4;  // symmat[j2][j1] = ...
constexpr uint32_t kGapCovarNext = 2;
constexpr uint32_t kRegsMean = 20, kRegsReduce = 10, kRegsCovar = 24;  // ptxas -v, sm_75
constexpr float kFloatN = float(3214212.01);                           // (DATA_TYPE)FLOAT_N

class Covariance : public KernelPort {
 public:
  explicit Covariance(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    data_ = mem.alloc<float>("data", n * n);
    symmat_ = mem.alloc<float>("symmat", n * n);
    mean_ = mem.alloc<float>("mean", n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) data_[i * n + j] = float(i) * float(j) / float(n);  // init_arrays()
    data0_ = data_.host();
  }
  void run(Launcher& host) override {
    const int64_t N = n_;
    KernelLaunch k1;
    k1.name = "mean_kernel";
    k1.block = {256, 1, 1};
    k1.grid = {uint32_t(float(n_) / 256.0f), 1, 1};
    k1.regs_per_thread = kRegsMean;
    k1.body = [this, N](Warp& w) {
      const Int j = w.global_x();
      w.compute(kGapMeanEntry);
      w.if_(j < N, [&] {
        Float m = 0.0f;
        w.store(0x10, mean_, j, m);
        w.for_(0, N, 1, [&](const Int& i) {
          w.compute(kGapMeanLoad);
          m = polybench::accumulate(m, w.load(0x20, data_, i * N + j));
          w.compute(kGapMeanSum);
          w.store(0x30, mean_, j, m);
        });
        w.compute(kGapMeanDiv);
        w.store(0x40, mean_, j, m / kFloatN);
      });
    };
    host.launch(std::move(k1));

    KernelLaunch k2;
    k2.name = "reduce_kernel";
    k2.block = {32, 8, 1};
    k2.grid = {uint32_t(float(n_) / 32.0f), uint32_t(float(n_) / 32.0f), 1};
    k2.regs_per_thread = kRegsReduce;
    k2.body = [this, N](Warp& w) {
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapReduceEntry);
      w.if_(i < N && j < N, [&] {
        const Float d = w.load(0x50, data_, i * N + j);
        const Float m = w.load(0x60, mean_, j);
        w.compute(kGapReduceStore);
        w.store(0x70, data_, i * N + j, d - m);
      });
    };
    host.launch(std::move(k2));

    KernelLaunch k3;
    k3.name = "covar_kernel";
    k3.block = {256, 1, 1};
    k3.grid = {uint32_t(float(n_) / 256.0f), 1, 1};
    k3.regs_per_thread = kRegsCovar;
    k3.body = [this, N](Warp& w) {
      const Int j1 = w.global_x();
      w.compute(kGapCovarEntry);
      w.if_(j1 < N, [&] {
        w.for_(j1, N, 1, [&](const Int& j2) {
          Float s = 0.0f;
          w.compute(kGapCovarZero);
          w.store(0x80, symmat_, j1 * N + j2, s);
          w.for_(0, N, 1, [&](const Int& i) {
            w.compute(kGapCovarLoad);
            const Float a = w.load(0x90, data_, i * N + j1);
            const Float b = w.load(0xa0, data_, i * N + j2);
            s = polybench::accumulate(s, a * b);
            w.compute(kGapCovarSum);
            w.store(0xb0, symmat_, j1 * N + j2, s);
          });
          w.compute(kGapCovarMirror);
          w.store(0xc0, symmat_, j2 * N + j1, s);
          w.compute(kGapCovarNext);
        });
      });
    };
    host.launch(std::move(k3));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> data = data0_, mean(n), symmat(n * n, 0.0f);
    for (size_t j = 0; j < n; ++j) {
      float m = 0.0f;
      for (size_t i = 0; i < n; ++i) m = m + data[i * n + j];
      mean[j] = m / kFloatN;
    }
    const size_t rows = size_t(float(n) / 32.0f) * 8;  // the rows reduce_kernel's grid covers
    for (size_t i = 0; i < rows && i < n; ++i)
      for (size_t j = 0; j < n; ++j) data[i * n + j] = data[i * n + j] - mean[j];
    for (size_t j1 = 0; j1 < n; ++j1)
      for (size_t j2 = j1; j2 < n; ++j2) {
        float s = 0.0f;
        for (size_t i = 0; i < n; ++i) s = s + data[i * n + j1] * data[i * n + j2];
        symmat[j1 * n + j2] = symmat[j2 * n + j1] = s;
      }
    std::string e = polybench::compare("mean", mean_, mean);
    if (e.empty()) e = polybench::compare("data", data_, data);
    return e.empty() ? polybench::compare("symmat", symmat_, symmat) : e;
  }

 private:
  uint32_t n_;
  DeviceArray<float> data_, symmat_, mean_;
  std::vector<float> data0_;
};

}  // namespace

void register_polybench_covariance(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/covariance";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/datamining/covariance/covariance.cu";
  p.input =
      "n = 256 (M = N; 512 KiB: data, symmat). covar_kernel's triangle makes the STANDARD 2048 409 M warp "
      "instructions and MINI_DATASET 512 6.7 M; 256 makes 0.9 M (n is rounded down to a multiple of 256, "
      "as the host's grids truncate n / 256)";
  p.papers = polybench::kPapers;
  p.kernels = "mean_kernel, reduce_kernel, covar_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Covariance>(uint32_t(s.get_uint("n", 256, 256, 8192) / 256 * 256));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
