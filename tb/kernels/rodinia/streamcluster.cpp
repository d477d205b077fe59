// Rodinia 3.1 streamcluster (CUDA; PARSEC's online k-median): the host code's pgain() launches
// kernel_compute_cost once per candidate center x: every point (a thread) computes its weighted distance to
// x from the dimension-major coordinates (coord[i * num + tid], a coalesced row, and coord[i * num + x], one
// address for the whole warp), then either marks itself to switch (switch_membership) and adds the saving
// to its own work_mem segment at index K, or adds the loss at the index of its current center
// (work_mem[tid * stride + center_table[p[tid].assign]]: a data-dependent index). The host then sums the
// segments, decides whether to open x and close centers, and updates the points (host only).
//
// What runs here: the benchmark's generator (srand48(1); SimStream: every coordinate lrand48() / INT_MAX,
// weights 1), the start of pkmedian on the first chunk as the source does it (hiz from the distances to
// point 0, z = hiz / 2, shuffle, pspeedy until at least kmin centers with the source's lower-z retries,
// selectfeasible_fast, then pFL's first intshuffle of the feasible centers), and the first `launches`
// pgain calls of pFL (x = feasible[i % numfeasible]), each one kernel launch followed by the host's serial
// part. The rest of the run (pFL's remaining ~180 pgain calls per round, the binary search over z, later
// chunks) repeats the same kernel over the same arrays with other x.
//
// pgain cudaMallocs work_mem_d (stride * (num + 1) floats) each call, before the other arrays on the first
// call, and frees it at the end; here it is allocated once at that place, large enough for the largest
// stride the run reaches (a call opens at most one center). p is the host's Point array copied as is (32 B
// per point: weight at 0, the coordinate pointer at 8, assign (a long) at 16, cost at 24); the kernel
// reads weight, cost and assign from it.
#include <climits>
#include <cmath>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

constexpr int64_t kThreads = 512;          // THREADS_PER_BLOCK
constexpr int64_t kKmin = 10, kKmax = 20;  // the run's k1, k2
constexpr int kSp = 1, kIter = 3;          // SP, ITER

// ptxas -v (nvcc 13.0 -arch=sm_75; sm_70 is no longer supported): registers per thread, no shared memory.
constexpr uint32_t kRegs = 56;
// PTX instructions (nvcc --ptx -arch=sm_75) before each global access on the path taken. The distance
// loop is unrolled by 4: the pair of coordinate loads of dimension i follows 42 (i = 0, with the
// prologue), 4, 4, 6 instructions for i % 4 = 0 (after the loop's back branch), 1, 2, 3; a remainder
// loop (dim % 4) has 17 before its first pair and 7 before the others.
constexpr uint32_t kGapFirst = 42, kGapUnrolled[4] = {6, 4, 4, 6}, kGapRemFirst = 17, kGapRem = 7;
constexpr uint32_t kGapWeight = 11, kGapCost = 1;
constexpr uint32_t kGapSwitch = 5, kGapCostAgain = 0, kGapLowerK = 5, kGapStoreK = 1;
constexpr uint32_t kGapAssign = 4, kGapTable = 3, kGapLower = 3, kGapStore = 1;

// drand48's generator (POSIX: X = (0x5DEECE66D X + 11) mod 2^48, lrand48 = X >> 17).
struct Rand48 {
  uint64_t x;
  explicit Rand48(long seed) : x((uint64_t(uint32_t(seed)) << 16) | 0x330e) {}
  long lrand48() {
    x = (0x5deece66dull * x + 0xb) & ((1ull << 48) - 1);
    return long(x >> 17);
  }
};

struct HostPoint {
  float weight = 1;
  int64_t coord = 0;  // the point's row in the generated block
  long assign = 0;
  float cost = 0;
};

// The host's state between kernels: the points (shuffled), centers and feasible list.
struct ScState {
  std::vector<HostPoint> p;
  std::vector<uint8_t> is_center;
  std::vector<int32_t> center_table;
  long k = 0;  // numcenters
  std::vector<int> feasible;
  float z = 0;
  std::vector<float> gains;  // what each pgain returned
};

class StreamCluster : public KernelPort {
 public:
  StreamCluster(int64_t num, int64_t dim, int launches) : num_(num), dim_(dim), launches_(launches) {}

  float dist(const HostPoint& a, const HostPoint& b) const {
    float r = 0.0f;
    for (int64_t i = 0; i < dim_; ++i) {
      const float d = block_[size_t(a.coord * dim_ + i)] - block_[size_t(b.coord * dim_ + i)];
      r += d * d;
    }
    return r;
  }

  void setup(DeviceMemory& mem) override {
    Rand48 rng(1);
    block_.resize(size_t(num_ * dim_));
    for (auto& c : block_) c = float(rng.lrand48()) / float(INT_MAX);
    ScState& s = init_;
    s.p.resize(size_t(num_));
    for (int64_t i = 0; i < num_; ++i) s.p[size_t(i)].coord = i;
    s.is_center.assign(size_t(num_), 0);
    s.center_table.assign(size_t(num_), 0);
    // pkmedian up to pFL's first round.
    float hiz = 0, loz = 0;
    float myhiz = 0;
    for (int64_t kk = 0; kk < num_; ++kk) myhiz += dist(s.p[size_t(kk)], s.p[0]) * s.p[size_t(kk)].weight;
    hiz += myhiz;
    float z = float((hiz + loz) / 2.0);
    auto shuffle = [&] {
      for (int64_t i = 0; i < num_ - 1; ++i) {
        const int64_t j = rng.lrand48() % (num_ - i) + i;
        std::swap(s.p[size_t(i)], s.p[size_t(j)]);
      }
    };
    auto speedy = [&] {
      for (auto& q : s.p) {
        q.cost = dist(q, s.p[0]) * q.weight;
        q.assign = 0;
      }
      s.k = 1;
      for (int64_t i = 1; i < num_; ++i) {
        const bool to_open = (float(rng.lrand48()) / float(INT_MAX)) < (s.p[size_t(i)].cost / z);
        if (!to_open) continue;
        ++s.k;
        for (auto& q : s.p) {
          const float d = dist(s.p[size_t(i)], q);
          if (d * q.weight < q.cost) {
            q.cost = d * q.weight;
            q.assign = long(i);
          }
        }
      }
    };
    shuffle();
    speedy();
    int i = 0;
    while (s.k < kKmin && i < kSp) {
      speedy();
      ++i;
    }
    while (s.k < kKmin) {
      if (i >= kSp) {
        hiz = z;
        z = float((hiz + loz) / 2.0);
        i = 0;
      }
      shuffle();
      speedy();
      ++i;
    }
    // selectfeasible_fast.
    int numfeasible = int(num_);
    if (double(numfeasible) > (kIter * kKmin * std::log(float(kKmin))))
      numfeasible = int(kIter * kKmin * std::log(float(kKmin)));
    s.feasible.assign(size_t(numfeasible), 0);
    if (numfeasible == num_) {
      for (int f = 0; f < numfeasible; ++f) s.feasible[size_t(f)] = f;
    } else {
      std::vector<float> acc(static_cast<size_t>(num_));
      acc[0] = s.p[0].weight;
      for (int64_t q = 1; q < num_; ++q) acc[size_t(q)] = acc[size_t(q - 1)] + s.p[size_t(q)].weight;
      const float total = acc[size_t(num_ - 1)];
      for (int f = 0; f < numfeasible; ++f) {
        const float wv = (float(rng.lrand48()) / float(INT_MAX)) * total;
        int l = 0, r = int(num_ - 1);
        if (acc[0] > wv) {
          s.feasible[size_t(f)] = 0;
          continue;
        }
        while (l + 1 < r) {
          const int k = (l + r) / 2;
          (acc[size_t(k)] > wv ? r : l) = k;
        }
        s.feasible[size_t(f)] = r;
      }
    }
    for (const auto& q : s.p) s.is_center[size_t(q.assign)] = 1;
    // pFL: the first round's intshuffle.
    for (int f = 0; f < numfeasible; ++f) {
      const int j = int(rng.lrand48() % (numfeasible - f)) + f;
      std::swap(s.feasible[size_t(f)], s.feasible[size_t(j)]);
    }
    s.z = z;

    max_stride_ = s.k + launches_ + 1;
    work_mem_ = mem.alloc<float>("work_mem_d", size_t(max_stride_ * (num_ + 1)));
    center_table_ = mem.alloc<int32_t>("center_table_d", size_t(num_));
    switch_ = mem.alloc<uint8_t>("switch_membership_d", size_t(num_));
    p_ = mem.alloc<float>("p", size_t(8 * num_));
    p_assign_ = DeviceArray<int64_t>("p.assign", p_.base(), size_t(4 * num_));
    coord_ = mem.alloc<float>("coord_d", size_t(num_ * dim_));
    for (int64_t d = 0; d < dim_; ++d)
      for (int64_t j = 0; j < num_; ++j)
        coord_[size_t(num_ * d + j)] = block_[size_t(s.p[size_t(j)].coord * dim_ + d)];
  }

  void run(Launcher& host) override {
    st_ = init_;
    for (int c = 0; c < launches_; ++c) {
      const long x = st_.feasible[size_t(c % int(st_.feasible.size()))];
      const int64_t stride = st_.k + 1;
      prepare(st_);
      for (int64_t j = 0; j < num_; ++j) {  // cudaMemcpy of p: the fields the kernel reads
        p_[size_t(8 * j)] = st_.p[size_t(j)].weight;
        p_[size_t(8 * j + 6)] = st_.p[size_t(j)].cost;
        p_assign_[size_t(4 * j + 2)] = st_.p[size_t(j)].assign;
      }
      center_table_.host() = st_.center_table;
      std::fill(switch_.host().begin(), switch_.host().end(), 0);
      std::fill(work_mem_.host().begin(), work_mem_.host().end(), 0.0f);
      host.launch(kernel(x, stride));
      std::vector<float> work(work_mem_.host().begin(), work_mem_.host().begin() + stride * (num_ + 1));
      serial(st_, x, work, switch_.host());
    }
  }

  std::string check() const override {
    ScState s = init_;
    std::vector<float> work;
    std::vector<uint8_t> sw;
    for (int c = 0; c < launches_; ++c) {
      const long x = s.feasible[size_t(c % int(s.feasible.size()))];
      const int64_t stride = s.k + 1, K = s.k;
      prepare(s);
      work.assign(size_t(stride * (num_ + 1)), 0.0f);
      sw.assign(size_t(num_), 0);
      for (int64_t t = 0; t < num_; ++t) {
        float r = 0.0f;
        for (int64_t i = 0; i < dim_; ++i) {
          const float d = coord_[size_t(i * num_ + t)] - coord_[size_t(i * num_ + x)];
          r += d * d;
        }
        const HostPoint& q = s.p[size_t(t)];
        const float x_cost = r * q.weight;
        if (x_cost < q.cost) {
          sw[size_t(t)] = 1;
          work[size_t(t * stride + K)] += x_cost - q.cost;
        } else {
          work[size_t(t * stride + s.center_table[size_t(q.assign)])] += q.cost - x_cost;
        }
      }
      serial(s, x, work, sw);
    }
    if (s.k != st_.k) return "numcenters " + std::to_string(st_.k) + ", expected " + std::to_string(s.k);
    for (size_t c = 0; c < s.gains.size(); ++c)
      if (s.gains[c] != st_.gains[c])
        return "pgain " + std::to_string(c) + " = " + std::to_string(st_.gains[c]) + ", expected " +
               std::to_string(s.gains[c]);
    for (size_t i = 0; i < s.p.size(); ++i)
      if (s.p[i].assign != st_.p[i].assign || s.p[i].cost != st_.p[i].cost ||
          s.is_center[i] != st_.is_center[i])
        return "point " + std::to_string(i) + " differs";
    return "";
  }

 private:
  // pgain before the kernel: the center table.
  void prepare(ScState& s) const {
    int count = 0;
    for (int64_t i = 0; i < num_; ++i)
      if (s.is_center[size_t(i)]) s.center_table[size_t(i)] = count++;
  }

  // pgain after the kernel (CPU (SERIAL) WORK), on the downloaded work_mem and switch_membership.
  void serial(ScState& s, long x, std::vector<float>& work, const std::vector<uint8_t>& sw) const {
    const int64_t stride = s.k + 1, K = s.k;
    int closed = 0;
    float gl_cost = s.z;
    float* gl_lower = &work[size_t(stride * num_)];
    for (int64_t i = 0; i < num_; ++i) {
      if (s.is_center[size_t(i)]) {
        float low = s.z;
        for (int64_t j = 0; j < num_; ++j) low += work[size_t(j * stride + s.center_table[size_t(i)])];
        gl_lower[s.center_table[size_t(i)]] = low;
        if (low > 0) {
          ++closed;
          work[size_t(i * stride + K)] -= low;
        }
      }
      gl_cost += work[size_t(i * stride + K)];
    }
    if (gl_cost < 0) {
      for (int64_t i = 0; i < num_; ++i) {
        const bool close_center = gl_lower[s.center_table[size_t(s.p[size_t(i)].assign)]] > 0;
        if (sw[size_t(i)] || close_center) {
          s.p[size_t(i)].cost = dist(s.p[size_t(i)], s.p[size_t(x)]) * s.p[size_t(i)].weight;
          s.p[size_t(i)].assign = x;
        }
      }
      for (int64_t i = 0; i < num_; ++i)
        if (s.is_center[size_t(i)] && gl_lower[s.center_table[size_t(i)]] > 0) s.is_center[size_t(i)] = 0;
      if (x >= 0 && x < num_) s.is_center[size_t(x)] = 1;
      s.k = s.k + 1 - closed;
    } else {
      gl_cost = 0;
    }
    s.gains.push_back(-gl_cost);
  }

  KernelLaunch kernel(long x, int64_t stride) {
    const int64_t blocks = int64_t(float(num_ + kThreads - 1) / float(kThreads));
    const int64_t by = int64_t(float(blocks + 65536 - 1) / float(65536));
    const int64_t bx = int64_t(float(blocks + by - 1) / float(by));
    KernelLaunch k{
        "kernel_compute_cost", {uint32_t(bx), uint32_t(by), 1}, {uint32_t(kThreads), 1, 1}, kRegs, 0, {}};
    const int64_t K = stride - 1;
    k.body = [this, x, stride, K](Warp& w) {
      const int64_t num = num_, dim = dim_;
      const int64_t bid = int64_t(w.block_idx().x) + int64_t(w.grid_dim().x) * int64_t(w.block_idx().y);
      const Int tid = int64_t(w.block_dim().x) * bid + w.thread_idx_x();
      w.if_(tid < num, [&] {
        const Int lower = tid * stride;
        Float r = 0.0f;
        const int64_t unrolled = dim - dim % 4;
        for (int64_t i = 0; i < dim; ++i) {
          w.compute(i == 0          ? kGapFirst
                    : i < unrolled  ? kGapUnrolled[i % 4]
                    : i == unrolled ? kGapRemFirst
                                    : kGapRem);
          const Float a = w.load(0x10, coord_, i * num + tid);
          const Float b = w.load(0x20, coord_, Int(i * num + x));
          const Float d = a - b;
          r = r + d * d;
        }
        w.compute(kGapWeight);
        const Float x_cost = r * w.load(0x30, p_, tid * 8);
        w.compute(kGapCost);
        const Float cost = w.load(0x40, p_, tid * 8 + 6);
        w.if_else(
            x_cost < cost,
            [&] {
              w.compute(kGapSwitch);
              w.store(0x50, switch_, tid, uint8_t(1));
              w.compute(kGapCostAgain);
              const Float c2 = w.load(0x60, p_, tid * 8 + 6);
              w.compute(kGapLowerK);
              const Float l = w.load(0x70, work_mem_, lower + K);
              w.compute(kGapStoreK);
              w.store(0x80, work_mem_, lower + K, l + (x_cost - c2));
            },
            [&] {
              w.compute(kGapAssign);
              const Int assign = w.load(0x90, p_assign_, tid * 4 + 2);
              w.compute(kGapTable);
              const Int c = w.load(0xa0, center_table_, assign).as<int64_t>();
              w.compute(kGapLower);
              const Float l = w.load(0xb0, work_mem_, lower + c);
              w.compute(kGapStore);
              w.store(0xc0, work_mem_, lower + c, l + (cost - x_cost));
            });
      });
    };
    return k;
  }

  int64_t num_, dim_;
  int launches_;
  int64_t max_stride_ = 0;
  std::vector<float> block_;  // the generated points, point-major
  ScState init_, st_;
  DeviceArray<float> work_mem_, p_, coord_;
  DeviceArray<int32_t> center_table_;
  DeviceArray<uint8_t> switch_;
  DeviceArray<int64_t> p_assign_;  // p's assign fields (the same addresses as p)
};

}  // namespace

void register_rodinia_streamcluster(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/streamcluster";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia (Rodinia 3.1), cuda/streamcluster/streamcluster_cuda.cu + "
      "streamcluster_cuda_cpu.cpp @ 9c10d3e";
  p.input =
      "Rodinia's run: sc_gpu 10 20 256 65536 65536 1000 (65,536 generated points of 256 dimensions in one "
      "chunk, k 10..20: coord_d 64 MiB), hundreds of pgain launches. Default here: the same points and "
      "footprint (about 90x the fermi LLC), the host's pkmedian start as in the source, then the first 4 "
      "pgain "
      "launches (each 2,048 warps of 2 x 256 coordinate loads): 4.27 M warp instructions";
  p.papers = "TSC/TSC+ (000, streamcluster)";
  p.kernels = "kernel_compute_cost";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t points = s.get_uint("points", 65536, 64, 1 << 22);
    const uint64_t dim = s.get_uint("dim", 256, 1, 1024);
    const uint64_t launches = s.get_uint("launches", 4, 1, 1000);
    return std::make_unique<StreamCluster>(int64_t(points), int64_t(dim), int(launches));
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
