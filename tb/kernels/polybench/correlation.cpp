// PolyBench CORRELATION (n x n floats, data[i][j]: sample i, variable j): mean_kernel and std_kernel (a
// thread per column, CTAs of 256), reduce_kernel (centre and scale every element, CTAs of 32 x 8) and
// corr_kernel (a thread per column j1 < n - 1, walking j2 from j1 + 1 to the end: the triangle of symmat;
// the warp's lanes start at different j2). As compiled, sums stay in registers and are stored every step;
// std_kernel reloads mean[j] every step (std may alias it). The host sizes the column grids with
// (size_t)(ceil((float)M) / 256.0f): n a multiple of 256 here.
#include <cmath>

#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapMeanEntry = 17, kGapMeanLoad = 2, kGapMeanSum = 1, kGapMeanDiv = 1;  // 12 per 4 steps
constexpr uint32_t kGapStdEntry = 19, kGapStdLoad = 2, kGapStdSum = 2, kGapStdRoot = 3, kGapStdEps = 2;
constexpr uint32_t kGapReduceEntry = 26, kGapReduceSub = 1, kGapReduceStd = 2, kGapReduceDiv = 2;
constexpr uint32_t kGapCorrEntry = 18;  // before symmat[j1][j1] = 1
constexpr uint32_t kGapCorrZero = 5;    // j2 loop top, before symmat[j1][j2] = 0
constexpr uint32_t kGapCorrLoad = 2;    // i loop unrolled 4x: 14 non-memory PTX per 4 steps
constexpr uint32_t kGapCorrSum = 1;
constexpr uint32_t kGapCorrMirror = 4;
constexpr uint32_t kGapCorrNext = 2;
constexpr uint32_t kRegsMean = 20, kRegsStd = 20, kRegsReduce = 16, kRegsCorr = 24;  // ptxas -v, sm_75
constexpr float kFloatN = 3214212.01f, kEps = 0.005f;

class Correlation : public KernelPort {
 public:
  explicit Correlation(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    data_ = mem.alloc<float>("data", n * n);
    symmat_ = mem.alloc<float>("symmat", n * n);
    std_ = mem.alloc<float>("stddev", n);
    mean_ = mem.alloc<float>("mean", n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) data_[i * n + j] = float(i) * float(j) / float(n);  // init_arrays()
    data0_ = data_.host();
  }
  void run(Launcher& host) override {
    const int64_t N = n_;
    const uint32_t col_grid = uint32_t(float(n_) / 256.0f);
    KernelLaunch k1;
    k1.name = "mean_kernel";
    k1.block = {256, 1, 1};
    k1.grid = {col_grid, 1, 1};
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
    k2.name = "std_kernel";
    k2.block = {256, 1, 1};
    k2.grid = {col_grid, 1, 1};
    k2.regs_per_thread = kRegsStd;
    k2.body = [this, N](Warp& w) {
      const Int j = w.global_x();
      w.compute(kGapStdEntry);
      w.if_(j < N, [&] {
        Float s = 0.0f;
        w.store(0x50, std_, j, s);
        w.for_(0, N, 1, [&](const Int& i) {
          w.compute(kGapStdLoad);
          const Float d = w.load(0x60, data_, i * N + j);
          const Float m = w.load(0x70, mean_, j);
          s = polybench::accumulate(s, (d - m) * (d - m));
          w.compute(kGapStdSum);
          w.store(0x80, std_, j, s);
        });
        const Float root = map(s / kFloatN, [](float x) { return std::sqrt(x); });
        w.compute(kGapStdRoot);
        w.store(0x90, std_, j, root);
        w.compute(kGapStdEps);
        w.if_(root <= kEps, [&] { w.store(0xa0, std_, j, 1.0f); });
      });
    };
    host.launch(std::move(k2));

    KernelLaunch k3;
    k3.name = "reduce_kernel";
    k3.block = {32, 8, 1};
    k3.grid = {uint32_t(float(n_) / 32.0f), uint32_t(float(n_) / 8.0f), 1};
    k3.regs_per_thread = kRegsReduce;
    k3.body = [this, N](Warp& w) {
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapReduceEntry);
      w.if_(i < N && j < N, [&] {
        const Float d = w.load(0xb0, data_, i * N + j);
        const Float m = w.load(0xc0, mean_, j);
        const Float centred = d - m;
        w.compute(kGapReduceSub);
        w.store(0xd0, data_, i * N + j, centred);
        w.compute(kGapReduceStd);
        const Float sd = w.load(0xe0, std_, j);
        w.compute(kGapReduceDiv);
        w.store(0xf0, data_, i * N + j, centred / (std::sqrt(kFloatN) * sd));
      });
    };
    host.launch(std::move(k3));

    KernelLaunch k4;
    k4.name = "corr_kernel";
    k4.block = {256, 1, 1};
    k4.grid = {col_grid, 1, 1};
    k4.regs_per_thread = kRegsCorr;
    k4.body = [this, N](Warp& w) {
      const Int j1 = w.global_x();
      w.compute(kGapCorrEntry);
      w.if_(j1 < N - 1, [&] {
        w.store(0x100, symmat_, j1 * N + j1, 1.0f);
        w.for_(j1 + 1, N, 1, [&](const Int& j2) {
          Float s = 0.0f;
          w.compute(kGapCorrZero);
          w.store(0x110, symmat_, j1 * N + j2, s);
          w.for_(0, N, 1, [&](const Int& i) {
            w.compute(kGapCorrLoad);
            const Float a = w.load(0x120, data_, i * N + j1);
            const Float b = w.load(0x130, data_, i * N + j2);
            s = polybench::accumulate(s, a * b);
            w.compute(kGapCorrSum);
            w.store(0x140, symmat_, j1 * N + j2, s);
          });
          w.compute(kGapCorrMirror);
          w.store(0x150, symmat_, j2 * N + j1, s);
          w.compute(kGapCorrNext);
        });
      });
    };
    host.launch(std::move(k4));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> data = data0_, mean(n), sd(n), symmat(n * n, 0.0f);
    for (size_t j = 0; j < n; ++j) {
      float m = 0.0f, s = 0.0f;
      for (size_t i = 0; i < n; ++i) m = m + data[i * n + j];
      mean[j] = m / kFloatN;
      for (size_t i = 0; i < n; ++i) s = s + (data[i * n + j] - mean[j]) * (data[i * n + j] - mean[j]);
      sd[j] = std::sqrt(s / kFloatN);
      if (sd[j] <= kEps) sd[j] = 1.0f;
    }
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        data[i * n + j] = (data[i * n + j] - mean[j]) / (std::sqrt(kFloatN) * sd[j]);
    for (size_t j1 = 0; j1 + 1 < n; ++j1) {
      symmat[j1 * n + j1] = 1.0f;
      for (size_t j2 = j1 + 1; j2 < n; ++j2) {
        float s = 0.0f;
        for (size_t i = 0; i < n; ++i) s = s + data[i * n + j1] * data[i * n + j2];
        symmat[j1 * n + j2] = symmat[j2 * n + j1] = s;
      }
    }
    std::string e = polybench::compare("stddev", std_, sd);
    if (e.empty()) e = polybench::compare("data", data_, data);
    return e.empty() ? polybench::compare("symmat", symmat_, symmat) : e;
  }

 private:
  uint32_t n_;
  DeviceArray<float> data_, symmat_, std_, mean_;
  std::vector<float> data0_;
};

}  // namespace

void register_polybench_correlation(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/correlation";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/datamining/correlation/correlation.cu";
  p.input =
      "n = 256 (M = N; 512 KiB: data, symmat). corr_kernel's triangle makes the STANDARD 2048 409 M warp "
      "instructions and MINI_DATASET 512 6.7 M; 256 makes 0.9 M (n is rounded down to a multiple of 256, "
      "as the host's grids truncate n / 256)";
  p.papers = polybench::kPapers;
  p.kernels = "mean_kernel, std_kernel, reduce_kernel, corr_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Correlation>(uint32_t(s.get_uint("n", 256, 256, 8192) / 256 * 256));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
