// Parboil MRI-GRIDDING (cuda version): non-uniform k-space samples gridded onto a G^3 grid with a
// Kaiser-Bessel kernel of width 5 (cutoff 2.5), the GPU part of CUDA_interface: binning_kernel (a thread per
// sample: its grid cell; cells fill up to binsize samples through a global atomicAdd, the rest go to the
// CPU bin, key G), the key/value radix sort of sort.cu (4-bit digits; per digit splitSort: a 1024-key tile
// sorted in shared memory by four one-bit split scans, its digit histogram counted with shared atomicAdd;
// scanLargeArray over the digit histograms; splitRearrange scatters the keys and values), reorder_kernel
// (samples into a structure of arrays in bin order), scanLargeArray over the cell counts (scan_L1_kernel,
// scan_inter1/2_kernel, uniformAdd: each cell's first sample), and gridding_GPU (CTAs of 8 x 4 x 2 threads,
// each thread 4 grid points along z; per neighbouring cell row: the row's sample range, tiles of 64 samples
// through shared memory, every sample within the cutoff adds to the thread's points). The samples left in
// the CPU bin are gridded by the host (gridding_CPU, no GPU access, not modelled). CONFLICT_FREE_OFFSET(i) is
// i >> (4 + i) >> 8 as the macro parses, 0 for every index: no padding in the shared arrays.
// Buffers read both as uint and as uint4 (keys and values in the sort) are two DeviceArrays at one address;
// the host code copies the uint view into the uint4 one before a kernel that reads it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions
// (shared-memory accesses and shared atomics add one each, in the machinery or here).
constexpr uint32_t kBinEntry = 18, kBinField = 3, kBinCount = 4, kBinAtomic = 3, kBinKey = 4, kBinValue = 2;
constexpr uint32_t kSortEntry = 20, kSortValue = 1, kSortZero = 6, kSortAtomic = 4, kSortFlags = 9;
constexpr uint32_t kSortStep = 20, kSortDown = 16, kSortTail = 12, kSortStore = 3, kSortHisto = 5;
constexpr uint32_t kRearEntry = 19, kRearKeys = 10, kRearValues = 2, kRearMasks = 15, kRearWalk = 3;
constexpr uint32_t kRearStore = 27, kRearNext = 2;
constexpr uint32_t kScanEntry = 16, kScanShared = 7, kScanSecond = 4, kScanSync = 6, kScanUp = 20;
constexpr uint32_t kScanTotal = 14, kScanDown = 16, kInterEntry = 22, kInterShared = 3, kInterSecond = 2;
constexpr uint32_t kAddEntry = 12, kAddFirst = 6, kAddLoad = 2;
constexpr uint32_t kReoEntry = 16, kReoSample = 5, kReoLoc = 2;
constexpr uint32_t kGridEntry = 110, kGridRow = 11, kGridTiles = 6, kGridTile = 4, kGridData = 5;
constexpr uint32_t kGridLoc = 2, kGridTileEnd = 3, kGridSample = 10, kGridValid = 11, kGridTest = 5;
constexpr uint32_t kGridHit = 29, kGridNext = 6, kGridRowEnd = 9, kGridStore = 20;
// ptxas -v, sm_75: registers per thread and static shared memory per CTA.
constexpr uint32_t kRegsBin = 16, kRegsSort = 43, kRegsRear = 28, kRegsScan = 20, kRegsInter = 20;
constexpr uint32_t kRegsAdd = 8, kRegsReo = 18, kRegsGrid = 47;
constexpr uint32_t kShmemSort = 4484, kShmemRear = 4160, kShmemScan = 4368, kShmemAdd = 16, kShmemGrid = 1536;

constexpr uint32_t kBlock = 512;              // CUDA_interface.cu's BLOCKSIZE
constexpr uint32_t kSortBs = 256, kBits = 4;  // sort.cu
constexpr uint32_t kScanBlock = 1024;         // scanLargeArray.cu's BLOCK_SIZE
constexpr uint32_t kTile = 64;                // GPU_kernels.cu's TILE
constexpr uint32_t kMax = 0xffffffffu;        // UINT32_MAX
constexpr float kKernelWidth = 5.0f, kOversample = 5.0f;

uint32_t expanded(uint32_t x) {
  return x + (x >> 4) + (x >> 8);
}  // EXPANDED_SIZE

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
double uniform(uint64_t& s) {
  return double(splitmix(s) >> 11) * 0x1p-53;
}

struct U4 {
  uint32_t x = 0, y = 0, z = 0, w = 0;
};
struct F2 {
  float x = 0, y = 0;
};
struct F4 {
  float x = 0, y = 0, z = 0, w = 0;
};

// A buffer of uint read by some kernels as uint4: two views at one address.
struct KeyBuf {
  DeviceArray<uint32_t> u;
  DeviceArray<U4> q;
  void to_q() { std::memcpy(static_cast<void*>(q.host().data()), u.host().data(), q.bytes()); }
};

template <class T>
void set_active(const Warp& w, Lanes<T>& dst, const Lanes<T>& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps |= src.deps;
}

// atomicAdd(&s[idx], 1) on shared memory: lane by lane in lane order, one instruction.
void shared_atomic_inc(Warp& w, std::vector<uint32_t>& s, const Int& idx) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    ++s.at(size_t(idx.v[l]));
  }
  w.compute(1);
}

// The Kaiser-Bessel approximation of kernel_value (IEEE division for __fdividef).
float kernel_value(float v) {
  const float z = v * v;
  const float num =
      (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * (z * 0.210580722890567e-22f +
                                                                        0.380715242345326e-19f) +
                                                                   0.479440257548300e-16f) +
                                                              0.435125971262668e-13f) +
                                                         0.300931127112960e-10f) +
                                                    0.160224679395361e-7f) +
                                               0.654858370096785e-5f) +
                                          0.202591084143397e-2f) +
                                     0.463076284721000e0f) +
                                0.754337328948189e2f) +
                           0.830792541809429e4f) +
                      0.571661130563785e6f) +
                 0.216415572361227e8f) +
            0.356644482244025e9f) +
       0.144048298227235e10f);
  const float den = (z * (z * (z - 0.307646912682801e4f) + 0.347626332405882e7f) - 0.144048298227235e10f);
  return -num / den;
}

// What gridding_GPU and the reference both compute for a sample and a grid point.
float dist_xy(float kx, float ky, float x, float y) {
  return (kx - x) * (kx - x) + (ky - y) * (ky - y);
}
float dist(float v0, float kz, float z) {
  return v0 + (kz - z) * (kz - z);
}
float weight(float v, float beta, float inv_cutoff2, float sdc) {
  return kernel_value(beta * std::sqrt(1.0f - v * inv_cutoff2)) * sdc;
}

// scanLargeArray's plan for n elements: CTAs of scan_L1, and the intermediate array's block and size.
struct ScanPlan {
  uint32_t size = 0, dim_block = 0, current_max = 0;
};
ScanPlan scan_plan(uint32_t n) {
  ScanPlan p;
  p.size = (n + kScanBlock - 1) / kScanBlock;
  p.current_max = p.size * kScanBlock;
  for (uint32_t b = 128; b <= kScanBlock; b *= 2) {
    uint64_t a = b;
    while (a < p.size) a *= b;
    if (a <= p.current_max) p.current_max = uint32_t(a), p.dim_block = b;
  }
  return p;
}

class MriGridding : public KernelPort {
 public:
  MriGridding(uint32_t grid, uint32_t samples, uint32_t binsize, uint64_t seed)
      : g_(grid), n_(samples), binsize_(binsize), seed_(seed) {
    cells_ = uint64_t(g_) * g_ * g_;
    cutoff_ = kKernelWidth / 2.0f;
    cutoff2_ = cutoff_ * cutoff_;
    inv_cutoff2_ = 1 / cutoff2_;
    beta_ = float(3.14159265359 * std::sqrt(4.0 * kKernelWidth * kKernelWidth / (kOversample * kOversample) *
                                                (kOversample - .5) * (kOversample - .5) -
                                            .8));
  }

  void setup(DeviceMemory& mem) override {
    const uint64_t npad = n_ % 64 ? 64 - n_ % 64 : 0, n4 = (uint64_t(n_) + 3) / 4 * 4;
    const uint64_t sorted_base = mem.alloc<float>("sortedSample_d", (n_ + npad) * 6).base();
    data_ = DeviceArray<F2>("sortedSample_d (data)", sorted_base, n_ + npad);
    loc_ = DeviceArray<F4>("sortedSample_d (loc)", sorted_base + 8 * (n_ + npad), n_ + npad);
    bin_start_ = mem.alloc<uint32_t>("binStartAddr_d", cells_ + 1);  // also binCount_d, cudaMemset 0
    sample_ = mem.alloc<float>("sample_d", uint64_t(n_) * 6);
    // The sort's buffers: n rounded up to 4 (the last uint4 of keys and values; the n-element buffers of
    // sort() get their 4-aligned tail written by splitRearrange, within cudaMalloc's alignment).
    keys_[0] = key_buf(mem, "idxKey_d", n4);
    values_[0] = key_buf(mem, "idxValue_d", n4);
    for (uint64_t i = n_; i < n4; ++i) keys_[0].u[i] = kMax;  // cudaMemset(idxKey_d + n, 0xFF)
    sort_grid_ = (n_ + 4 * kSortBs - 1) / (4 * kSortBs);
    digits_ = 0;
    for (uint64_t m = cells_ + 1; m > 0; m >>= kBits) ++digits_;
    histo_ = mem.alloc<uint32_t>("dhisto", uint64_t(1u << kBits) * sort_grid_);
    keys_[1] = key_buf(mem, "dkeys_o", n4);
    values_[1] = key_buf(mem, "dvalues_o", n4);
    for (uint32_t i = 0; i < digits_; ++i)
      sort_inter_.push_back(
          mem.alloc<uint32_t>("inter_d (sort)", scan_plan(sort_grid_ << kBits).current_max));
    cell_inter_ = mem.alloc<uint32_t>("inter_d (bins)", scan_plan(uint32_t(cells_ + 1)).current_max);
    grid_data_ = mem.alloc<F2>("gridData_d", cells_);
    density_ = mem.alloc<float>("sampleDensity_d", cells_);
    generate();
  }

  void run(Launcher& host) override {
    const uint32_t grid1 = (n_ + kBlock - 1) / kBlock;
    launch(host, "binning_kernel", {grid1, 1, 1}, {kBlock, 1, 1}, kRegsBin, 0,
           [this](Warp& w) { binning(w); });
    // sort(n, gridNumElems + 1, idxKey_d, idxValue_d): keys_[cur] and values_[cur] hold the input.
    uint32_t cur = 0;
    for (uint32_t it = 0; it < digits_; ++it) {
      keys_[cur].to_q();
      values_[cur].to_q();
      launch(host, "splitSort", {sort_grid_, 1, 1}, {kSortBs, 1, 1}, kRegsSort, kShmemSort,
             [this, it, cur](Warp& w) { split_sort(w, it, keys_[cur], values_[cur]); });
      scan_large(host, histo_, sort_grid_ << kBits, sort_inter_[it]);
      keys_[cur].to_q();
      values_[cur].to_q();
      launch(host, "splitRearrange", {sort_grid_, 1, 1}, {kSortBs, 1, 1}, kRegsRear, kShmemRear,
             [this, it, cur](Warp& w) {
               split_rearrange(w, it, keys_[cur], keys_[1 - cur], values_[cur], values_[1 - cur]);
             });
      cur = 1 - cur;
    }
    sorted_ = cur;
    launch(host, "reorder_kernel", {grid1, 1, 1}, {kBlock, 1, 1}, kRegsReo, 0,
           [this](Warp& w) { reorder(w); });
    scan_large(host, bin_start_, uint32_t(cells_ + 1), cell_inter_);
    cpu_start_ = bin_start_[cells_];  // the first sample of the CPU bin, read back by the host
    launch(host, "gridding_GPU", {g_ / 8, g_ * g_ / 32, 1}, {8, 4, 2}, kRegsGrid, kShmemGrid,
           [this](Warp& w) { gridding(w); });
  }

  std::string check() const override {
    const auto& keys = keys_[sorted_].u.host();
    const auto& values = values_[sorted_].u.host();
    // The sort: keys ascending, values a permutation; the GPU samples are those before the CPU bin.
    std::vector<uint32_t> seen(n_, 0);
    for (uint32_t i = 0; i < n_; ++i) {
      if (i && keys[i] < keys[i - 1]) return "sorted keys descend at " + std::to_string(i);
      if (values[i] >= n_ || seen[values[i]]++)
        return "sorted values are no permutation at " + std::to_string(i);
      if (keys[i] != cell_of(values[i]) && keys[i] != cells_)
        return "sample " + std::to_string(values[i]) + " has key " + std::to_string(keys[i]);
      if ((i < cpu_start_) != (keys[i] < cells_)) return "CPU bin starts at " + std::to_string(cpu_start_);
    }
    // Cells: at most binsize samples each, all of them when they fit; bin starts their exclusive scan.
    std::vector<uint32_t> total(cells_, 0), gpu(cells_, 0);
    for (uint32_t s = 0; s < n_; ++s) ++total[cell_of(s)];
    for (uint32_t i = 0; i < cpu_start_; ++i) ++gpu[keys[i]];
    uint32_t start = 0;
    for (uint64_t c = 0; c < cells_; ++c) {
      if (gpu[c] != std::min(total[c], binsize_))
        return "cell " + std::to_string(c) + " holds " + std::to_string(gpu[c]) + " GPU samples of " +
               std::to_string(total[c]);
      if (bin_start_[c] != start)
        return "binStartAddr[" + std::to_string(c) + "] = " + std::to_string(bin_start_[c]);
      start += gpu[c];
    }
    // Gridding of the GPU samples, in their sorted order (each point sums them in the kernel's order).
    std::vector<float> re(cells_, 0.0f), im(cells_, 0.0f), dens(cells_, 0.0f);
    const int64_t g = g_;
    for (uint32_t i = 0; i < cpu_start_; ++i) {
      const float* p = &sample_host_[size_t(values[i]) * 6];
      const float real = p[0], imag = p[1], kx = p[2], ky = p[3], kz = p[4], sdc = p[5];
      if (!((real != 0.0f || imag != 0.0f) && sdc != 0.0f)) continue;
      for (int64_t z = std::max<int64_t>(0, int64_t(kz) - 2); z <= std::min<int64_t>(g - 1, int64_t(kz) + 2);
           ++z)
        for (int64_t y = std::max<int64_t>(0, int64_t(ky) - 2);
             y <= std::min<int64_t>(g - 1, int64_t(ky) + 2); ++y)
          for (int64_t x = std::max<int64_t>(0, int64_t(kx) - 2);
               x <= std::min<int64_t>(g - 1, int64_t(kx) + 2); ++x) {
            const float v = dist(dist_xy(kx, ky, float(x), float(y)), kz, float(z));
            if (!(v < cutoff2_)) continue;
            const float wgt = weight(v, beta_, inv_cutoff2_, sdc);
            const size_t o = size_t((z * g + y) * g + x);
            re[o] += wgt * real;
            im[o] += wgt * imag;
            dens[o] += 1.0f;
          }
    }
    for (size_t o = 0; o < cells_; ++o)
      if (density_[o] != dens[o] || grid_data_[o].x != re[o] || grid_data_[o].y != im[o])
        return "grid point " + std::to_string(o) + ": (" + std::to_string(grid_data_[o].x) + ", " +
               std::to_string(grid_data_[o].y) + ") x " + std::to_string(density_[o]) + ", expected (" +
               std::to_string(re[o]) + ", " + std::to_string(im[o]) + ") x " + std::to_string(dens[o]);
    return "";
  }

 private:
  static KeyBuf key_buf(DeviceMemory& mem, const char* name, uint64_t n4) {
    KeyBuf b;
    b.u = mem.alloc<uint32_t>(name, n4);
    b.q = DeviceArray<U4>(std::string(name) + " (uint4)", b.u.base(), n4 / 4);
    return b;
  }

  uint32_t cell_of(uint32_t s) const {
    const float* p = &sample_host_[size_t(s) * 6];
    return uint32_t((uint64_t(p[4]) * g_ + uint64_t(p[3])) * g_ + uint64_t(p[2]));
  }

  template <class F>
  static void launch(Launcher& host, const char* name, Dim3 grid, Dim3 block, uint32_t regs, uint32_t shmem,
                     F body) {
    KernelLaunch k;
    k.name = name;
    k.grid = grid;
    k.block = block;
    k.regs_per_thread = regs;
    k.shmem_per_cta = shmem;
    k.body = std::move(body);
    host.launch(std::move(k));
  }

  void binning(Warp& w) {
    const Int idx = w.global_x();
    const int64_t g = g_;
    w.compute(kBinEntry);
    w.if_(idx < int64_t(n_), [&] {
      const Int kz = w.load(0x10, sample_, idx * 6 + 4).as<int64_t>();  // integral floats
      w.compute(kBinField);
      const Int ky = w.load(0x20, sample_, idx * 6 + 3).as<int64_t>();
      w.compute(kBinField);
      const Int kx = w.load(0x30, sample_, idx * 6 + 2).as<int64_t>();
      const Int bin = kz * (g * g) + ky * g + kx;
      w.compute(kBinCount);
      const Int count = w.load(0x40, bin_start_, bin).as<int64_t>();
      Int key = int64_t(cells_);
      w.if_(count < int64_t(binsize_), [&] {
        w.compute(kBinAtomic);
        const Int old = w.atomic_add(0x50, bin_start_, bin, 1u).as<int64_t>();
        w.if_else(
            old < int64_t(binsize_), [&] { set_active(w, key, bin); },
            [&] {
              w.compute(kBinAtomic);
              w.atomic_add(0x60, bin_start_, bin, kMax);  // atomicSub(.., 1)
            });
      });
      w.compute(kBinKey);
      w.store(0x70, keys_[0].u, idx, key);
      w.compute(kBinValue);
      w.store(0x80, values_[0].u, idx, idx);
    });
  }

  // sort.cu's scan(): an exclusive scan of 4 x blockDim packed counts in shared memory, the total at 4B.
  static void block_scan(Warp& w, std::vector<uint32_t>& s) {
    const int64_t b = w.block_dim().x;
    const Int& t = w.thread_in_block();
    auto add = [&](const Int& dst, const Int& src) {
      w.shared_store(s, dst, (w.shared_load(s, dst) + w.shared_load(s, src)) & kMax);
    };
    w.sync();
    add(t * 2 + 1, t * 2);
    add((t + b) * 2 + 1, (t + b) * 2);
    int64_t stride = 2;
    for (int64_t d = b; d > 0; d >>= 1) {
      w.sync();
      w.compute(kSortStep);
      w.if_(t < d, [&] {
        const Int ai = t * (2 * stride) + stride - 1;
        add(ai + stride, ai);
      });
      stride *= 2;
    }
    w.if_(t == 0, [&] {
      w.shared_store(s, Int(4 * b), w.shared_load(s, Int(4 * b - 1)));
      w.shared_store(s, Int(4 * b - 1), 0u);
    });
    for (int64_t d = 1; d <= b; d *= 2) {
      stride >>= 1;
      w.sync();
      w.compute(kSortDown);
      w.if_(t < d, [&] {
        const Int ai = t * (2 * stride) + stride - 1, bi = ai + stride;
        const Lanes<uint32_t> x = w.shared_load(s, ai);
        w.shared_store(s, ai, w.shared_load(s, bi));
        w.shared_store(s, bi, (w.shared_load(s, bi) + x) & kMax);
      });
    }
    w.sync();
    for (const Int& i : {t * 2, (t + b) * 2}) {
      const Lanes<uint32_t> x = w.shared_load(s, i);
      w.shared_store(s, i, w.shared_load(s, i + 1));
      w.shared_store(s, i + 1, (w.shared_load(s, i + 1) + x) & kMax);
    }
    w.sync();
  }

  void split_sort(Warp& w, uint32_t iter, KeyBuf& keys, KeyBuf& values) {
    const int64_t bid = w.block_idx().x, gdx = w.grid_dim().x, b = w.block_dim().x;
    const Int& t = w.thread_in_block();
    const Int gid = t * 4 + bid * 4 * kSortBs;
    auto& flags = w.shared<uint32_t>(0, 4 * kSortBs + 1);
    auto& histo_s = w.shared<uint32_t>(1, 1u << kBits);
    const int64_t mask = (int64_t(1) << (kBits * (iter + 1))) - 1, shift = kBits * iter;
    Int k[4] = {Int(int64_t(kMax)), Int(int64_t(kMax)), Int(int64_t(kMax)), Int(int64_t(kMax))};
    Int v[4];
    w.compute(kSortEntry);
    w.if_(gid < int64_t(n_), [&] {
      const Lanes<U4> lk = w.load(0x10, keys.q, gid / 4);
      w.compute(kSortValue);
      const Lanes<U4> lv = w.load(0x20, values.q, gid / 4);
      unpack(w, lk, k);
      unpack(w, lv, v);
    });
    w.compute(kSortZero);
    w.if_(t < int64_t(1u << kBits), [&] { w.shared_store(histo_s, t, 0u); });
    w.sync();
    for (const Int& key : k) {
      w.compute(kSortAtomic);
      shared_atomic_inc(w, histo_s, (key & mask) >> shift);
    }
    Int index[4] = {t * 4, t * 4 + 1, t * 4 + 2, t * 4 + 3};
    for (int64_t i = shift; i < shift + kBits; ++i) {
      Int flag[4];
      for (int c = 0; c < 4; ++c) {
        flag[c] = (k[c] >> i) & 1;
        w.compute(kSortFlags);
        w.shared_store(flags, index[c], Int(1) << (flag[c] * 16));
      }
      block_scan(w, flags);
      for (int c = 0; c < 4; ++c)
        index[c] = (w.shared_load(flags, index[c]).as<int64_t>() >> (flag[c] * 16)) & 0xffff;
      const Int offset = w.shared_load(flags, Int(4 * b)).as<int64_t>() & 0xffff;
      for (int c = 0; c < 4; ++c) index[c] = index[c] + select<int64_t>(flag[c] != 0, offset, int64_t(0));
      w.compute(kSortTail);
      w.sync();
    }
    w.if_(gid < int64_t(n_), [&] {
      const int64_t base = bid * 4 * kSortBs;
      for (int c = 0; c < 4; ++c) {
        w.compute(kSortStore);
        w.store(0x30 + uint32_t(c) * 0x10, keys.u, index[c] + base, k[c]);
      }
      for (int c = 0; c < 4; ++c) {
        w.compute(1);
        w.store(0x70 + uint32_t(c) * 0x10, values.u, index[c] + base, v[c]);
      }
    });
    w.if_(t < int64_t(1u << kBits), [&] {
      const Lanes<uint32_t> h = w.shared_load(histo_s, t);
      w.compute(kSortHisto);
      w.store(0xb0, histo_, t * gdx + bid, h);
    });
  }

  static void unpack(const Warp& w, const Lanes<U4>& q, Int (&out)[4]) {
    Int c[4];
    for (unsigned l = 0; l < kWarpSize; ++l)
      c[0].v[l] = q.v[l].x, c[1].v[l] = q.v[l].y, c[2].v[l] = q.v[l].z, c[3].v[l] = q.v[l].w;
    for (int i = 0; i < 4; ++i) {
      c[i].deps = q.deps;
      set_active(w, out[i], c[i]);
    }
  }

  void split_rearrange(Warp& w, uint32_t iter, KeyBuf& keys_i, KeyBuf& keys_o, KeyBuf& values_i,
                       KeyBuf& values_o) {
    const int64_t bid = w.block_idx().x, gdx = w.grid_dim().x;
    const Int& t = w.thread_in_block();
    const Int index = t * 4 + bid * 4 * kSortBs;
    auto& histo_s = w.shared<uint32_t>(0, 1u << kBits);
    auto& array_s = w.shared<uint32_t>(1, 4 * kSortBs);
    const int64_t mask = (int64_t(1) << (kBits * (iter + 1))) - 1, shift = kBits * iter;
    w.compute(kRearEntry);
    w.if_(t < int64_t(1u << kBits), [&] {
      const Lanes<uint32_t> h = w.load(0x10, histo_, t * gdx + bid);
      w.shared_store(histo_s, t, h);
    });
    Int mine[4] = {Int(int64_t(kMax)), Int(int64_t(kMax)), Int(int64_t(kMax)), Int(int64_t(kMax))};
    Int value[4];
    w.compute(kRearKeys);
    w.if_(index < int64_t(n_), [&] {
      const Lanes<U4> lk = w.load(0x20, keys_i.q, index / 4);
      w.compute(kRearValues);
      const Lanes<U4> lv = w.load(0x30, values_i.q, index / 4);
      unpack(w, lk, mine);
      unpack(w, lv, value);
    });
    Int masks[4];
    for (int c = 0; c < 4; ++c) masks[c] = (mine[c] & mask) >> shift;
    w.compute(kRearMasks);
    for (unsigned l = 0; l < kWarpSize; ++l)  // ((uint4*)array_s)[threadIdx.x] = masks: one st.shared.v4
      if (w.active() >> l & 1)
        for (int c = 0; c < 4; ++c) array_s.at(size_t(t.v[l] * 4 + c)) = uint32_t(masks[c].v[l]);
    w.compute(1);
    w.sync();
    Int ni[4];
    for (int c = 0; c < 4; ++c) ni[c] = w.shared_load(histo_s, masks[c]).as<int64_t>();
    Int i = t * 4 - 1;
    w.while_([&] { return i >= 0; },
             [&] {
               w.compute(kRearWalk);
               const Int a = w.shared_load(array_s, i).as<int64_t>();
               w.break_if(a != masks[0]);
               set_active(w, ni[0], ni[0] + 1);
               set_active(w, i, i - 1);
             });
    for (int c = 1; c < 4; ++c) ni[c] = select<int64_t>(masks[c] == masks[c - 1], ni[c - 1] + 1, ni[c]);
    w.compute(kRearStore);
    w.if_(index < int64_t(n_), [&] {
      for (int c = 0; c < 4; ++c) {
        if (c) w.compute(kRearNext);
        w.store(0x40 + uint32_t(c) * 0x20, keys_o.u, ni[c], mine[c]);
        w.compute(1);
        w.store(0x50 + uint32_t(c) * 0x20, values_o.u, ni[c], value[c]);
      }
    });
  }

  // scanLargeArray(num, data) with its intermediate array: an exclusive scan in place.
  void scan_large(Launcher& host, DeviceArray<uint32_t>& data, uint32_t num, DeviceArray<uint32_t>& inter) {
    const ScanPlan p = scan_plan(num);
    if (p.size > 65535)
      throw std::runtime_error("mri-gridding: scanLargeArray beyond one grid of 65535 CTAs");
    std::fill(inter.host().begin(), inter.host().end(), 0u);  // cudaMemset
    DeviceArray<uint32_t>* d = &data;
    DeviceArray<uint32_t>* in = &inter;
    launch(host, "scan_L1_kernel", {p.size, 1, 1}, {kScanBlock / 2, 1, 1}, kRegsScan, kShmemScan,
           [d, in, num](Warp& w) { scan_l1(w, *d, *in, num); });
    uint32_t stride = 1;
    for (uint32_t dd = p.current_max; dd > 1; dd /= p.dim_block) {
      launch(host, "scan_inter1_kernel", {dd / p.dim_block, 1, 1}, {p.dim_block / 2, 1, 1}, kRegsInter,
             expanded(p.dim_block) * 4, [in, stride](Warp& w) { scan_inter(w, *in, stride, true); });
      stride *= p.dim_block;
    }
    inter[p.current_max - 1] = 0;  // cudaMemset
    for (uint32_t dd = p.dim_block; dd <= p.current_max; dd *= p.dim_block) {
      stride /= p.dim_block;
      launch(host, "scan_inter2_kernel", {dd / p.dim_block, 1, 1}, {p.dim_block / 2, 1, 1}, kRegsInter,
             expanded(p.dim_block) * 4, [in, stride](Warp& w) { scan_inter(w, *in, stride, false); });
    }
    launch(host, "uniformAdd", {p.size, 1, 1}, {kScanBlock / 2, 1, 1}, kRegsAdd, kShmemAdd,
           [d, in, num](Warp& w) { uniform_add(w, *d, *in, num); });
  }

  static void scan_l1(Warp& w, DeviceArray<uint32_t>& data, DeviceArray<uint32_t>& inter, uint32_t n) {
    const int64_t b = w.block_dim().x, bid = w.block_idx().x;
    const Int& t = w.thread_in_block();
    const Int g_ai = t + bid * 2 * b, g_bi = g_ai + b;
    auto& s = w.shared<uint32_t>(0, expanded(kScanBlock));
    w.compute(kScanEntry);
    for (int h = 0; h < 2; ++h) {
      const Int& g = h ? g_bi : g_ai;
      Lanes<uint32_t> x = 0u;
      if (h) w.compute(kScanSecond);
      w.if_(g < int64_t(n), [&] { set_active(w, x, w.load(0x10 + uint32_t(h) * 0x10, data, g)); });
      w.compute(kScanShared);
      w.shared_store(s, t + h * b, x);
    }
    int64_t stride = 1;
    for (int64_t d = b; d > 0; d >>= 1) {
      w.compute(kScanSync);
      w.sync();
      w.if_(t < d, [&] {
        w.compute(kScanUp);
        const Int ai = t * (2 * stride) + stride - 1, bi = ai + stride;
        w.shared_store(s, bi, (w.shared_load(s, bi) + w.shared_load(s, ai)) & kMax);
      });
      stride *= 2;
    }
    w.if_(t == 0, [&] {
      w.compute(kScanTotal);
      const Lanes<uint32_t> last = w.shared_load(s, Int(2 * b - 1));
      w.compute(4);
      w.store(0x30, inter, Int(bid), last);
      w.shared_store(s, Int(2 * b - 1), 0u);
    });
    for (int64_t d = 1; d <= b; d *= 2) {
      stride >>= 1;
      w.compute(3);
      w.sync();
      w.if_(t < d, [&] {
        w.compute(kScanDown);
        const Int ai = t * (2 * stride) + stride - 1, bi = ai + stride;
        const Lanes<uint32_t> x = w.shared_load(s, ai);
        w.shared_store(s, ai, w.shared_load(s, bi));
        w.shared_store(s, bi, (w.shared_load(s, bi) + x) & kMax);
      });
    }
    w.compute(4);
    w.sync();
    w.if_(g_ai < int64_t(n), [&] { w.store(0x40, data, g_ai, w.shared_load(s, t)); });
    w.if_(g_bi < int64_t(n), [&] {
      w.compute(1);
      w.store(0x50, data, g_bi, w.shared_load(s, t + b));
    });
  }

  // scan_inter1_kernel (up: the reduction tree) or scan_inter2_kernel (down: the distribution).
  static void scan_inter(Warp& w, DeviceArray<uint32_t>& data, uint32_t iter, bool up) {
    const int64_t b = w.block_dim().x;
    const Int& t = w.thread_in_block();
    const Int g_ai = w.global_x() * (2 * int64_t(iter)) + iter - 1, g_bi = g_ai + iter;
    auto& s = w.shared<uint32_t>(0, expanded(uint32_t(2 * b)));
    const uint32_t pc = up ? 0x10 : 0x50;
    w.compute(kInterEntry);
    w.shared_store(s, t * 2, w.load(pc, data, g_ai));
    w.compute(kInterShared + kInterSecond);
    w.shared_store(s, t * 2 + 1, w.load(pc + 0x10, data, g_bi));
    w.compute(kInterShared);
    if (up) {
      int64_t stride = 1;
      for (int64_t d = b; d > 0; d >>= 1) {
        w.sync();
        w.if_(t < d, [&] {
          w.compute(kScanUp);
          const Int ai = t * (2 * stride) + stride - 1, bi = ai + stride;
          w.shared_store(s, bi, (w.shared_load(s, bi) + w.shared_load(s, ai)) & kMax);
        });
        stride *= 2;
      }
    } else {
      int64_t stride = 2 * b;
      for (int64_t d = 1; d <= b; d *= 2) {
        stride >>= 1;
        w.sync();
        w.if_(t < d, [&] {
          w.compute(kScanDown);
          const Int ai = t * (2 * stride) + stride - 1, bi = ai + stride;
          const Lanes<uint32_t> x = w.shared_load(s, ai);
          w.shared_store(s, ai, w.shared_load(s, bi));
          w.shared_store(s, bi, (w.shared_load(s, bi) + x) & kMax);
        });
      }
    }
    w.compute(4);
    w.sync();
    w.store(pc + 0x20, data, g_ai, w.shared_load(s, t * 2));
    w.compute(1);
    w.store(pc + 0x30, data, g_bi, w.shared_load(s, t * 2 + 1));
  }

  static void uniform_add(Warp& w, DeviceArray<uint32_t>& data, DeviceArray<uint32_t>& inter, uint32_t n) {
    const int64_t b = w.block_dim().x, bid = w.block_idx().x;
    const Int& t = w.thread_in_block();
    auto& uni = w.shared<uint32_t>(0, 1);
    w.if_(t == 0, [&] {
      w.compute(kAddEntry);
      w.shared_store(uni, Int(0), w.load(0x10, inter, Int(bid)));
    });
    w.compute(1);
    w.sync();
    const Int g_ai = t + bid * 2 * b, g_bi = g_ai + b;
    for (int h = 0; h < 2; ++h) {
      const Int& g = h ? g_bi : g_ai;
      w.if_(g < int64_t(n), [&] {
        w.compute(h ? kAddLoad : kAddFirst);
        const Lanes<uint32_t> u = w.shared_load(uni, Int(0));
        w.compute(kAddLoad);
        const Lanes<uint32_t> x = w.load(0x20 + uint32_t(h) * 0x20, data, g);
        w.compute(1);
        w.store(0x30 + uint32_t(h) * 0x20, data, g, (x + u) & kMax);
      });
    }
  }

  void reorder(Warp& w) {
    const Int idx = w.global_x();
    w.compute(kReoEntry);
    w.if_(idx < int64_t(n_), [&] {
      const Int old = w.load(0x10, values_[sorted_].u, idx).as<int64_t>() * 6;
      w.compute(kReoSample);
      const Float im = w.load(0x20, sample_, old + 1), re = w.load(0x30, sample_, old);
      const Float sdc = w.load(0x40, sample_, old + 5), kz = w.load(0x50, sample_, old + 4);
      const Float ky = w.load(0x60, sample_, old + 3), kx = w.load(0x70, sample_, old + 2);
      Lanes<F2> d;
      Lanes<F4> l;
      for (unsigned i = 0; i < kWarpSize; ++i) {
        d.v[i] = {re.v[i], im.v[i]};
        l.v[i] = {kx.v[i], ky.v[i], kz.v[i], sdc.v[i]};
      }
      d.deps = re.deps;
      d.deps |= im.deps;
      l.deps = kx.deps;
      l.deps |= ky.deps;
      l.deps |= kz.deps;
      l.deps |= sdc.deps;
      w.store(0x80, data_, idx, d);
      w.compute(kReoLoc);
      w.store(0x90, loc_, idx, l);
    });
  }

  void gridding(Warp& w) {
    const int64_t g = g_, xy = g * g, bdx = 8, bdy = 4, bdz = 2;
    const Int& tx = w.thread_idx_x();
    const Int& ty = w.thread_idx_y();
    const Int& tz = w.thread_idx_z();
    const Int& flat = w.thread_in_block();
    const int64_t by = w.block_idx().y;
    const int64_t z0 = 4 * bdz * (by / (g / bdy)), y0 = bdy * (by % (g / bdy)), x0 = w.block_idx().x * bdx;
    const Int X = x0 + tx, Y = y0 + ty, Z = z0 + tz;
    const int64_t c = int64_t(std::ceil(cutoff_));
    const int64_t xL = std::max<int64_t>(x0 - c, 0), yL = std::max<int64_t>(y0 - c, 0);
    const int64_t zL = std::max<int64_t>(z0 - c, 0);
    const int64_t xh = int64_t(float(x0 + bdx) + cutoff_), yh = int64_t(float(y0 + bdy) + cutoff_);
    const int64_t zh = int64_t(float(z0 + 4 * bdz) + cutoff_);
    const int64_t xH = xh >= g ? g - 1 : xh, yH = yh >= g ? g - 1 : yh, zH = zh >= g ? g - 1 : zh;
    const Int idx = Z * xy + Y * g + X;
    const Float fx = X.as<float>(), fy = Y.as<float>();
    Float fz[4];
    for (int k = 0; k < 4; ++k) fz[k] = (Z + k * bdz).as<float>();
    Float ptx[4], pty[4], dens[4];
    std::vector<float>* sh[6];
    for (unsigned a = 0; a < 6; ++a) sh[a] = &w.shared<float>(a, kTile);
    w.compute(kGridEntry);
    for (int64_t z = zL; z <= zH; ++z)
      for (int64_t y = yL; y <= yH; ++y) {
        const int64_t row = z * xy + y * g;
        w.compute(kGridRow);
        const Lanes<uint32_t> e = w.load(0x10, bin_start_, Int(row + xH + 1));
        const Lanes<uint32_t> s = w.load(0x20, bin_start_, Int(row + xL));
        const uint32_t start = s.v[0], delta = e.v[0] - start;  // the same for every thread
        w.compute(kGridTiles);
        for (uint32_t x = 0; x < (delta + kTile - 1) / kTile; ++x) {
          const int64_t tile = std::min<uint32_t>(delta - x * kTile, kTile);
          w.compute(kGridTile);
          w.sync();
          w.if_(flat < tile, [&] {
            const Int at = flat + int64_t(start) + int64_t(x) * kTile;
            w.compute(kGridData);
            const Lanes<F2> d = w.load(0x30, data_, at);
            w.compute(kGridLoc);
            const Lanes<F4> l = w.load(0x40, loc_, at);
            Float f[6];
            for (unsigned i = 0; i < kWarpSize; ++i) {
              f[0].v[i] = d.v[i].x, f[1].v[i] = d.v[i].y;
              f[2].v[i] = l.v[i].x, f[3].v[i] = l.v[i].y, f[4].v[i] = l.v[i].z, f[5].v[i] = l.v[i].w;
            }
            for (unsigned a = 0; a < 6; ++a) {
              f[a].deps = a < 2 ? d.deps : l.deps;
              w.shared_store(*sh[a], flat, f[a]);
            }
          });
          w.compute(kGridTileEnd);
          w.sync();
          for (int64_t j = 0; j < tile; ++j) {
            w.compute(kGridSample);
            const Float real = w.shared_load(*sh[0], Int(j)), imag = w.shared_load(*sh[1], Int(j));
            const Float sdc = w.shared_load(*sh[5], Int(j));
            w.if_((real != 0.0f || imag != 0.0f) && sdc != 0.0f, [&] {
              w.compute(kGridValid);
              const Float kx = w.shared_load(*sh[2], Int(j)), ky = w.shared_load(*sh[3], Int(j));
              const Float kz = w.shared_load(*sh[4], Int(j));
              Float v0;
              for (unsigned i = 0; i < kWarpSize; ++i) v0.v[i] = dist_xy(kx.v[i], ky.v[i], fx.v[i], fy.v[i]);
              for (int k = 0; k < 4; ++k) {
                Float v;
                for (unsigned i = 0; i < kWarpSize; ++i) v.v[i] = dist(v0.v[i], kz.v[i], fz[k].v[i]);
                w.compute(kGridTest);
                w.if_(v < cutoff2_, [&] {
                  w.compute(kGridHit);
                  for (uint32_t b = w.active(); b; b &= b - 1) {
                    const unsigned i = unsigned(__builtin_ctz(b));
                    const float wgt = weight(v.v[i], beta_, inv_cutoff2_, sdc.v[i]);
                    ptx[k].v[i] += wgt * real.v[i];
                    pty[k].v[i] += wgt * imag.v[i];
                    dens[k].v[i] += 1.0f;
                  }
                });
              }
            });
            w.compute(kGridNext);
          }
        }
        w.compute(kGridRowEnd);
      }
    w.compute(kGridStore);
    for (int k = 0; k < 4; ++k) {
      Lanes<F2> p;
      for (unsigned i = 0; i < kWarpSize; ++i) p.v[i] = {ptx[k].v[i], pty[k].v[i]};
      if (k) w.compute(1);
      w.store(0x50 + uint32_t(k) * 0x20, grid_data_, idx + k * bdz * xy, p);
      w.compute(k ? 1 : 3);
      w.store(0x60 + uint32_t(k) * 0x20, density_, idx + k * bdz * xy, dens[k]);
    }
  }

  // Radial k-space trajectories (sample density falling as 1 / r^2 from the centre, as Parboil's input):
  // a uniform direction and radius per sample, kX/kY/kZ floored onto the grid as readSampleData does;
  // real and imaginary parts uniform in [-1, 1), density compensation r^2 + 0.01.
  void generate() {
    uint64_t s = seed_;
    sample_host_.resize(size_t(n_) * 6);
    const double half = (g_ - 1) / 2.0;
    for (uint32_t i = 0; i < n_; ++i) {
      const double u = 2 * uniform(s) - 1, phi = 6.283185307179586 * uniform(s), r = uniform(s);
      const double q = std::sqrt(1 - u * u);
      float* p = &sample_host_[size_t(i) * 6];
      p[0] = float(2 * uniform(s) - 1);
      p[1] = float(2 * uniform(s) - 1);
      p[2] = float(std::floor(r * q * std::cos(phi) * half + half));
      p[3] = float(std::floor(r * q * std::sin(phi) * half + half));
      p[4] = float(std::floor(r * u * half + half));
      p[5] = float(r * r + 0.01);
    }
    sample_.host() = sample_host_;
  }

  uint32_t g_, n_, binsize_;
  uint64_t seed_;
  uint64_t cells_ = 0;
  float cutoff_ = 0, cutoff2_ = 0, inv_cutoff2_ = 0, beta_ = 0;
  uint32_t sort_grid_ = 0, digits_ = 0, sorted_ = 0, cpu_start_ = 0;
  std::vector<float> sample_host_;
  DeviceArray<F2> data_;
  DeviceArray<F4> loc_;
  DeviceArray<uint32_t> bin_start_, histo_, cell_inter_;
  DeviceArray<float> sample_;
  KeyBuf keys_[2], values_[2];
  std::vector<DeviceArray<uint32_t>> sort_inter_;
  DeviceArray<F2> grid_data_;
  DeviceArray<float> density_;
};

}  // namespace

void register_parboil_mri_gridding(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/mri-gridding";
  p.suite = "Parboil 2.5, CUDA";
  p.source =
      "github.com/abduld/Parboil @a4c63da, benchmarks/mri-gridding/src/cuda (CUDA_interface.cu, "
      "GPU_kernels.cu, "
      "sort.cu, scanLargeArray.cu, main.cu)";
  p.input =
      "Parboil's only mri-gridding input is small (small.uks: 2,655,910 k-space samples onto a 256^3 grid, "
      "kernel width 5, run with binsize 32; a data file): replaced by seeded radial trajectories (sample "
      "density falling as 1 / r^2 from the centre), scaled to 1/32.8 of the grid cells with the same samples "
      "per cell: an 80^3 grid, 81,053 samples, binsize 32 (grid = 80, samples = 81053, binsize = 32, "
      "seed = 1). Kernel width 5 and oversampling 5 (the parameters a public driver gives small.uks; they "
      "set "
      "the weights only). The full input is 33x the gridding work (62 M memory instructions). 37 launches "
      "(binning, 5 sort digits of splitSort, scanLargeArray's 4 kernels and splitRearrange, reorder, the "
      "cell "
      "counts' scan, gridding_GPU): 2.52 M warp instructions (memory and barriers; gridding_GPU 1.89 M, "
      "splitSort 0.32 M), 122 M with compute. The samples beyond binsize are gridded by the host "
      "(gridding_CPU, no GPU access)";
  p.papers = "TSC (000), reuse distance (003)";
  p.kernels =
      "binning_kernel, splitSort, splitRearrange, scan_L1_kernel, scan_inter1_kernel, scan_inter2_kernel, "
      "uniformAdd, reorder_kernel, gridding_GPU";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t grid = s.get_uint("grid", 80, 8, 512);
    const uint64_t samples = s.get_uint("samples", 81053, 1, uint64_t(1) << 26);
    const uint64_t binsize = s.get_uint("binsize", 32, 1, 1 << 20);
    const uint64_t seed = s.get_uint("seed", 1);
    if (grid % 8)
      throw ConfigError("parboil/mri-gridding: grid must be a multiple of 8 (gridding_GPU's tiles)");
    return std::make_unique<MriGridding>(uint32_t(grid), uint32_t(samples), uint32_t(binsize), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
