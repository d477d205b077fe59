// Rodinia 3.1 gaussian (Gaussian elimination, CUDA): forward elimination of an n x n system, one step per
// pivot t = 0 .. n-2, each step two launches: Fan1 (the multipliers m[i][t] = a[i][t] / a[t][t] of the rows
// below the pivot, 1-D blocks of 512 threads) and Fan2 (a[i][j] -= m[i][t] * a[t][j] for the rows below and
// the columns from the pivot on, and b[i] -= m[i][t] * b[t] by the threads of column t; 4 x 4 blocks over a
// ceil(n/4) x ceil(n/4) grid, the whole grid every step). Back substitution runs on the host after the
// kernels (not part of the stream); check() compares m, a and b after the elimination.
#include <cmath>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

constexpr uint32_t kMaxBlock = 512;  // MAXBLOCKSIZE
constexpr uint32_t kBlockXY = 4;     // BLOCK_SIZE_XY

// ptxas -v (nvcc 13.0, -arch=sm_75; sm_70 is no longer supported): registers per thread (no shared memory).
constexpr uint32_t kRegsFan1 = 15, kRegsFan2 = 16;
// PTX instructions (nvcc --ptx -arch=sm_75) before each global access on the path taken. The PTX loads the
// pivot before a[i][t] in Fan1, and m, the pivot row, then a[i][j] in Fan2 (m, b[t], b[i] for b): the
// port emits them in that order.
constexpr uint32_t kGapFan1Pivot = 27, kGapFan1A = 0, kGapFan1Store = 2;
constexpr uint32_t kGapFan2M = 32, kGapFan2Row = 0, kGapFan2A = 5, kGapFan2Store = 1;
constexpr uint32_t kGapFan2BM = 7, kGapFan2Bt = 0, kGapFan2B = 3, kGapFan2BStore = 1;

class Gaussian : public KernelPort {
 public:
  explicit Gaussian(int64_t n) : n_(n) {}

  void setup(DeviceMemory& mem) override {
    const size_t nn = size_t(n_ * n_);
    m_ = mem.alloc<float>("m_cuda", nn, 0.0f);  // InitPerRun: m = 0
    a_ = mem.alloc<float>("a_cuda", nn);
    b_ = mem.alloc<float>("b_cuda", size_t(n_), 1.0f);  // -s: b = 1
    // create_matrix (-s): a[i][j] = coe[n-1-i+j], coe[n-1 +- i] = 10 * exp(-0.01 * i): a symmetric Toeplitz
    // matrix.
    std::vector<float> coe(size_t(2 * n_ - 1));
    const float lamda = -0.01f;
    for (int64_t i = 0; i < n_; ++i) {
      const float c = float(10 * std::exp(lamda * float(i)));
      coe[size_t(n_ - 1 + i)] = c;
      coe[size_t(n_ - 1 - i)] = c;
    }
    for (int64_t i = 0; i < n_; ++i)
      for (int64_t j = 0; j < n_; ++j) a_[size_t(i * n_ + j)] = coe[size_t(n_ - 1 - i + j)];
    a0_ = a_.host();
  }

  void run(Launcher& host) override {
    const uint32_t grid1 = uint32_t((n_ + kMaxBlock - 1) / kMaxBlock);
    const uint32_t grid2 = uint32_t((n_ + kBlockXY - 1) / kBlockXY);
    for (int64_t t = 0; t < n_ - 1; ++t) {
      KernelLaunch f1;
      f1.name = "Fan1";
      f1.grid = {grid1, 1, 1};
      f1.block = {kMaxBlock, 1, 1};
      f1.regs_per_thread = kRegsFan1;
      f1.body = [this, t](Warp& w) {
        const int64_t S = n_;
        const Int x = w.global_x();
        w.return_if(x >= S - 1 - t);
        w.compute(kGapFan1Pivot);
        const Float pivot = w.load(0x10, a_, S * t + t);
        w.compute(kGapFan1A);
        const Float ait = w.load(0x20, a_, S * (x + t + 1) + t);
        w.compute(kGapFan1Store);
        w.store(0x30, m_, S * (x + t + 1) + t, ait / pivot);
      };
      host.launch(std::move(f1));

      KernelLaunch f2;
      f2.name = "Fan2";
      f2.grid = {grid2, grid2, 1};
      f2.block = {kBlockXY, kBlockXY, 1};
      f2.regs_per_thread = kRegsFan2;
      f2.body = [this, t](Warp& w) {
        const int64_t S = n_;
        const Int xidx = w.global_x(), yidx = w.global_y();
        w.return_if(xidx >= S - 1 - t);
        w.return_if(yidx >= S - t);
        w.compute(kGapFan2M);
        const Float mit = w.load(0x40, m_, S * (xidx + 1 + t) + t);
        w.compute(kGapFan2Row);
        const Float atj = w.load(0x50, a_, S * t + (yidx + t));
        w.compute(kGapFan2A);
        const Int ij = S * (xidx + 1 + t) + (yidx + t);
        const Float aij = w.load(0x60, a_, ij);
        w.compute(kGapFan2Store);
        w.store(0x70, a_, ij, aij - mit * atj);
        w.if_(yidx == 0, [&] {
          w.compute(kGapFan2BM);
          const Float m = w.load(0x80, m_, S * (xidx + 1 + t) + (yidx + t));
          w.compute(kGapFan2Bt);
          const Float bt = w.load(0x90, b_, Int(t));
          w.compute(kGapFan2B);
          const Float bi = w.load(0xa0, b_, xidx + 1 + t);
          w.compute(kGapFan2BStore);
          w.store(0xb0, b_, xidx + 1 + t, bi - m * bt);
        });
      };
      host.launch(std::move(f2));
    }
  }

  std::string check() const override {
    const size_t N = size_t(n_);
    std::vector<float> a = a0_, m(N * N, 0.0f), b(N, 1.0f);
    for (size_t t = 0; t + 1 < N; ++t) {
      for (size_t i = t + 1; i < N; ++i) m[i * N + t] = a[i * N + t] / a[t * N + t];
      for (size_t i = t + 1; i < N; ++i) {
        for (size_t j = t; j < N; ++j) a[i * N + j] -= m[i * N + t] * a[t * N + j];
        b[i] -= m[i * N + t] * b[t];
      }
    }
    auto cmp = [](const char* what, const std::vector<float>& want, const DeviceArray<float>& got) {
      for (size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i])
          return std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
                 ", expected " + std::to_string(want[i]);
      return std::string();
    };
    std::string e = cmp("m", m, m_);
    if (e.empty()) e = cmp("a", a, a_);
    if (e.empty()) e = cmp("b", b, b_);
    return e;
  }

 private:
  int64_t n_;
  std::vector<float> a0_;
  DeviceArray<float> m_, a_, b_;
};

}  // namespace

void register_rodinia_gaussian(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/gaussian";
  p.suite = "Rodinia 3.1";
  p.source = "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/gaussian/gaussian.cu @ 9c10d3e";
  p.input =
      "the benchmark's -s generator (create_matrix: a 10*exp(-0.01|i-j|) Toeplitz matrix, b = 1); Rodinia's "
      "run uses -s 16 or matrix4.txt, far too small to load a cache; default here n = 256 (two 256 KiB "
      "matrices, 16x the fermi L1 and 2/3 of its LLC; 510 launches, 1.46 M warp memory instructions: "
      "the work grows as n^3, so n = 512 would be 8x that)";
  p.papers = "TSC/TSC+ (000), Decoupled L1D (002, GS)";
  p.kernels = "Fan1, Fan2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t n = s.get_uint("n", 256, 2, 4096);
    return std::make_unique<Gaussian>(int64_t(n));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
