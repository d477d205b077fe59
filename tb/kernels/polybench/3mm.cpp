// PolyBench 3MM, G = (A B)(C D) (all n x n floats): mm3_kernel1 (E = A B), mm3_kernel2 (F = C D) and
// mm3_kernel3 (G = E F), one thread per output element, CTAs of 32 x 8 threads. As compiled, a thread stores
// 0 to its element, then per k loads a row element (one word per warp) and a column element (one line per
// warp) and stores the running sum.
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions
// (the same in the three kernels).
constexpr uint32_t kGapEntry = 27;            // index arithmetic and bounds test before the store of 0
constexpr uint32_t kGapRow = 2, kGapCol = 0;  // k loop unrolled 4x: 12 non-memory PTX per 4 iterations
constexpr uint32_t kGapSum = 1;               // the multiply-add before the store
constexpr uint32_t kRegs = 24;                // ptxas -v, sm_75

class Mm3 : public KernelPort {
 public:
  explicit Mm3(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("A", n * n);
    b_ = mem.alloc<float>("B", n * n);
    c_ = mem.alloc<float>("C", n * n);
    d_ = mem.alloc<float>("D", n * n);
    e_ = mem.alloc<float>("E", n * n);
    f_ = mem.alloc<float>("F", n * n);
    g_ = mem.alloc<float>("G", n * n);
    // init_array() (ni = nj = nk = nl = nm = n).
    const float fn = float(n);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        a_[i * n + j] = float(i) * float(j) / fn;
        b_[i * n + j] = float(i) * float(j + 1) / fn;
        c_[i * n + j] = float(i) * float(j + 3) / fn;
        d_[i * n + j] = float(i) * float(j + 2) / fn;
      }
  }
  void run(Launcher& host) override {
    mm(host, "mm3_kernel1", a_, b_, e_, 0x10);
    mm(host, "mm3_kernel2", c_, d_, f_, 0x50);
    mm(host, "mm3_kernel3", e_, f_, g_, 0x90);
  }
  std::string check() const override {
    const size_t n = n_;
    auto mul = [n](const std::vector<float>& x, const std::vector<float>& y) {
      std::vector<float> z(n * n);
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
          float s = 0.0f;
          for (size_t k = 0; k < n; ++k) s = s + x[i * n + k] * y[k * n + j];
          z[i * n + j] = s;
        }
      return z;
    };
    const std::vector<float> e = mul(a_.host(), b_.host()), f = mul(c_.host(), d_.host()), g = mul(e, f);
    std::string err = polybench::compare("E", e_, e);
    if (err.empty()) err = polybench::compare("F", f_, f);
    return err.empty() ? polybench::compare("G", g_, g) : err;
  }

 private:
  // out = x y: the three kernels' common body (each at its own PCs).
  void mm(Launcher& host, const char* name, DeviceArray<float>& x, DeviceArray<float>& y,
          DeviceArray<float>& out, uint32_t pc) {
    const int64_t N = n_;
    KernelLaunch k;
    k.name = name;
    k.block = {32, 8, 1};
    k.grid = {grid_of(n_, 32), grid_of(n_, 8), 1};
    k.regs_per_thread = kRegs;
    k.body = [N, &x, &y, &out, pc](Warp& w) {
      const Int j = w.global_x(), i = w.global_y();
      w.compute(kGapEntry);
      w.if_(i < N && j < N, [&] {
        Float s = 0.0f;
        w.store(pc, out, i * N + j, s);
        w.for_(0, N, 1, [&](const Int& k) {
          w.compute(kGapRow);
          const Float a = w.load(pc + 0x10, x, i * N + k);
          w.compute(kGapCol);
          const Float b = w.load(pc + 0x20, y, k * N + j);
          s = polybench::accumulate(s, a * b);
          w.compute(kGapSum);
          w.store(pc + 0x30, out, i * N + j, s);
        });
      });
    };
    host.launch(std::move(k));
  }

  uint32_t n_;
  DeviceArray<float> a_, b_, c_, d_, e_, f_, g_;
};

}  // namespace

void register_polybench_3mm(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/3mm";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/3mm/3mm.cu";
  p.input =
      "n = 256 (NI = NJ = NK = NL = NM; PolyBench SMALL_DATASET, 1.75 MiB). The STANDARD 512 (7 MiB) makes "
      "37.8 M warp instructions; 256 makes 4.72 M, footprint 2.3x the fermi LLC (768 KiB)";
  p.papers = polybench::kPapers;
  p.kernels = "mm3_kernel1, mm3_kernel2, mm3_kernel3";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Mm3>(uint32_t(s.get_uint("n", 256, 1, 8192)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
