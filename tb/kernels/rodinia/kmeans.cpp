// Rodinia 3.1 kmeans (CUDA): invert_mapping transposes the points (row-major, point by point) into a
// feature-major copy once; then every iteration kmeansPoint gives each point (one thread) the index of its
// nearest cluster centre (squared Euclidean distance over the features, centres in constant memory) and
// stores it in membership; the host counts the changed memberships (delta), averages the points of each
// cluster into the new centres, and iterates while delta > threshold (0.001) for at most 500 more loops
// (kmeans_clustering.c). The defaults of kmeans.c: 5 clusters (min = max = 5), the first 5 points as the
// initial centres, one run (nloops 1). The features are read through a texture (tex1Dfetch): emitted as
// global loads (ld.global.nc on current GPUs); the centres' constant-memory reads are not global accesses
// and count as compute. BLOCK_DELTA_REDUCE / BLOCK_CENTER_REDUCE are off in the source: the reductions run
// on the host.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v on the kernels with tex1Dfetch as __ldg (CUDA 13 has no texture references).
constexpr uint32_t kInvertRegs = 30, kPointRegs = 30;
// PTX (nvcc --ptx -arch=sm_75) instructions between global memory instructions. Both inner loops are
// unrolled by 4 there; the per-element gaps are the unrolled body's averages.
constexpr uint32_t kInvertEntry = 28;   // to the first load
constexpr uint32_t kInvertLoad = 1;     // loop overhead before a load (5 per 4 elements)
constexpr uint32_t kInvertStore = 1;    // between a load and its store (4 per 4 elements)
constexpr uint32_t kPointEntry = 28;    // to the first cluster's loop
constexpr uint32_t kPointCluster = 15;  // a cluster's setup before its first feature load
constexpr uint32_t kPointFeature = 5;   // per feature: constant load, subtract, fma, loop (21 per 4)
constexpr uint32_t kPointCompare = 9;   // compare / select after a cluster
constexpr uint32_t kPointStore = 12;    // to the membership store

constexpr uint32_t kThreadsPerDim = 16;  // THREADS_PER_DIM: 256 threads per block
constexpr float kThreshold = 0.001f;     // kmeans.c's default

class Kmeans : public KernelPort {
 public:
  Kmeans(uint32_t points, uint32_t features, uint32_t clusters, uint32_t max_loops, uint64_t seed)
      : np_(points), nf_(features), nc_(clusters), max_loops_(max_loops), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // allocateMemory(): the block count, squared up to a square grid.
    const uint32_t threads = kThreadsPerDim * kThreadsPerDim;
    uint32_t blocks = (np_ + threads - 1) / threads;
    per_dim_ = uint32_t(std::sqrt(double(blocks)));
    while (per_dim_ * per_dim_ < blocks) ++per_dim_;
    flipped_ = mem.alloc<float>("feature_flipped_d", size_t(np_) * nf_);
    feature_ = mem.alloc<float>("feature_d", size_t(np_) * nf_);
    membership_ = mem.alloc<int32_t>("membership_d", np_);
    clusters_ = mem.alloc<float>("clusters_d", size_t(nc_) * nf_);
    // The input (kdd_cup's stand-in): points scattered around `nc_` random centres in [0, 1)^nf, each
    // feature centre +- 0.2 (uniform), seeded.
    std::mt19937_64 rng(seed_);
    auto unit = [&] { return float(rng() >> 40) / float(1u << 24); };
    std::vector<float> centres(size_t(nc_) * nf_);
    for (float& c : centres) c = unit();
    for (uint32_t p = 0; p < np_; ++p) {
      const uint32_t c = uint32_t(rng() % nc_);
      for (uint32_t f = 0; f < nf_; ++f)
        flipped_[size_t(p) * nf_ + f] = centres[size_t(c) * nf_ + f] + (unit() - 0.5f) * 0.2f;
    }
  }

  void run(Launcher& host) override {
    const uint32_t threads = kThreadsPerDim * kThreadsPerDim;
    KernelLaunch inv;
    inv.name = "invert_mapping";
    inv.grid = {per_dim_ * per_dim_, 1, 1};
    inv.block = {threads, 1, 1};
    inv.regs_per_thread = kInvertRegs;
    inv.body = [this](Warp& w) { invert(w); };
    host.launch(std::move(inv));

    // kmeans_clustering(): the first nc_ points are the initial centres.
    centres_.assign(flipped_.host().begin(), flipped_.host().begin() + size_t(nc_) * nf_);
    std::vector<int32_t> membership(np_, -1), membership_new(np_, -1);
    loops_ = 0;
    int loop = 0;
    float delta;
    do {
      membership_.host() = membership_new;
      for (size_t i = 0; i < centres_.size(); ++i) clusters_[i] = centres_[i];
      KernelLaunch k;
      k.name = "kmeansPoint";
      k.grid = {per_dim_, per_dim_, 1};
      k.block = {threads, 1, 1};
      k.regs_per_thread = kPointRegs;
      k.body = [this](Warp& w) { point(w); };
      host.launch(std::move(k));
      membership_new = membership_.host();
      delta = float(update(membership, membership_new, flipped_.host(), centres_));
      ++loops_;
    } while (delta > kThreshold && loop++ < int(max_loops_));
    membership_result_ = membership;
  }

  std::string check() const override {
    for (uint32_t p = 0; p < np_; ++p)
      for (uint32_t f = 0; f < nf_; ++f)
        if (feature_[size_t(f) * np_ + p] != flipped_[size_t(p) * nf_ + f])
          return "feature_d[" + std::to_string(f) + "][" + std::to_string(p) + "] not the transpose";
    // The same clustering, sequentially.
    const std::vector<float>& in = flipped_.host();
    std::vector<float> centres(in.begin(), in.begin() + size_t(nc_) * nf_);
    std::vector<int32_t> membership(np_, -1), membership_new(np_);
    uint32_t loops = 0;
    int loop = 0;
    float delta;
    do {
      for (uint32_t p = 0; p < np_; ++p) {
        float min_dist = FLT_MAX;
        int32_t index = -1;
        for (uint32_t c = 0; c < nc_; ++c) {
          float ans = 0.0f;
          for (uint32_t f = 0; f < nf_; ++f) {
            const float diff = in[size_t(p) * nf_ + f] - centres[size_t(c) * nf_ + f];
            ans = ans + diff * diff;
          }
          if (ans < min_dist) min_dist = ans, index = int32_t(c);
        }
        membership_new[p] = index;
      }
      delta = float(update(membership, membership_new, in, centres));
      ++loops;
    } while (delta > kThreshold && loop++ < int(max_loops_));
    if (loops != loops_)
      return "iterations " + std::to_string(loops_) + ", expected " + std::to_string(loops);
    for (uint32_t p = 0; p < np_; ++p)
      if (membership_result_[p] != membership[p])
        return "membership[" + std::to_string(p) + "] = " + std::to_string(membership_result_[p]) +
               ", expected " + std::to_string(membership[p]);
    return "";
  }

  uint32_t loops() const { return loops_; }

 private:
  // kmeansCuda()'s host part and the centre update of kmeans_clustering(): returns delta.
  int update(std::vector<int32_t>& membership, const std::vector<int32_t>& membership_new,
             const std::vector<float>& in, std::vector<float>& centres) const {
    std::vector<float> sums(size_t(nc_) * nf_, 0.0f);
    std::vector<int32_t> len(nc_, 0);
    int delta = 0;
    for (uint32_t p = 0; p < np_; ++p) {
      const int32_t c = membership_new[p];
      ++len[size_t(c)];
      if (membership_new[p] != membership[p]) {
        ++delta;
        membership[p] = membership_new[p];
      }
      for (uint32_t f = 0; f < nf_; ++f) sums[size_t(c) * nf_ + f] += in[size_t(p) * nf_ + f];
    }
    for (uint32_t c = 0; c < nc_; ++c)
      for (uint32_t f = 0; f < nf_; ++f)
        if (len[c] > 0) centres[size_t(c) * nf_ + f] = sums[size_t(c) * nf_ + f] / float(len[c]);
    return delta;
  }

  void invert(Warp& w) {
    const Int p = w.global_x();
    const int64_t np = np_, nf = nf_;
    w.compute(kInvertEntry);
    w.if_(p < np, [&] {
      for (int64_t i = 0; i < nf; ++i) {
        w.compute(kInvertLoad);
        const Float v = w.load(0x10, flipped_, p * nf + i);
        w.compute(kInvertStore);
        w.store(0x20, feature_, p + np * i, v);
      }
    });
  }

  void point(Warp& w) {
    const int64_t block_id = int64_t(w.grid_dim().x) * w.block_idx().y + w.block_idx().x;
    const Int p = w.thread_idx_x() + block_id * int64_t(w.block_dim().x) * int64_t(w.block_dim().y);
    const int64_t np = np_, nf = nf_;
    Int index = -1;
    w.compute(kPointEntry);
    w.if_(p < np, [&] {
      Float min_dist = FLT_MAX;
      for (int64_t c = 0; c < int64_t(nc_); ++c) {
        Float ans = 0.0f;
        w.compute(kPointCluster);
        for (int64_t f = 0; f < nf; ++f) {
          w.compute(kPointFeature);
          const Float x = w.load(0x110, feature_, p + f * np);
          const Float diff = x - centres_[size_t(c * nf + f)];  // c_clusters: constant memory
          ans = ans + diff * diff;
        }
        w.compute(kPointCompare);
        const Bool closer = ans < min_dist;
        min_dist = select<float>(closer, ans, min_dist);
        index = select<int64_t>(closer, Int(c), index);
      }
    });
    w.compute(kPointStore);
    w.if_(p < np, [&] { w.store(0x120, membership_, p, index); });
  }

  uint32_t np_, nf_, nc_, max_loops_;
  uint64_t seed_;
  uint32_t per_dim_ = 1, loops_ = 0;
  std::vector<float> centres_;  // c_clusters
  std::vector<int32_t> membership_result_;
  DeviceArray<float> flipped_, feature_;
  DeviceArray<int32_t> membership_;
  DeviceArray<float> clusters_;
};

}  // namespace

void register_rodinia_kmeans(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/kmeans";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia cuda/kmeans (kmeans_cuda.cu, kmeans_cuda_kernel.cu, kmeans_clustering.c; "
      "Rodinia 3.1), commit 9c10d3e";
  p.input =
      "original: kdd_cup, 494,020 points x 34 features (the run script's; 2 x 67 MB of features, 2.6 M warp "
      "instructions per iteration), a data file not shipped. Scaled: 8,192 points x 34 features (2 x 1.1 MB, "
      "3x the fermi L2 together), from a seeded generator (points around 5 random centres, each feature "
      "+-0.1 uniform); 5 clusters, threshold 0.001, at most 500 more loops (kmeans.c's defaults): 48 "
      "iterations. Size keys: points, features, clusters, max_loops, seed";
  p.papers = "TSC (000), G-Cache (001)";
  p.kernels = "invert_mapping, kmeansPoint";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t points = s.get_uint("points", 8192, 1, uint64_t(1) << 22);
    const uint64_t features = s.get_uint("features", 34, 1, 34);  // c_clusters holds 32 x 34 floats
    const uint64_t clusters = s.get_uint("clusters", 5, 1, 32);
    const uint64_t max_loops = s.get_uint("max_loops", 500, 0, 100000);
    const uint64_t seed = s.get_uint("seed", 1);
    if (clusters > points) throw ConfigError("rodinia/kmeans: more clusters than points");
    return std::make_unique<Kmeans>(uint32_t(points), uint32_t(features), uint32_t(clusters),
                                    uint32_t(max_loops), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
