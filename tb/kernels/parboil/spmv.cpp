// Parboil SPMV (cuda version), y = A x in JDS format: spmv_jds, a thread per (sorted) row, launched 50 times
// by the host on the same input. The matrix is Parboil's coo_to_jds layout: rows sorted by length, longest
// first (d_perm maps a sorted row to its real row), groups of 32 rows padded to their longest row
// (sh_zcnt_int), JDS column k of all rows that have one stored from jds_ptr_int[k]; a padding entry holds
// 0.0 with column -1, so the kernel reads x_vec[-1] for it. The thread loads the first entry's value,
// column and x element, then walks its columns with a one-step software prefetch, and stores its sum to
// dst[perm[ix]]. jds_ptr_int and sh_zcnt_int are __constant__ arrays: constant-cache reads, no global
// access (not emitted; the model has no constant cache).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc 13.0 --ptx -arch=sm_75 (sm_70 is gone from CUDA 13) and ptxas -v: PTX between the memory instructions.
constexpr uint32_t kGapEntry = 25;  // index, bounds test, constant reads before the first value load
constexpr uint32_t kGapCol = 1, kGapX = 2;
constexpr uint32_t kGapSecond = 9;    // bound > 1 test and jds_ptr_int[1] before the second column load
constexpr uint32_t kGapLoopData = 3;  // per step (the remainder loop: 15 non-memory PTX per 3 loads;
constexpr uint32_t kGapLoopCol = 4;   // the 4x-unrolled loop's average is 9.5)
constexpr uint32_t kGapLoopX = 2;
constexpr uint32_t kGapLastData = 3, kGapLastX = 1;
constexpr uint32_t kGapPerm = 6, kGapStore = 3;
constexpr uint32_t kRegs = 34;  // ptxas -v, sm_75
constexpr int64_t kGuard = 64;  // x_vec[-1]: x lies 256 B into its allocation

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Spmv : public KernelPort {
 public:
  Spmv(uint32_t rows, uint64_t nnz_lower, uint32_t band, uint32_t iterations, uint64_t seed)
      : dim_(rows), nnz_lower_(nnz_lower), band_(band), iterations_(iterations), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    build_matrix();
    d_data_ = mem.alloc<float>("d_data", data_.size());
    d_index_ = mem.alloc<int32_t>("d_index", index_.size());
    d_ptr_ = mem.alloc<int32_t>("d_ptr", jds_ptr_.size());  // allocated, never read (constant memory is)
    d_perm_ = mem.alloc<int32_t>("d_perm", dim_);
    d_nzcnt_ = mem.alloc<int32_t>("d_nzcnt", nzcnt_.size());  // likewise
    d_x_ = mem.alloc<float>("d_x_vector", dim_ + kGuard);
    d_y_ = mem.alloc<float>("d_Ax_vector", dim_);  // cudaMemset to 0
    d_data_.host() = data_;
    d_index_.host() = index_;
    std::copy(perm_.begin(), perm_.end(), d_perm_.host().begin());
    for (uint32_t i = 0; i < dim_; ++i) d_x_[kGuard + i] = x_[i];
  }

  void run(Launcher& host) override {
    // compute_active_thread() for a Fermi-class GPU (15 SMs x 1536 threads; the fermi preset's): one warp
    // per CTA unless the groups' threads exceed the GPU's, then CTAs of 1536 / 8 = 192 threads.
    const uint64_t task = nzcnt_len_, pad = 32;
    uint32_t block = uint32_t(pad), grid = uint32_t(task);
    if (task * pad > 15u * 1536u) block = 1536 / 8, grid = uint32_t((task * pad + block - 1) / block);
    for (uint32_t it = 0; it < iterations_; ++it) {
      KernelLaunch k;
      k.name = "spmv_jds";
      k.block = {block, 1, 1};
      k.grid = {grid, 1, 1};
      k.regs_per_thread = kRegs;
      k.body = [this](Warp& w) { body(w); };
      host.launch(std::move(k));
    }
  }

  std::string check() const override {
    // Row by row in the JDS order of its entries (column order), as the kernel sums them (padding adds 0).
    for (uint32_t s = 0; s < dim_; ++s) {
      float sum = 0.0f;
      for (size_t e = row_start_[s]; e < row_start_[s + 1]; ++e)
        sum = sum + entries_[e].second * x_[entries_[e].first];
      const uint32_t row = uint32_t(perm_[s]);
      if (d_y_[row] != sum)
        return "y[" + std::to_string(row) + "] = " + std::to_string(d_y_[row]) + ", expected " +
               std::to_string(sum);
    }
    return "";
  }

 private:
  void body(Warp& w) {
    const Int ix = w.global_x();
    const Int warp_id = ix >> 5;
    w.compute(kGapEntry);
    w.if_(ix < int64_t(dim_), [&] {
      Float sum = 0.0f;
      const Int bound = constant(warp_id, nzcnt_);
      Int j = constant(Int(0), jds_ptr_) + ix;
      Float d = w.load(0x10, d_data_, j);
      w.compute(kGapCol);
      Int i = w.load(0x20, d_index_, j).as<int64_t>();
      w.compute(kGapX);
      Float t = w.load(0x30, d_x_, i + kGuard);
      w.if_(bound > 1, [&] {
        j = constant(Int(1), jds_ptr_) + ix;
        w.compute(kGapSecond);
        i = w.load(0x40, d_index_, j).as<int64_t>();
        w.for_(2, bound, 1, [&](const Int& k) {
          w.compute(kGapLoopData);
          const Float dn = w.load(0x50, d_data_, j);
          j = constant(k, jds_ptr_) + ix;
          w.compute(kGapLoopCol);
          const Int in = w.load(0x60, d_index_, j).as<int64_t>();
          w.compute(kGapLoopX);
          const Float tn = w.load(0x70, d_x_, i + kGuard);
          sum = sum + d * t;
          i = in;
          d = dn;
          t = tn;
        });
        w.compute(kGapLastData);
        const Float dn = w.load(0x80, d_data_, j);
        w.compute(kGapLastX);
        const Float tn = w.load(0x90, d_x_, i + kGuard);
        sum = sum + d * t;
        d = dn;
        t = tn;
      });
      sum = sum + d * t;
      w.compute(kGapPerm);
      const Int p = w.load(0xa0, d_perm_, ix).as<int64_t>();
      w.compute(kGapStore);
      w.store(0xb0, d_y_, p, sum);
    });
  }

  // A __constant__ array read lane by lane (no global access).
  static Int constant(const Int& idx, const std::vector<int32_t>& a) {
    Int r;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const int64_t x = idx.v[l];
      r.v[l] = x >= 0 && uint64_t(x) < a.size() ? a[size_t(x)] : 0;
    }
    r.deps = idx.deps;
    return r;
  }

  // A symmetric matrix like Parboil's medium input: the lower triangle holds the diagonal and nnz_lower -
  // rows entries at distinct random (row, row - d), 1 <= d <= band; mirrored (coo_to_jds's `mirrored`).
  // Values and x are uniform in [0.5, 1.5) and [0, 1). Then coo_to_jds's layout.
  void build_matrix() {
    uint64_t s = seed_;
    const uint64_t n = dim_;
    std::vector<std::pair<uint32_t, uint32_t>> lower;  // (row, col), col < row
    lower.reserve(nnz_lower_);
    std::vector<std::vector<uint32_t>> seen(n);
    const uint64_t off = nnz_lower_ > n ? nnz_lower_ - n : 0;
    uint64_t cap = 0;
    for (uint64_t r = 1; r < n; ++r) cap += std::min<uint64_t>(r, band_);
    while (lower.size() < std::min(off, cap)) {
      const uint32_t r = uint32_t(1 + splitmix(s) % (n - 1));
      const uint32_t c = r - uint32_t(1 + splitmix(s) % std::min<uint64_t>(r, band_));
      auto& v = seen[r];
      if (std::find(v.begin(), v.end(), c) != v.end()) continue;
      v.push_back(c);
      lower.push_back({r, c});
    }
    // Full matrix, CSR by row with columns ascending.
    std::vector<std::vector<std::pair<uint32_t, float>>> rows(n);
    for (uint32_t r = 0; r < n; ++r) rows[r].push_back({r, 0.5f + float(splitmix(s) % 1024) / 1024.0f});
    for (const auto& [r, c] : lower) {
      const float v = 0.5f + float(splitmix(s) % 1024) / 1024.0f;
      rows[r].push_back({c, v});
      rows[c].push_back({r, v});
    }
    for (auto& r : rows) std::sort(r.begin(), r.end());
    x_.resize(n);
    for (auto& v : x_) v = float(splitmix(s) % 4096) / 4096.0f;
    // Sorted by length, longest first (stable: equal rows keep their order).
    perm_.resize(n);
    for (uint32_t r = 0; r < n; ++r) perm_[r] = int32_t(r);
    std::stable_sort(perm_.begin(), perm_.end(),
                     [&](int32_t a, int32_t b) { return rows[size_t(a)].size() > rows[size_t(b)].size(); });
    entries_.clear();
    row_start_.assign(1, 0);
    for (uint32_t sr = 0; sr < n; ++sr) {
      for (const auto& e : rows[size_t(perm_[sr])]) entries_.push_back(e);
      row_start_.push_back(entries_.size());
    }
    // Groups of 32 padded to their first (longest) row; coo_to_jds pads the row count to 32 and sizes
    // nz_count rows/32 + rows%32.
    const uint64_t padded = (n + 31) / 32 * 32;
    nzcnt_len_ = padded / 32 + padded % 32;
    nzcnt_.assign(nzcnt_len_, 0);
    auto len = [&](uint64_t sr) { return sr < n ? uint64_t(row_start_[sr + 1] - row_start_[sr]) : 0; };
    for (uint64_t g = 0; g * 32 < padded; ++g) nzcnt_[g] = int32_t(len(g * 32));
    // JDS column k: every sorted row whose group reaches k, until the first that does not.
    data_.clear();
    index_.clear();
    jds_ptr_.clear();
    for (uint64_t k = 0; k < uint64_t(nzcnt_[0]); ++k) {
      jds_ptr_.push_back(int32_t(data_.size()));
      for (uint64_t sr = 0; sr < padded; ++sr) {
        if (uint64_t(nzcnt_[sr / 32]) <= k) break;
        if (k < len(sr)) {
          const auto& e = entries_[row_start_[sr] + k];
          data_.push_back(e.second);
          index_.push_back(int32_t(e.first));
        } else {
          data_.push_back(0.0f);
          index_.push_back(-1);
        }
      }
    }
    jds_ptr_.push_back(int32_t(data_.size()));  // data_ptr_len = depth + 1
  }

  uint32_t dim_;
  uint64_t nnz_lower_;
  uint32_t band_, iterations_;
  uint64_t seed_;
  uint64_t nzcnt_len_ = 0;
  std::vector<float> data_, x_;
  std::vector<int32_t> index_, jds_ptr_, nzcnt_, perm_;
  std::vector<std::pair<uint32_t, float>> entries_;  // (column, value), sorted rows one after the other
  std::vector<size_t> row_start_;
  DeviceArray<float> d_data_;
  DeviceArray<int32_t> d_index_, d_ptr_, d_perm_, d_nzcnt_;
  DeviceArray<float> d_x_, d_y_;
};

}  // namespace

void register_parboil_spmv(PortRegistry& r) {
  PortInfo p;
  p.name = "parboil/spmv";
  p.suite = "Parboil 2.5, CUDA";
  p.source =
      "github.com/abduld/Parboil @a4c63da, benchmarks/spmv/src/cuda (jds_kernels.cu, main.cu, gpu_info.cc; "
      "coo_to_jds from common_src/convert-dataset)";
  p.input =
      "Parboil's medium input is bcsstk18 (11,948 rows, 80,519 stored entries of a symmetric matrix, 149,090 "
      "after mirroring; a data file): replaced by a seeded symmetric matrix of the same size and nonzeros, "
      "entries within 400 of the diagonal (rows = 11948, nnz_lower = 80519, band = 400, seed = 1), in "
      "Parboil's JDS layout. 50 launches, as the source (iterations: 2 is paper 003's cap on Parboil's "
      "iterations)";
  p.papers = "TSC (000), G-Cache (001), reuse distance (003)";
  p.kernels = "spmv_jds";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t rows = s.get_uint("rows", 11948, 32, 4000 * 32);
    const uint64_t nnz = s.get_uint("nnz_lower", 80519, 1, uint64_t(1) << 26);
    const uint64_t band = s.get_uint("band", 400, 1, uint64_t(1) << 20);
    const uint64_t it = s.get_uint("iterations", 50, 1, 1000);
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Spmv>(uint32_t(rows), nnz, uint32_t(band), uint32_t(it), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
