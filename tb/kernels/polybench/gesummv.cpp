// PolyBench GESUMMV, y = alpha A x + beta B x (A, B: n x n floats): gesummv_kernel, a thread per row, CTAs of
// 256 threads. As compiled (tmp and y may alias), each step loads A[i][j], x[j], tmp[i], stores tmp[i],
// loads B[i][j], x[j], y[i] and stores y[i]; after the loop it loads tmp[i] and y[i] and stores y[i].
// tmp and y are not initialised by the benchmark (fresh cudaMalloc memory, zero in practice): zero here.
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry = 38;  // index arithmetic, bounds and trip-count tests before the first load
constexpr uint32_t kGapRow = 1;     // before each of A's and B's loads (loop unrolled 4x: 15 non-memory PTX
constexpr uint32_t kGapSum = 1;     // per 4 iterations), and the multiply-add before each store
constexpr uint32_t kGapFinal = 2;   // alpha * tmp + beta * y
constexpr uint32_t kRegs = 22;      // ptxas -v, sm_75

class Gesummv : public KernelPort {
 public:
  explicit Gesummv(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("A", n * n);
    b_ = mem.alloc<float>("B", n * n);
    x_ = mem.alloc<float>("x", n);
    y_ = mem.alloc<float>("y", n);
    tmp_ = mem.alloc<float>("tmp", n);
    // init(): x[i] = (float)i / N, A[i][j] = B[i][j] = (float)i*j / N.
    for (size_t i = 0; i < n; ++i) {
      x_[i] = float(i) / float(n);
      for (size_t j = 0; j < n; ++j) a_[i * n + j] = b_[i * n + j] = float(i) * float(j) / float(n);
    }
  }
  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "gesummv_kernel";
    k.block = {256, 1, 1};
    k.grid = {grid_of(n_, 256), 1, 1};
    k.regs_per_thread = kRegs;
    k.body = [this](Warp& w) {
      const int64_t N = n_;
      const Int i = w.global_x();
      w.compute(kGapEntry);
      w.if_(i < N, [&] {
        w.for_(0, N, 1, [&](const Int& j) {
          w.compute(kGapRow);
          const Float a = w.load(0x10, a_, i * N + j);
          const Float x = w.load(0x20, x_, j);
          const Float t = w.load(0x30, tmp_, i);
          w.compute(kGapSum);
          w.store(0x40, tmp_, i, t + a * x);
          w.compute(kGapRow);
          const Float b = w.load(0x50, b_, i * N + j);
          const Float x2 = w.load(0x60, x_, j);
          const Float y = w.load(0x70, y_, i);
          w.compute(kGapSum);
          w.store(0x80, y_, i, y + b * x2);
        });
        const Float t = w.load(0x90, tmp_, i);
        const Float y = w.load(0xa0, y_, i);
        w.compute(kGapFinal);
        w.store(0xb0, y_, i, kAlpha * t + kBeta * y);
      });
    };
    host.launch(std::move(k));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> tmp(n, 0.0f), y(n, 0.0f);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) {
        tmp[i] = tmp[i] + a_[i * n + j] * x_[j];
        y[i] = y[i] + b_[i * n + j] * x_[j];
      }
      y[i] = kAlpha * tmp[i] + kBeta * y[i];
    }
    std::string e = polybench::compare("tmp", tmp_, tmp);
    return e.empty() ? polybench::compare("y", y_, y) : e;
  }

 private:
  static constexpr float kAlpha = 43532, kBeta = 12313;  // init()'s
  uint32_t n_;
  DeviceArray<float> a_, b_, x_, y_, tmp_;
};

}  // namespace

void register_polybench_gesummv(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/gesummv";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/gesummv/gesummv.cu";
  p.input =
      "n = 2048 (PolyBench STANDARD_DATASET is 4096: A and B 64 MiB each, 4.19 M warp instructions and 142 "
      "CPU s on "
      "fermi); at 2048 A and B are 16 MiB each, still 20x the fermi LLC, about 1.05 M instructions";
  p.papers = polybench::kPapers;
  p.kernels = "gesummv_kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Gesummv>(uint32_t(s.get_uint("n", 2048, 1, 16384)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
