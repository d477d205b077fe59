// CUDA SDK mergeSort: a stable ascending sort of N (key, value) pairs (sortDir = 1). mergeSortSharedKernel
// sorts each run of SHARED_SIZE_LIMIT = 1024 pairs in shared memory (CTAs of 512 threads, two pairs a
// thread, log2(1024) merge steps by binary search). Then for every stride 1024, 2048, ... < N the host
// launches generateSampleRanksKernel (every SAMPLE_STRIDE = 128th key of each half of a segment ranked in
// the other half by a binary search in global memory), mergeRanksAndIndicesKernel twice (the ranks merged
// into interval limits, for A and for B) and mergeElementaryIntervalsKernel (one CTA of 128 threads per
// interval: both pieces into shared memory, merged by binary search, written out), ping-ponging between the
// destination and buffer arrays. A last segment with no B half is copied by cudaMemcpy (host code here).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v on the sortDir = 1 instances: PTX
// between the memory instructions and barriers (shared-memory accesses add one each, in the machinery).
// mergeSortSharedKernel:
constexpr uint32_t kShEntry = 15, kShVal = 3, kShHalf = 2;  // before the four loads
constexpr uint32_t kShSync = 8;      // loop test and the step's indices, before its first barrier
constexpr uint32_t kShSearch = 10;   // after the barrier, beside the four shared loads
constexpr uint32_t kShSetup = 3;     // each binary search's start
constexpr uint32_t kShIter = 10;     // each binary-search step beside its shared load
constexpr uint32_t kShBetween = 1;   // between the two searches
constexpr uint32_t kShScatter = 6;   // after the second barrier, beside the four shared stores
constexpr uint32_t kShRegs = 19;     // ptxas -v, sm_75
constexpr uint32_t kShShmem = 8192;  // s_key, s_val
// generateSampleRanksKernel and mergeRanksAndIndicesKernel (global binary searches):
constexpr uint32_t kRkEntry = 14, kRkBody = 17, kRkStore = 5, kRkBetween = 6, kRkSecond = 6;
constexpr uint32_t kMrEntry = 12, kMrBody = 20, kMrLoad = 4, kMrStore = 5, kMrSecond = 1, kMrLoadB = 5;
constexpr uint32_t kGlSetup = 2;                         // before the searched value's load (the L == 0 test)
constexpr uint32_t kGlStart = 12;                        // after it, before the first step
constexpr uint32_t kGlIterBefore = 7, kGlIterAfter = 5;  // a binary-search step around its load
constexpr uint32_t kRkRegs = 19, kMrRegs = 16;           // ptxas -v, sm_75
// mergeElementaryIntervalsKernel:
constexpr uint32_t kMeEntry = 22, kMeLimits = 18, kMeLimitB = 2, kMeEnd = 3;
constexpr uint32_t kMeLoad = 5, kMeLoadB = 6, kMeVal = 1;
constexpr uint32_t kMeMergeIter = 6;                       // a step of the unrolled search (128: 8 steps)
constexpr uint32_t kMeOut = 4, kMeOutB = 5, kMeStore = 5;  // before the stores of the merged pieces
constexpr uint32_t kMeRegs = 19, kMeShmem = 2072;          // ptxas -v: s_key, s_val and six scalars

constexpr uint32_t kSharedLimit = 1024, kSampleStride = 128, kMaxSampleCount = 32768;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

using U32 = Lanes<uint32_t>;

// The active lanes as a per-lane condition.
Bool active_lanes(const Warp& w) {
  Bool b;
  for (unsigned l = 0; l < kWarpSize; ++l) b.v[l] = (w.active() >> l) & 1;
  return b;
}

// 1 << (32 - clz(x - 1)) lane by lane (1 for x = 1).
Int next_pow2(const Int& x) {
  Int r = x;
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const uint32_t v = uint32_t(x.v[l]) - 1;
    r.v[l] = v == 0 ? 1 : int64_t(1) << (32 - __builtin_clz(v));
  }
  return r;
}

int64_t sample_count(int64_t n) {
  return (n + kSampleStride - 1) / kSampleStride;
}

// binarySearchExclusive / Inclusive<1>: how many of data[0 .. len) are < val (<= val when inclusive),
// `probe(i)` reading data[i]; `before` and `after` instructions around each step's read.
template <class Probe>
Int binary_search(Warp& w, const Int& val, const Int& len, const Int& stride, bool inclusive, uint32_t before,
                  uint32_t after, Probe probe) {
  Int pos = 0;
  w.if_(len != 0, [&] {
    Int st = stride;
    w.while_([&] { return st > 0; },
             [&] {
               const Bool on = active_lanes(w);
               const Int np = min(pos + st, len);
               w.compute(before);
               const Int x = probe(np - 1).template as<int64_t>();
               const Bool take = inclusive ? x <= val : x < val;
               pos = select<int64_t>(take && on, np, pos);
               st = select<int64_t>(on, st >> 1, st);
               w.compute(after);
             });
  });
  return pos;
}

class MergeSort : public KernelPort {
 public:
  MergeSort(uint32_t n, uint32_t num_values, uint64_t seed) : n_(n), num_values_(num_values), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    dst_key_ = mem.alloc<uint32_t>("d_DstKey", n_);
    dst_val_ = mem.alloc<uint32_t>("d_DstVal", n_);
    buf_key_ = mem.alloc<uint32_t>("d_BufKey", n_);
    buf_val_ = mem.alloc<uint32_t>("d_BufVal", n_);
    src_key_ = mem.alloc<uint32_t>("d_SrcKey", n_);
    src_val_ = mem.alloc<uint32_t>("d_SrcVal", n_);
    ranks_a_ = mem.alloc<uint32_t>("d_RanksA", kMaxSampleCount);  // initMergeSort
    ranks_b_ = mem.alloc<uint32_t>("d_RanksB", kMaxSampleCount);
    limits_a_ = mem.alloc<uint32_t>("d_LimitsA", kMaxSampleCount);
    limits_b_ = mem.alloc<uint32_t>("d_LimitsB", kMaxSampleCount);
    uint64_t s = seed_;
    for (auto& k : src_key_.host()) k = uint32_t(splitmix(s) % num_values_);  // rand() % numValues
    std::iota(src_val_.host().begin(), src_val_.host().end(), 0u);            // fillValues
  }

  void run(Launcher& host) override {
    uint32_t stages = 0;
    for (uint32_t stride = kSharedLimit; stride < n_; stride <<= 1) ++stages;
    DeviceArray<uint32_t>*ikey = &dst_key_, *ival = &dst_val_, *okey = &buf_key_, *oval = &buf_val_;
    if (stages & 1) {
      std::swap(ikey, okey);
      std::swap(ival, oval);
    }
    launch_shared(host, *ikey, *ival);
    for (uint32_t stride = kSharedLimit; stride < n_; stride <<= 1) {
      const uint32_t last = n_ % (2 * stride);
      const uint32_t threads =
          last > stride ? (n_ + 2 * stride - last) / (2 * kSampleStride) : (n_ - last) / (2 * kSampleStride);
      launch_ranks(host, *ikey, stride, threads);
      launch_limits(host, limits_a_, ranks_a_, stride, threads);
      launch_limits(host, limits_b_, ranks_b_, stride, threads);
      const uint32_t pairs = last > stride ? uint32_t(sample_count(n_)) : (n_ - last) / kSampleStride;
      launch_merge(host, *okey, *oval, *ikey, *ival, stride, pairs);
      if (last <= stride)  // cudaMemcpy device to device: no kernel
        for (uint32_t i = n_ - last; i < n_; ++i) (*okey)[i] = (*ikey)[i], (*oval)[i] = (*ival)[i];
      std::swap(ikey, okey);
      std::swap(ival, oval);
    }
  }

  std::string check() const override {
    std::vector<uint32_t> order(n_);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return src_key_[a] < src_key_[b]; });
    for (uint32_t i = 0; i < n_; ++i)
      if (dst_key_[i] != src_key_[order[i]] || dst_val_[i] != src_val_[order[i]])
        return "pair " + std::to_string(i) + ": (" + std::to_string(dst_key_[i]) + ", " +
               std::to_string(dst_val_[i]) + "), expected (" + std::to_string(src_key_[order[i]]) + ", " +
               std::to_string(src_val_[order[i]]) + ")";
    return "";
  }

 private:
  // mergeSortSharedKernel<1>: runs of 1024 from the source into (ikey, ival).
  void launch_shared(Launcher& host, DeviceArray<uint32_t>& okey, DeviceArray<uint32_t>& oval) {
    KernelLaunch k;
    k.name = "mergeSortSharedKernel<1>";
    k.grid = {n_ / kSharedLimit, 1, 1};
    k.block = {kSharedLimit / 2, 1, 1};
    k.regs_per_thread = kShRegs;
    k.shmem_per_cta = kShShmem;
    k.body = [this, &okey, &oval](Warp& w) {
      const Int& tid = w.thread_in_block();
      const Int g = tid + int64_t(w.block_idx().x) * kSharedLimit;
      const int64_t half = kSharedLimit / 2;
      std::vector<uint32_t>& s_key = w.shared<uint32_t>(0, kSharedLimit);
      std::vector<uint32_t>& s_val = w.shared<uint32_t>(1, kSharedLimit);
      w.compute(kShEntry);
      w.shared_store(s_key, tid, w.load(0x10, src_key_, g));
      w.compute(kShVal);
      w.shared_store(s_val, tid, w.load(0x20, src_val_, g));
      w.compute(kShHalf);
      w.shared_store(s_key, tid + half, w.load(0x30, src_key_, g + half));
      w.shared_store(s_val, tid + half, w.load(0x40, src_val_, g + half));
      for (int64_t stride = 1; stride < kSharedLimit; stride <<= 1) {  // arrayLength = 1024
        const Int lpos = tid & (stride - 1);
        const Int base = (tid - lpos) * 2;
        w.compute(kShSync);
        w.sync();
        w.compute(kShSearch);
        const U32 key_a = w.shared_load(s_key, base + lpos);
        const U32 val_a = w.shared_load(s_val, base + lpos);
        const U32 key_b = w.shared_load(s_key, base + lpos + stride);
        const U32 val_b = w.shared_load(s_val, base + lpos + stride);
        auto probe = [&](const Int& off) {
          return [&, off](const Int& i) { return w.shared_load(s_key, off + i); };
        };
        w.compute(kShSetup);
        const Int pos_a = binary_search(w, key_a.as<int64_t>(), Int(stride), Int(stride), false, kShIter - 1,
                                        1, probe(base + stride)) +
                          lpos;
        w.compute(kShBetween + kShSetup);
        const Int pos_b = binary_search(w, key_b.as<int64_t>(), Int(stride), Int(stride), true, kShIter - 1,
                                        1, probe(base)) +
                          lpos;
        w.sync();
        w.compute(kShScatter);
        w.shared_store(s_key, base + pos_a, key_a);
        w.shared_store(s_val, base + pos_a, val_a);
        w.shared_store(s_key, base + pos_b, key_b);
        w.shared_store(s_val, base + pos_b, val_b);
      }
      w.compute(kShSync);
      w.sync();
      w.store(0x50, okey, g, w.shared_load(s_key, tid));
      w.store(0x60, oval, g, w.shared_load(s_val, tid));
      w.store(0x70, okey, g + half, w.shared_load(s_key, tid + half));
      w.store(0x80, oval, g + half, w.shared_load(s_val, tid + half));
    };
    host.launch(std::move(k));
  }

  // generateSampleRanksKernel<1>.
  void launch_ranks(Launcher& host, DeviceArray<uint32_t>& src, uint32_t stride_u, uint32_t threads) {
    KernelLaunch k;
    k.name = "generateSampleRanksKernel<1>";
    k.grid = {(threads + 255) / 256, 1, 1};
    k.block = {256, 1, 1};
    k.regs_per_thread = kRkRegs;
    k.body = [this, &src, stride_u, threads](Warp& w) {
      const int64_t stride = stride_u, n = n_, ss = kSampleStride;
      const Int pos = w.global_x();
      w.compute(kRkEntry);
      w.return_if(pos >= int64_t(threads));
      const Int i = pos & (stride / ss - 1);
      const Int seg = (pos - i) * (2 * ss);
      const Int rk = seg / ss;
      const Int len_b = min(Int(stride), n - seg - stride);
      const int64_t samples_a = sample_count(stride);
      Int samples_b = len_b;
      for (auto& v : samples_b.v) v = sample_count(v);
      w.compute(kRkBody);
      w.if_(i < samples_a, [&] {
        w.compute(kRkStore);
        w.store(0x10, ranks_a_, rk + i, i * ss);
        w.compute(kGlSetup);
        const Int val = w.load(0x20, src, seg + i * ss).as<int64_t>();
        w.compute(kGlStart);
        const Int r = binary_search(w, val, len_b, next_pow2(len_b), false, kGlIterBefore, kGlIterAfter,
                                    [&](const Int& j) { return w.load(0x30, src, seg + stride + j); });
        w.compute(1);
        w.store(0x40, ranks_b_, rk + i, r);
      });
      w.compute(kRkBetween);
      w.if_(i < samples_b, [&] {
        w.compute(kRkSecond);
        w.store(0x50, ranks_b_, rk + stride / ss + i, i * ss);
        w.compute(kGlSetup);
        const Int val = w.load(0x60, src, seg + stride + i * ss).as<int64_t>();
        w.compute(kGlStart);
        const Int r = binary_search(w, val, Int(stride), next_pow2(Int(stride)), true, kGlIterBefore,
                                    kGlIterAfter, [&](const Int& j) { return w.load(0x70, src, seg + j); });
        w.compute(1);
        w.store(0x80, ranks_a_, rk + stride / ss + i, r);
      });
    };
    host.launch(std::move(k));
  }

  // mergeRanksAndIndicesKernel (for A or for B).
  void launch_limits(Launcher& host, DeviceArray<uint32_t>& limits, DeviceArray<uint32_t>& ranks,
                     uint32_t stride_u, uint32_t threads) {
    KernelLaunch k;
    k.name = "mergeRanksAndIndicesKernel";
    k.grid = {(threads + 255) / 256, 1, 1};
    k.block = {256, 1, 1};
    k.regs_per_thread = kMrRegs;
    k.body = [this, &limits, &ranks, stride_u, threads](Warp& w) {
      const int64_t stride = stride_u, n = n_, ss = kSampleStride;
      const Int pos = w.global_x();
      w.compute(kMrEntry);
      w.return_if(pos >= int64_t(threads));
      const Int i = pos & (stride / ss - 1);
      const Int seg = (pos - i) * (2 * ss);
      const Int off = (pos - i) * 2;
      const Int len_b = min(Int(stride), n - seg - stride);
      const int64_t samples_a = sample_count(stride);
      Int samples_b = len_b;
      for (auto& v : samples_b.v) v = sample_count(v);
      w.compute(kMrBody);
      w.if_(i < samples_a, [&] {
        w.compute(kMrLoad);
        const U32 r = w.load(0x10, ranks, off + i);
        w.compute(kGlSetup + kGlStart);
        const Int dst =
            binary_search(w, r.as<int64_t>(), samples_b, next_pow2(samples_b), false, kGlIterBefore,
                          kGlIterAfter,
                          [&](const Int& j) { return w.load(0x20, ranks, off + samples_a + j); }) +
            i;
        w.compute(kMrStore);
        w.store(0x30, limits, off + dst, r);
      });
      w.compute(kMrSecond);
      w.if_(i < samples_b, [&] {
        w.compute(kMrLoadB);
        const U32 r = w.load(0x40, ranks, off + samples_a + i);
        w.compute(kGlSetup + kGlStart);
        const Int dst =
            binary_search(w, r.as<int64_t>(), Int(samples_a), next_pow2(Int(samples_a)), true, kGlIterBefore,
                          kGlIterAfter, [&](const Int& j) { return w.load(0x50, ranks, off + j); }) +
            i;
        w.compute(kMrStore);
        w.store(0x60, limits, off + dst, r);
      });
    };
    host.launch(std::move(k));
  }

  // mergeElementaryIntervalsKernel<1>.
  void launch_merge(Launcher& host, DeviceArray<uint32_t>& okey, DeviceArray<uint32_t>& oval,
                    DeviceArray<uint32_t>& ikey, DeviceArray<uint32_t>& ival, uint32_t stride_u,
                    uint32_t pairs) {
    KernelLaunch k;
    k.name = "mergeElementaryIntervalsKernel<1>";
    k.grid = {pairs, 1, 1};
    k.block = {kSampleStride, 1, 1};
    k.regs_per_thread = kMeRegs;
    k.shmem_per_cta = kMeShmem;
    k.body = [this, &okey, &oval, &ikey, &ival, stride_u](Warp& w) {
      const int64_t stride = stride_u, n = n_, ss = kSampleStride, bx = w.block_idx().x;
      const Int& tid = w.thread_in_block();
      const int64_t interval = bx & ((2 * stride) / ss - 1);
      const int64_t seg = (bx - interval) * ss;
      std::vector<uint32_t>& s_key = w.shared<uint32_t>(0, 2 * kSampleStride);
      std::vector<uint32_t>& s_val = w.shared<uint32_t>(1, 2 * kSampleStride);
      // startSrcA, startSrcB, lenSrcA, lenSrcB, startDstA, startDstB
      std::vector<uint32_t>& par = w.shared<uint32_t>(2, 6);
      w.compute(kMeEntry);
      w.if_(tid == 0, [&] {
        const int64_t len_a = stride, len_b = std::min(stride, n - seg - stride);
        const int64_t samples = sample_count(len_a) + sample_count(len_b);
        w.compute(kMeLimits);
        const U32 start_a = w.load(0x10, limits_a_, Int(bx));
        w.shared_store(par, Int(0), start_a);
        w.compute(kMeLimitB);
        const U32 start_b = w.load(0x20, limits_b_, Int(bx));
        w.shared_store(par, Int(1), start_b);
        w.compute(kMeEnd);
        U32 end_a = uint32_t(len_a), end_b = uint32_t(len_b);
        if (interval + 1 < samples) {  // one lane: a scalar decision
          end_a = w.load(0x30, limits_a_, Int(bx + 1));
          end_b = w.load(0x40, limits_b_, Int(bx + 1));
        }
        const U32 la = end_a - start_a, lb = end_b - start_b;
        w.compute(1);
        w.shared_store(par, Int(2), la);
        w.compute(1);
        w.shared_store(par, Int(3), lb);
        w.compute(1);
        w.shared_store(par, Int(4), start_a + start_b);
        w.compute(1);
        w.shared_store(par, Int(5), start_a + start_b + la);
      });
      w.sync();
      auto scalar = [&](int64_t slot) { return w.shared_load(par, Int(slot)).as<int64_t>(); };
      Int len_a = scalar(2);
      w.compute(kMeLoad + 1);
      w.if_(tid < len_a, [&] {
        const Int start = scalar(0);
        w.compute(kMeLoad);
        w.shared_store(s_key, tid, w.load(0x50, ikey, seg + start + tid));
        w.compute(kMeVal);
        w.shared_store(s_val, tid, w.load(0x60, ival, seg + start + tid));
      });
      Int len_b = scalar(3);
      w.compute(1);
      w.if_(tid < len_b, [&] {
        const Int start = scalar(1);
        w.compute(kMeLoadB);
        w.shared_store(s_key, tid + ss, w.load(0x70, ikey, seg + stride + start + tid));
        w.compute(kMeVal);
        w.shared_store(s_val, tid + ss, w.load(0x80, ival, seg + stride + start + tid));
      });
      w.compute(1);
      w.sync();
      // merge<1>(s_key, s_val, s_key, s_val, s_key + 128, s_val + 128, lenSrcA, 128, lenSrcB, 128).
      len_b = scalar(3);
      len_a = scalar(2);
      w.compute(1);
      U32 key_a, val_a, key_b, val_b;
      Int dst_a, dst_b;
      w.if_(tid < len_a, [&] {
        key_a = w.shared_load(s_key, tid);
        w.compute(1);
        val_a = w.shared_load(s_val, tid);
        w.compute(kMeVal + 3);
        dst_a = binary_search(w, key_a.as<int64_t>(), len_b, Int(ss), false, kMeMergeIter, 0,
                              [&](const Int& j) { return w.shared_load(s_key, ss + j); }) +
                tid;
        w.compute(2);
      });
      w.compute(3);
      w.if_(tid < len_b, [&] {
        key_b = w.shared_load(s_key, tid + ss);
        w.compute(1);
        val_b = w.shared_load(s_val, tid + ss);
        w.compute(kMeVal + 3);
        dst_b = binary_search(w, key_b.as<int64_t>(), len_a, Int(ss), true, kMeMergeIter, 0,
                              [&](const Int& j) { return w.shared_load(s_key, j); }) +
                tid;
        w.compute(2);
      });
      w.compute(1);
      w.sync();
      w.if_(tid < len_a, [&] {
        w.compute(kMeOut);
        w.shared_store(s_key, dst_a, key_a);
        w.compute(1);
        w.shared_store(s_val, dst_a, val_a);
      });
      w.if_(tid < len_b, [&] {
        w.compute(kMeOut);
        w.shared_store(s_key, dst_b, key_b);
        w.compute(1);
        w.shared_store(s_val, dst_b, val_b);
      });
      w.sync();
      len_a = scalar(2);
      w.compute(1);
      w.if_(tid < len_a, [&] {
        w.compute(kMeOut);
        const U32 key = w.shared_load(s_key, tid);
        const Int dst = scalar(4);
        w.compute(kMeStore);
        w.store(0x90, okey, seg + dst + tid, key);
        const U32 val = w.shared_load(s_val, tid);
        w.compute(1);
        w.store(0xa0, oval, seg + dst + tid, val);
      });
      len_b = scalar(3);
      w.compute(1);
      w.if_(tid < len_b, [&] {
        w.compute(kMeOutB);
        const U32 key = w.shared_load(s_key, len_a + tid);
        const Int dst = scalar(5);
        w.compute(kMeStore);
        w.store(0xb0, okey, seg + dst + tid, key);
        w.compute(1);
        const U32 val = w.shared_load(s_val, len_a + tid);
        w.compute(1);
        w.store(0xc0, oval, seg + dst + tid, val);
      });
    };
    host.launch(std::move(k));
  }

  uint32_t n_, num_values_;
  uint64_t seed_;
  DeviceArray<uint32_t> dst_key_, dst_val_, buf_key_, buf_val_, src_key_, src_val_;
  DeviceArray<uint32_t> ranks_a_, ranks_b_, limits_a_, limits_b_;
};

}  // namespace

void register_sdk_mergesort(PortRegistry& r) {
  PortInfo p;
  p.name = "sdk/mergesort";
  p.suite = "CUDA SDK samples";
  p.source =
      "github.com/NVIDIA/cuda-samples @c94ff366, Samples/0_Introduction/mergeSort (main.cpp, mergeSort.cu, "
      "mergeSort_common.h)";
  p.input =
      "N = 524,288 pairs (the sample sorts 4,194,304: six arrays of 16 MB, 96 MB, and 12 merge stages, "
      "about 20 M warp instructions; scaled by 8 to six 2 MB arrays, 12 MB, still 16 times fermi's 768 KB "
      "L2, so every pass streams from DRAM as in the original; 9 merge stages), keys uniform in [0, 65536) "
      "from a seeded generator (seed 2009; the sample uses srand(2009)/rand() % numValues), values 0..N-1 "
      "(fillValues), sortDir = 1";
  p.papers = "H-Xbar LLC (004, MS: LLC-neutral)";
  p.kernels =
      "mergeSortSharedKernel<1>, generateSampleRanksKernel<1>, mergeRanksAndIndicesKernel, "
      "mergeElementaryIntervalsKernel<1>";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    // N a multiple of SHARED_SIZE_LIMIT and at most SAMPLE_STRIDE * MAX_SAMPLE_COUNT (the host's asserts).
    const uint64_t n = s.get_uint("n", 524288, kSharedLimit, uint64_t(kSampleStride) * kMaxSampleCount) /
                       kSharedLimit * kSharedLimit;
    const uint64_t values = s.get_uint("num_values", 65536, 1, uint64_t(1) << 32);
    const uint64_t seed = s.get_uint("seed", 2009);
    return std::make_unique<MergeSort>(uint32_t(n), uint32_t(values), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
