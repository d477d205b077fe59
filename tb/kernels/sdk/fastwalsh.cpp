// CUDA SDK fastWalshTransform: dyadic convolution of a data vector with a short kernel vector through the
// Fast Walsh Transform: FWT(data), FWT(kernel padded with zeros), pointwise product scaled by 1/N
// (modulateKernel), FWT(product). Each FWT (fwtBatchGPU) runs in-place radix-4 passes over global memory
// (fwtBatch2Kernel, CTAs of 256 threads, four loads and four stores a thread, strides N/4, N/16, ... while
// the vectors are longer than 2^11), then fwtBatch1Kernel transforms each 2^11 (or 2^10) block in shared
// memory (radix-4 stages, one radix-2 stage for an odd log2, CTAs of N/4 threads). The result is compared
// with a direct dyadic convolution computed in double, by the sample's criterion: relative L2 error < 1e-6.
#include <cmath>
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions
// and barriers (shared-memory accesses add one each, in the machinery).
// fwtBatch1Kernel:
constexpr uint32_t k1Entry = 14;                      // before the load loop
constexpr uint32_t k1Load = 4, k1LoadTail = 3;        // a load iteration (besides the load and st.shared)
constexpr uint32_t k1FirstSync = 10, k1NextSync = 9;  // before each radix-4 stage's barrier
constexpr uint32_t k1Stage = 14;                      // a radix-4 stage besides its 8 shared accesses
constexpr uint32_t k1Radix2Sync = 8, k1Radix2 = 5,
                   k1Radix2Iter = 1;  // the odd stage (ld/st.shared.v2 as 2 each)
constexpr uint32_t k1LastSync = 3;
constexpr uint32_t k1Store = 2,
                   k1StoreTail = 3;  // a store iteration: before it (after the shared load), after
constexpr uint32_t k1Regs = 15;      // ptxas -v, sm_75; shared memory: N floats, dynamic
// fwtBatch2Kernel:
constexpr uint32_t k2Entry = 24, k2Load[4] = {0, 2, 1, 1}, k2Store[4] = {6, 2, 2, 2};
constexpr uint32_t k2Regs = 22;
// modulateKernel (4x unrolled loop: its overhead spread over the iterations):
constexpr uint32_t kMEntry = 22, kMB = 3, kMA = 2, kMStore = 1;
constexpr uint32_t kMRegs = 22;

constexpr int kElementaryLog2 = 11;
constexpr uint32_t kThreads = 256;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The radix-4 butterfly of both kernels: (D0, D1, D2, D3) -> the four outputs in store order.
struct Quad {
  Float o0, o1, o2, o3;
};
Quad butterfly(const Float& d0_in, const Float& d1_in, const Float& d2_in, const Float& d3_in) {
  const Float d0 = d0_in + d2_in, d2 = d0_in - d2_in;
  const Float d1 = d1_in + d3_in, d3 = d1_in - d3_in;
  return {d0 + d1, d0 - d1, d2 + d3, d2 - d3};
}

class FastWalsh : public KernelPort {
 public:
  FastWalsh(int log2_data, int log2_kernel, uint64_t seed)
      : log2_data_(log2_data), log2_kernel_(log2_kernel), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    const size_t n = size_t(1) << log2_data_;
    kernel_ = mem.alloc<float>("d_Kernel", n);  // DATA_SIZE, cudaMemset to 0, the kernel copied in front
    data_ = mem.alloc<float>("d_Data", n);
    uint64_t s = seed_;
    auto rnd = [&] { return float(splitmix(s) >> 40) / float(1 << 24); };  // rand() / RAND_MAX
    h_kernel_.resize(size_t(1) << log2_kernel_);
    for (auto& v : h_kernel_) v = rnd();
    h_data_.resize(n);
    for (auto& v : h_data_) v = rnd();
    for (size_t i = 0; i < h_kernel_.size(); ++i) kernel_[i] = h_kernel_[i];
    data_.host() = h_data_;
  }

  void run(Launcher& host) override {
    fwt_batch(host, data_, log2_data_);
    fwt_batch(host, kernel_, log2_data_);
    modulate(host);
    fwt_batch(host, data_, log2_data_);
  }

  std::string check() const override {
    // dyadicConvolutionCPU: result[i] = sum over j of data[i ^ j] kernel[j], in double.
    const size_t n = h_data_.size();
    double sum_delta2 = 0, sum_ref2 = 0, worst = -1;
    size_t worst_i = 0;
    for (size_t i = 0; i < n; ++i) {
      double r = 0;
      for (size_t j = 0; j < h_kernel_.size(); ++j) r += double(h_data_[i ^ j]) * double(h_kernel_[j]);
      const double d = r - double(data_[i]);
      sum_delta2 += d * d;
      sum_ref2 += r * r;
      if (std::fabs(d) > worst) worst = std::fabs(d), worst_i = i;
    }
    const double l2 = std::sqrt(sum_delta2 / sum_ref2);
    if (!(l2 < 1e-6))
      return "relative L2 error " + std::to_string(l2) + " (largest at element " + std::to_string(worst_i) +
             ": " + std::to_string(data_[worst_i]) + ", off by " + std::to_string(worst) + ")";
    return "";
  }

 private:
  // fwtBatchGPU(d, 1, log2N).
  void fwt_batch(Launcher& host, DeviceArray<float>& d, int log2n) {
    int64_t n = int64_t(1) << log2n;
    uint32_t m = 1;
    const Dim3 grid{uint32_t(n / (4 * kThreads)), m, 1};  // fixed before the passes, as the sample does
    for (; log2n > kElementaryLog2; log2n -= 2, n >>= 2, m <<= 2) {
      KernelLaunch k;
      k.name = "fwtBatch2Kernel";
      k.grid = grid;
      k.block = {kThreads, 1, 1};
      k.regs_per_thread = k2Regs;
      const int64_t stride = n / 4;
      k.body = [&d, stride](Warp& w) {
        const Int pos = w.global_x();
        const int64_t nn = int64_t(w.block_dim().x) * w.grid_dim().x * 4;
        const int64_t base = int64_t(w.block_idx().y) * nn;
        const Int lo = pos & (stride - 1);
        const Int i0 = ((pos - lo) << 2) + lo, i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
        w.compute(k2Entry);
        const Float d0 = w.load(0x10, d, base + i0);
        w.compute(k2Load[1]);
        const Float d1 = w.load(0x20, d, base + i1);
        w.compute(k2Load[2]);
        const Float d2 = w.load(0x30, d, base + i2);
        w.compute(k2Load[3]);
        const Float d3 = w.load(0x40, d, base + i3);
        const Quad q = butterfly(d0, d1, d2, d3);
        w.compute(k2Store[0]);
        w.store(0x50, d, base + i0, q.o0);
        w.compute(k2Store[1]);
        w.store(0x60, d, base + i1, q.o1);
        w.compute(k2Store[2]);
        w.store(0x70, d, base + i2, q.o2);
        w.compute(k2Store[3]);
        w.store(0x80, d, base + i3, q.o3);
      };
      host.launch(std::move(k));
    }
    KernelLaunch k;
    k.name = "fwtBatch1Kernel";
    k.grid = {m, 1, 1};
    k.block = {uint32_t(n / 4), 1, 1};
    k.regs_per_thread = k1Regs;
    k.shmem_per_cta = uint32_t(n * sizeof(float));
    k.body = [&d, log2n](Warp& w) {
      const int64_t n = int64_t(1) << log2n, bd = w.block_dim().x;
      const int64_t base = int64_t(w.block_idx().x) << log2n;
      const Int& tid = w.thread_in_block();
      std::vector<float>& s = w.shared<float>(0, size_t(n));
      w.compute(k1Entry);
      w.for_(tid, Int(n), Int(bd), [&](const Int& pos) {
        w.compute(k1Load);
        w.shared_store(s, pos, w.load(0x10, d, base + pos));
        w.compute(k1LoadTail);
      });
      bool first = true;
      for (int64_t stride = n >> 2; stride > 0; stride >>= 2) {  // the same stages in every thread
        const Int lo = tid & (stride - 1);
        const Int i0 = ((tid - lo) << 2) + lo, i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
        w.compute(first ? k1FirstSync : k1NextSync);
        first = false;
        w.sync();
        w.compute(k1Stage);
        const Float d0 = w.shared_load(s, i0), d1 = w.shared_load(s, i1);
        const Float d2 = w.shared_load(s, i2), d3 = w.shared_load(s, i3);
        const Quad q = butterfly(d0, d1, d2, d3);
        w.shared_store(s, i0, q.o0);
        w.shared_store(s, i1, q.o1);
        w.shared_store(s, i2, q.o2);
        w.shared_store(s, i3, q.o3);
      }
      if (log2n & 1) {
        w.compute(k1Radix2Sync);
        w.sync();
        w.compute(k1Radix2);
        w.for_(tid, Int(n / 2), Int(bd), [&](const Int& pos) {
          const Int i0 = pos << 1, i1 = i0 + 1;
          const Float d0 = w.shared_load(s, i0), d1 = w.shared_load(s, i1);
          w.shared_store(s, i0, d0 + d1);
          w.shared_store(s, i1, d0 - d1);
          w.compute(k1Radix2Iter);
        });
      }
      w.compute(k1LastSync);
      w.sync();
      w.for_(tid, Int(n), Int(bd), [&](const Int& pos) {
        w.compute(k1Store);
        w.store(0x20, d, base + pos, w.shared_load(s, pos));
        w.compute(k1StoreTail);
      });
    };
    host.launch(std::move(k));
  }

  // modulateGPU: modulateKernel<<<128, 256>>>(d_Data, d_Kernel, N).
  void modulate(Launcher& host) {
    KernelLaunch k;
    k.name = "modulateKernel";
    k.grid = {128, 1, 1};
    k.block = {kThreads, 1, 1};
    k.regs_per_thread = kMRegs;
    const int64_t n = int64_t(1) << log2_data_;
    k.body = [this, n](Warp& w) {
      const Int tid = w.global_x();
      const int64_t threads = int64_t(w.block_dim().x) * w.grid_dim().x;
      const float rcp_n = 1.0f / float(n);
      w.compute(kMEntry);
      w.for_(tid, Int(n), Int(threads), [&](const Int& pos) {
        w.compute(kMB);
        const Float b = w.load(0x10, kernel_, pos);
        w.compute(kMA);
        const Float a = w.load(0x20, data_, pos);
        w.compute(kMStore);
        w.store(0x30, data_, pos, a * (b * rcp_n));
      });
    };
    host.launch(std::move(k));
  }

  int log2_data_, log2_kernel_;
  uint64_t seed_;
  std::vector<float> h_data_, h_kernel_;
  DeviceArray<float> kernel_, data_;
};

}  // namespace

void register_sdk_fastwalsh(PortRegistry& r) {
  PortInfo p;
  p.name = "sdk/fastwalsh";
  p.suite = "CUDA SDK samples";
  p.source =
      "github.com/NVIDIA/cuda-samples @c94ff366, Samples/5_Domain_Specific/fastWalshTransform "
      "(fastWalshTransform.cu, fastWalshTransform_kernel.cuh)";
  p.input =
      "log2Data = 21 (2M floats; d_Kernel and d_Data 8 MB each, 16 MB) and log2Kernel = 7: the sample's "
      "log2Data = 23 (64 MB, 13 M warp instructions) scaled by 4; 16 MB is still 21 times fermi's 768 KB "
      "L2, so the global passes stream from DRAM as in the original (5 global passes per FWT instead of 6); "
      "values uniform in [0, 1) from a seeded generator (seed 2007; the sample uses srand(2007)/rand)";
  p.papers = "G-Cache (001, FWT)";
  p.kernels = "fwtBatch2Kernel, fwtBatch1Kernel, modulateKernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t log2_data = s.get_uint("log2_data", 21, 10, 26);
    const uint64_t log2_kernel = s.get_uint("log2_kernel", 7, 0, 26);
    const uint64_t seed = s.get_uint("seed", 2007);
    if (log2_kernel > log2_data) throw ConfigError("sdk/fastwalsh: log2_kernel > log2_data");
    return std::make_unique<FastWalsh>(int(log2_data), int(log2_kernel), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
