// PolyBench 2MM, D = alpha A B C + beta D (all n x n floats): mm2_kernel1 (tmp = alpha A B) and mm2_kernel2
// (D = beta D + tmp C), one thread per output element, CTAs of 32 x 8 threads. As compiled, kernel 1 stores
// 0 to tmp[i][j] and kernel 2 loads, scales and stores D[i][j]; then per k each loads a row element (one
// word per warp) and a column element (one line per warp) and stores the running sum.
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry1 = 28,
                   kGapEntry2 = 27;             // index arithmetic and bounds test before the first access
constexpr uint32_t kGapScale = 1;               // D *= beta
constexpr uint32_t kGapRow1 = 2, kGapCol1 = 1;  // kernel 1's loop, unrolled 4x: 16 non-memory PTX / 4
constexpr uint32_t kGapRow2 = 2, kGapCol2 = 0;  // kernel 2's: 12 / 4
constexpr uint32_t kGapSum = 1;                 // the multiply-add before the store
constexpr uint32_t kRegs = 24;                  // ptxas -v, sm_75, both kernels

class Mm2 : public KernelPort {
 public:
  explicit Mm2(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    tmp_ = mem.alloc<float>("tmp", n * n);
    a_ = mem.alloc<float>("A", n * n);
    b_ = mem.alloc<float>("B", n * n);
    c_ = mem.alloc<float>("C", n * n);
    d_ = mem.alloc<float>("D", n * n);
    // init_array() (NI = NJ = NK = NL = n).
    const float fn = float(n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        a_[i * n + j] = float(i) * float(j) / fn;
        b_[i * n + j] = float(i) * float(j + 1) / fn;
        c_[i * n + j] = float(i) * float(j + 3) / fn;
        d_[i * n + j] = float(i) * float(j + 2) / fn;
      }
    d0_ = d_.host();
  }
  void run(Launcher& host) override {
    const int64_t N = n_;
    KernelLaunch k1;
    k1.name = "mm2_kernel1";
    k1.block = {32, 8, 1};
    k1.grid = {grid_of(n_, 32), grid_of(n_, 8), 1};
    k1.regs_per_thread = kRegs;
    k1.body = [this, N](Warp& w) {
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapEntry1);
      w.if_(i < N && j < N, [&] {
        Float t = 0.0f;
        w.store(0x10, tmp_, i * N + j, t);
        w.for_(0, N, 1, [&](const Int& k) {
          w.compute(kGapRow1);
          const Float a = w.load(0x20, a_, i * N + k);
          w.compute(kGapCol1);
          const Float b = w.load(0x30, b_, k * N + j);
          t = polybench::accumulate(t, kAlpha * a * b);
          w.compute(kGapSum);
          w.store(0x40, tmp_, i * N + j, t);
        });
      });
    };
    host.launch(std::move(k1));

    KernelLaunch k2;
    k2.name = "mm2_kernel2";
    k2.block = {32, 8, 1};
    k2.grid = {grid_of(n_, 32), grid_of(n_, 8), 1};
    k2.regs_per_thread = kRegs;
    k2.body = [this, N](Warp& w) {
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapEntry2);
      w.if_(i < N && j < N, [&] {
        Float d = w.load(0x50, d_, i * N + j) * kBeta;
        w.compute(kGapScale);
        w.store(0x60, d_, i * N + j, d);
        w.for_(0, N, 1, [&](const Int& k) {
          w.compute(kGapRow2);
          const Float t = w.load(0x70, tmp_, i * N + k);
          w.compute(kGapCol2);
          const Float c = w.load(0x80, c_, k * N + j);
          d = polybench::accumulate(d, t * c);
          w.compute(kGapSum);
          w.store(0x90, d_, i * N + j, d);
        });
      });
    };
    host.launch(std::move(k2));
  }
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> tmp(n * n), d = d0_;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        float t = 0.0f;
        for (size_t k = 0; k < n; ++k) t = t + kAlpha * a_[i * n + k] * b_[k * n + j];
        tmp[i * n + j] = t;
      }
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        float v = d[i * n + j] * kBeta;
        for (size_t k = 0; k < n; ++k) v = v + tmp[i * n + k] * c_[k * n + j];
        d[i * n + j] = v;
      }
    std::string e = polybench::compare("tmp", tmp_, tmp);
    return e.empty() ? polybench::compare("D", d_, d) : e;
  }

 private:
  static constexpr float kAlpha = 32412, kBeta = 2123;  // init_array()'s
  uint32_t n_;
  DeviceArray<float> tmp_, a_, b_, c_, d_;
  std::vector<float> d0_;
};

}  // namespace

void register_polybench_2mm(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/2mm";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/2mm/2mm.cu";
  p.input =
      "n = 256 (NI = NJ = NK = NL; PolyBench MINI_DATASET, 1.25 MiB). The STANDARD 1024 (20 MiB) makes 200 M "
      "warp instructions, SMALL 512 25 M; 256 makes 3.15 M, footprint 1.7x the fermi LLC (768 KiB)";
  p.papers = polybench::kPapers;
  p.kernels = "mm2_kernel1, mm2_kernel2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Mm2>(uint32_t(s.get_uint("n", 256, 1, 8192)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
