// PolyBench MVT, x1 += A y1 and x2 += A^T y2 (A: n x n floats): mvt_kernel1 (a thread per row) and
// mvt_kernel2 (a thread per column). The host launches CTAs of 32 x 8 threads on a grid sized by blockDim.x
// alone and the kernels index by blockIdx.x * blockDim.x + threadIdx.x, so the 8 warps of a CTA work on the
// same 32 elements. As compiled, a thread loads x[i] once, then per step loads A and y and stores the
// running sum to x[i]: each warp adds its sum to what it loaded, so the result depends on how the 8 warps
// interleave (a race in the benchmark). Run warp after warp (run_functionally) each adds the whole sum.
#include "tb/kernels/polybench/pb_common.h"
#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

using polybench::grid_of;

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry1 = 23,
                   kGapEntry2 = 24;       // index arithmetic and bounds tests before the load of x
constexpr uint32_t kGapA = 2, kGapY = 0;  // loops unrolled 4x: 10 non-memory PTX per 4 iterations
constexpr uint32_t kGapSum = 1;           // the multiply-add before the store
constexpr uint32_t kRegs = 20;            // ptxas -v, sm_75, both kernels

class Mvt : public KernelPort {
 public:
  explicit Mvt(uint32_t n) : n_(n) {}
  void setup(DeviceMemory& mem) override {
    const size_t n = n_;
    a_ = mem.alloc<float>("a", n * n);
    x1_ = mem.alloc<float>("x1", n);
    x2_ = mem.alloc<float>("x2", n);
    y1_ = mem.alloc<float>("y_1", n);
    y2_ = mem.alloc<float>("y_2", n);
    // init_array().
    const float fn = float(n);
    for (size_t i = 0; i < n; ++i) {
      x1_[i] = float(i) / fn;
      x2_[i] = (float(i) + 1) / fn;
      y1_[i] = (float(i) + 3) / fn;
      y2_[i] = (float(i) + 4) / fn;
      for (size_t j = 0; j < n; ++j) a_[i * n + j] = float(i) * float(j) / fn;
    }
    x10_ = x1_.host();
    x20_ = x2_.host();
  }
  void run(Launcher& host) override {
    const int64_t N = n_;
    // One kernel body for both: row-wise (A[i][j]) or column-wise (A[j][i]).
    auto launch = [&](const char* name, bool transposed, DeviceArray<float>& x, DeviceArray<float>& y,
                      uint32_t pc) {
      KernelLaunch k;
      k.name = name;
      k.block = {32, 8, 1};
      k.grid = {grid_of(n_, 32), 1, 1};
      k.regs_per_thread = kRegs;
      k.body = [this, N, transposed, &x, &y, pc](Warp& w) {
        const Int i = w.global_x();
        w.compute(transposed ? kGapEntry2 : kGapEntry1);
        w.if_(i < N, [&] {
          Float s = w.load(pc, x, i);
          w.for_(0, N, 1, [&](const Int& j) {
            w.compute(kGapA);
            const Float a = w.load(pc + 0x10, a_, transposed ? j * N + i : i * N + j);
            w.compute(kGapY);
            const Float yv = w.load(pc + 0x20, y, j);
            s = polybench::accumulate(s, a * yv);
            w.compute(kGapSum);
            w.store(pc + 0x30, x, i, s);
          });
        });
      };
      host.launch(std::move(k));
    };
    launch("mvt_kernel1", false, x1_, y1_, 0x10);
    launch("mvt_kernel2", true, x2_, y2_, 0x50);
  }
  // Warp after warp, x[i] gets its sum added once per warp of the CTA (8 times).
  std::string check() const override {
    const size_t n = n_;
    std::vector<float> x1 = x10_, x2 = x20_;
    for (int rep = 0; rep < 8; ++rep)
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
          x1[i] = x1[i] + a_[i * n + j] * y1_[j];
          x2[i] = x2[i] + a_[j * n + i] * y2_[j];
        }
    std::string e = polybench::compare("x1", x1_, x1);
    return e.empty() ? polybench::compare("x2", x2_, x2) : e;
  }

 private:
  uint32_t n_;
  DeviceArray<float> a_, x1_, x2_, y1_, y2_;
  std::vector<float> x10_, x20_;
};

}  // namespace

void register_polybench_mvt(PortRegistry& r) {
  PortInfo p;
  p.name = "polybench/mvt";
  p.suite = polybench::kSuite;
  p.source = std::string(polybench::kRepo) + "CUDA/linear-algebra/kernels/mvt/mvt.cu";
  p.input =
      "n = 1024 (PolyBench MINI_DATASET, A 4 MiB). The STANDARD 4096 (64 MiB) makes 25 M warp instructions "
      "(each element computed by 8 warps), SMALL 2048 6.3 M; 1024 makes 1.57 M and A is still 5x the fermi "
      "LLC (768 KiB)";
  p.papers = polybench::kPapers;
  p.kernels = "mvt_kernel1, mvt_kernel2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    return std::make_unique<Mvt>(uint32_t(s.get_uint("n", 1024, 1, 16384)));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
