// CUDA SDK histogram: 64-bin and 256-bin histograms of a byte array. histogram64Kernel (CTAs of 64 threads)
// reads the data as uint4 (16 B a lane) and counts the top 6 bits of every byte into a per-thread byte-wide
// sub-histogram in shared memory (each thread its own column: plain increments), then sums each bin of its
// CTA and stores the CTA's partial histogram; mergeHistogram64Kernel (one CTA of 256 threads per bin) adds
// the bin over the partial histograms (strided loads) and reduces in shared memory. histogram256Kernel (240
// CTAs of 6 warps) reads uints and counts every byte into its warp's sub-histogram with shared-memory
// atomicAdd (done here lane by lane, in lane order, one instruction each), then stores the CTA's partial
// histogram; mergeHistogram256Kernel merges as for 64 bins. No global atomics. The host runs each
// histogram `calls` times (the sample: a warm-up and numRuns = 16 timed calls), 64 bins first; the 64-bin
// result is read back (as the sample does for its check) before the 256-bin calls overwrite d_Histogram.
#include <cstdint>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions
// and barriers (shared-memory accesses, and the shared atomics here, add one each).
// histogram64Kernel:
constexpr uint32_t k64Entry = 9, k64Loop = 13, k64Load = 2, k64Byte = 4, k64Inc = 1, k64Tail = 3;
constexpr uint32_t k64Sum = 2, k64SumWord = 8, k64Store = 9;
constexpr uint32_t k64Regs = 36, k64Shmem = 4096;  // ptxas -v, sm_75
// histogram256Kernel:
constexpr uint32_t k256Entry = 8, k256Loop = 6, k256Load = 2, k256Atomic[4] = {4, 5, 5, 4}, k256Tail = 3;
constexpr uint32_t k256Bin = 5, k256Sum = 4, k256Store = 3, k256BinTail = 5;
constexpr uint32_t k256Regs = 30, k256Shmem = 6144;
// mergeHistogram64Kernel / mergeHistogram256Kernel (the same code):
constexpr uint32_t kMgEntry = 13, kMgLoad = 2, kMgTail = 5, kMgShared = 3, kMgStep = 1, kMgAdd = 1;
constexpr uint32_t kMgStore = 4;
constexpr uint32_t kMgRegs = 16, kMgShmem = 1024;

constexpr uint32_t kBins64 = 64, kBins256 = 256, kBlock64 = 64, kWarpCount = 6, kBlock256 = kWarpCount * 32;
constexpr uint32_t kMergeBlock = 256, kPartial256 = 240, kMaxPartial64 = 32768;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct U4 {
  uint32_t x = 0, y = 0, z = 0, w = 0;
};

// atomicAdd(&s[idx], 1) on shared memory: lane by lane in lane order, one instruction.
void shared_atomic_inc(Warp& w, std::vector<uint32_t>& s, const Int& idx) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    s.at(size_t(idx.v[l])) += 1;
  }
  w.compute(1);
}

class Histogram : public KernelPort {
 public:
  Histogram(uint32_t bytes, uint32_t calls, uint64_t seed) : bytes_(bytes), calls_(calls), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    data_ = mem.alloc<uint32_t>("d_Data", bytes_ / 4);
    hist_ = mem.alloc<uint32_t>("d_Histogram", kBins256);
    partial64_ = mem.alloc<uint32_t>("d_PartialHistograms (64)", size_t(kMaxPartial64) * kBins64);
    // initHistogram256 after closeHistogram64: a fresh range here (the model frees nothing).
    partial256_ = mem.alloc<uint32_t>("d_PartialHistograms (256)", size_t(kPartial256) * kBins256);
    uint64_t s = seed_;
    for (auto& v : data_.host()) {  // rand() % 256 per byte
      const uint64_t r = splitmix(s);
      v = uint32_t(r & 0xff) | uint32_t((r >> 8) & 0xff) << 8 | uint32_t((r >> 16) & 0xff) << 16 |
          uint32_t((r >> 24) & 0xff) << 24;
    }
    // The same bytes read as uint4 by histogram64Kernel: a view at d_Data's address.
    data4_ = DeviceArray<U4>("d_Data", data_.base(), bytes_ / 16);
    for (size_t i = 0; i < data4_.size(); ++i)
      data4_[i] = {data_[4 * i], data_[4 * i + 1], data_[4 * i + 2], data_[4 * i + 3]};
  }

  void run(Launcher& host) override {
    const uint32_t count64 = (bytes_ + kBlock64 * 252 - 1) / (kBlock64 * 252);  // iDivUp(bytes, 64 * 252)
    for (uint32_t c = 0; c < calls_; ++c) {
      launch_hist64(host, count64);
      launch_merge(host, "mergeHistogram64Kernel", partial64_, kBins64, count64);
    }
    result64_.assign(hist_.host().begin(), hist_.host().begin() + kBins64);  // cudaMemcpy to the host
    for (uint32_t c = 0; c < calls_; ++c) {
      launch_hist256(host);
      launch_merge(host, "mergeHistogram256Kernel", partial256_, kBins256, kPartial256);
    }
  }

  std::string check() const override {
    std::vector<uint32_t> h64(kBins64), h256(kBins256);
    for (uint32_t v : data_.host())
      for (int b = 0; b < 4; ++b) {
        const uint32_t byte = (v >> (8 * b)) & 0xff;
        ++h64[byte >> 2];
        ++h256[byte];
      }
    for (uint32_t i = 0; i < kBins64; ++i)
      if (result64_.size() != kBins64 || result64_[i] != h64[i])
        return "64-bin histogram, bin " + std::to_string(i) + ": " +
               (result64_.size() == kBins64 ? std::to_string(result64_[i]) : "not run") + ", expected " +
               std::to_string(h64[i]);
    for (uint32_t i = 0; i < kBins256; ++i)
      if (hist_[i] != h256[i])
        return "256-bin histogram, bin " + std::to_string(i) + ": " + std::to_string(hist_[i]) +
               ", expected " + std::to_string(h256[i]);
    return "";
  }

 private:
  void launch_hist64(Launcher& host, uint32_t count) {
    KernelLaunch k;
    k.name = "histogram64Kernel";
    k.grid = {count, 1, 1};
    k.block = {kBlock64, 1, 1};
    k.regs_per_thread = k64Regs;
    k.shmem_per_cta = k64Shmem;
    const int64_t data_count = bytes_ / 16;
    k.body = [this, data_count](Warp& w) {
      const Int& tid = w.thread_in_block();
      const Int thread_pos = (tid & ~int64_t(63)) | ((tid & 15) << 2) | ((tid & 48) >> 4);
      std::vector<uint8_t>& s = w.shared<uint8_t>(0, kBlock64 * kBins64);
      w.compute(k64Entry);
      for (int64_t i = 0; i < kBins64 / 4; ++i) {  // ((uint *)s_Hist)[tid + 64 i] = 0: four bytes a lane
        for (uint32_t b = w.active(); b; b &= b - 1) {
          const size_t word = size_t(w.thread_in_block().v[__builtin_ctz(b)] + i * kBlock64);
          for (size_t j = 0; j < 4; ++j) s[4 * word + j] = 0;
        }
        w.compute(1);
      }
      w.sync();
      w.compute(k64Loop);
      const Int start = tid + int64_t(w.block_idx().x) * w.block_dim().x;
      const int64_t step = int64_t(w.block_dim().x) * w.grid_dim().x;
      w.for_(start, Int(data_count), Int(step), [&](const Int& pos) {
        w.compute(k64Load);
        const Lanes<U4> d = w.load(0x10, data4_, pos);
        for (int word = 0; word < 4; ++word)
          for (int sh = 2; sh < 32; sh += 8) {
            Int bin = thread_pos;
            for (unsigned l = 0; l < kWarpSize; ++l) {
              const U4& q = d.v[l];
              const uint32_t v = word == 0 ? q.x : word == 1 ? q.y : word == 2 ? q.z : q.w;
              bin.v[l] = thread_pos.v[l] + int64_t((v >> sh) & 0x3f) * kBlock64;
            }
            bin.deps |= d.deps;
            w.compute(k64Byte);
            const Lanes<uint8_t> c = w.shared_load(s, bin);
            w.compute(k64Inc);
            w.shared_store(s, bin, c + uint8_t(1));
          }
        w.compute(k64Tail);
      });
      w.sync();
      w.compute(k64Sum);
      w.if_(tid < int64_t(kBins64), [&] {
        const Int hist_base = tid * kBlock64;
        Int pos = (tid & 15) * 4;
        Lanes<uint32_t> sum = 0u;
        for (int64_t i = 0; i < kBlock64 / 4; ++i) {
          for (int64_t j = 0; j < 4; ++j) sum = sum + w.shared_load(s, hist_base + pos + j).as<uint32_t>();
          w.compute(k64SumWord);
          pos = (pos + 4) & (kBlock64 - 1);
        }
        w.compute(k64Store);
        w.store(0x20, partial64_, tid + int64_t(w.block_idx().x) * kBins64, sum);
      });
    };
    host.launch(std::move(k));
  }

  void launch_hist256(Launcher& host) {
    KernelLaunch k;
    k.name = "histogram256Kernel";
    k.grid = {kPartial256, 1, 1};
    k.block = {kBlock256, 1, 1};
    k.regs_per_thread = k256Regs;
    k.shmem_per_cta = k256Shmem;
    const int64_t data_count = bytes_ / 4;
    k.body = [this, data_count](Warp& w) {
      const Int& tid = w.thread_in_block();
      std::vector<uint32_t>& s = w.shared<uint32_t>(0, kWarpCount * kBins256);
      const int64_t warp_base = int64_t(w.warp_in_cta()) * kBins256;  // threadIdx.x >> 5, per warp
      w.compute(k256Entry);
      for (int64_t i = 0; i < kWarpCount * kBins256 / kBlock256; ++i)
        w.shared_store(s, tid + i * kBlock256, 0u);
      w.sync();
      w.compute(k256Loop);
      const Int start = tid + int64_t(w.block_idx().x) * w.block_dim().x;
      const int64_t step = int64_t(w.block_dim().x) * w.grid_dim().x;
      w.for_(start, Int(data_count), Int(step), [&](const Int& pos) {
        w.compute(k256Load);
        const Lanes<uint32_t> d = w.load(0x10, data_, pos);
        for (int b = 0; b < 4; ++b) {
          w.compute(k256Atomic[b]);
          shared_atomic_inc(w, s, warp_base + ((d.as<int64_t>() >> (8 * b)) & 0xff));
        }
        w.compute(k256Tail);
      });
      w.sync();
      w.for_(tid, Int(kBins256), Int(kBlock256), [&](const Int& bin) {
        w.compute(k256Bin);
        Lanes<uint32_t> sum = 0u;
        for (int64_t i = 0; i < kWarpCount; ++i) sum = sum + w.shared_load(s, bin + i * kBins256);
        w.compute(k256Sum);
        w.compute(k256Store);
        w.store(0x20, partial256_, bin + int64_t(w.block_idx().x) * kBins256, sum);
        w.compute(k256BinTail);
      });
    };
    host.launch(std::move(k));
  }

  // mergeHistogram64Kernel / mergeHistogram256Kernel: one CTA per bin.
  void launch_merge(Launcher& host, const char* name, DeviceArray<uint32_t>& partial, uint32_t bins,
                    uint32_t count) {
    KernelLaunch k;
    k.name = name;
    k.grid = {bins, 1, 1};
    k.block = {kMergeBlock, 1, 1};
    k.regs_per_thread = kMgRegs;
    k.shmem_per_cta = kMgShmem;
    k.body = [this, &partial, bins, count](Warp& w) {
      const Int& tid = w.thread_in_block();
      const int64_t bx = w.block_idx().x;
      std::vector<uint32_t>& data = w.shared<uint32_t>(0, kMergeBlock);
      Lanes<uint32_t> sum = 0u;
      w.compute(kMgEntry);
      w.for_(tid, Int(int64_t(count)), Int(int64_t(kMergeBlock)), [&](const Int& i) {
        w.compute(kMgLoad);
        const Lanes<uint32_t> v = w.load(0x10, partial, bx + i * int64_t(bins));
        const Bool on = [&] {
          Bool b;
          for (unsigned l = 0; l < kWarpSize; ++l) b.v[l] = (w.active() >> l) & 1;
          return b;
        }();
        sum = select<uint32_t>(on, sum + v, sum);
        w.compute(kMgTail);
      });
      w.compute(kMgShared);
      w.shared_store(data, tid, sum);
      for (int64_t stride = kMergeBlock / 2; stride > 0; stride >>= 1) {
        w.sync();
        w.compute(kMgStep);
        w.if_(tid < stride, [&] {
          const Lanes<uint32_t> a = w.shared_load(data, tid), b = w.shared_load(data, tid + stride);
          w.compute(kMgAdd);
          w.shared_store(data, tid, a + b);
        });
      }
      w.if_(tid == 0, [&] {
        const Lanes<uint32_t> total = w.shared_load(data, Int(0));
        w.compute(kMgStore);
        w.store(0x20, hist_, Int(bx), total);
      });
    };
    host.launch(std::move(k));
  }

  uint32_t bytes_, calls_;
  uint64_t seed_;
  DeviceArray<uint32_t> data_, hist_, partial64_, partial256_;
  DeviceArray<U4> data4_;
  std::vector<uint32_t> result64_;
};

}  // namespace

void register_sdk_histogram(PortRegistry& r) {
  PortInfo p;
  p.name = "sdk/histogram";
  p.suite = "CUDA SDK samples";
  p.source =
      "github.com/NVIDIA/cuda-samples @c94ff366, Samples/2_Concepts_and_Techniques/histogram (main.cpp, "
      "histogram64.cu, histogram256.cu, histogram_common.h)";
  p.input =
      "byteCount = 64 MiB (the sample's, unscaled), bytes uniform in [0, 256) from a seeded generator (seed "
      "2009; the sample uses srand(2009)/rand() % 256); each histogram called twice (the sample: a warm-up "
      "and 16 timed calls, 17 x 0.72 M warp instructions each; every call repeats the same stream): 1.43 M "
      "warp instructions";
  p.papers = "H-Xbar LLC (004, HG: LLC-neutral)";
  p.kernels = "histogram64Kernel, mergeHistogram64Kernel, histogram256Kernel, mergeHistogram256Kernel";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    // Whole uint4s (histogram64's assert); at most MAX_PARTIAL_HISTOGRAM64_COUNT partial histograms.
    const uint64_t bytes =
        s.get_uint("bytes", 64 << 20, 16, uint64_t(kMaxPartial64) * kBlock64 * 252) / 16 * 16;
    const uint64_t calls = s.get_uint("calls", 2, 1, 17);
    const uint64_t seed = s.get_uint("seed", 2009);
    return std::make_unique<Histogram>(uint32_t(bytes), uint32_t(calls), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
