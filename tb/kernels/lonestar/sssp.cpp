// LonestarGPU sssp, the topology-driven variant ("sssp", one node per thread, as in LonestarGPU 1.02 and
// kept as the default variant of LonestarGPU 2.0): single-source shortest paths from node 0 by repeated
// Bellman-Ford sweeps. `initialize` sets every distance to infinity (the host then copies 0 into dist[0]);
// `drelax` runs one sweep: each thread relaxes the out-edges of MAXBLOCKSIZE / blockDim.x consecutive nodes
// with atomicMin on the destination's distance and raises the `changed` flag when it lowered one; the host
// relaunches drelax until a sweep changes nothing; `dverifysolution` then counts edges that could still be
// relaxed (a plain, racy ++ on the error counter, as in the source). The graph is the suite's CSR (Graph in
// include/graph.h): edge arrays are 1-based (psrc[src] = 1 + first edge), and every edge lookup goes through
// noutgoing, srcsrc and psrc again (getDestination / getWeight), which the compiled code keeps (nvcc 13,
// sm_75 PTX): 8 loads per edge before the distances. The loop over a node's edges is unrolled twice in the
// PTX; the port walks it edge by edge with the per-edge counts of the remainder copy.
// Atomic order: distances after the last sweep are the unique shortest distances whatever order the
// atomicMins were applied in, so check() compares them with Dijkstra's; the number of sweeps may differ
// between orders (it is whatever this run needed).
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <utility>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v (CUDA 13) on apps/sssp/main.cu -DVARIANT=0: initialize 8, drelax 42,
// dverifysolution 40 registers. The source launches 1024-thread blocks, which on Fermi (32768 registers
// per SM) launch only with <= 32 registers: the sm_75 count includes printf's frame; we use 32 for the two.
constexpr uint32_t kInitRegs = 8, kRelaxRegs = 32, kVerifyRegs = 32;
// PTX instructions between consecutive global memory instructions (nvcc --ptx -arch=sm_75, counted on the
// path where every bound check passes).
constexpr uint32_t kInitEntry = 12;
constexpr uint32_t kRelaxEntry = 39,  // parameters, start/end, first node's bound check
    kNodeToEdges = 13,                // degree == 0 test, pointers, unroll split
    kDegToSrc = 3, kSrcToPsrc = 5, kPsrcToDst = 9, kDstToDeg = 3, kWtToDist = 3, kDistSrcToDst = 3,
                   kDistToAtomic = 2, kAtomicTail = 3, kEdgeTail = 3, kNodeEnd = 3, kNodeLoop = 3;
constexpr uint32_t kVerifyEntry = 28, kVerifyNodeToEdges = 16, kVerifyWtToDist = 2, kVerifyDistToErr = 2,
                   kVerifyErrToStore = 1;
constexpr uint32_t kMaxBlockSize = 1024;    // MAXBLOCKSIZE (include/common.h)
constexpr uint32_t kInfinity = 1000000000;  // MYINFINITY (include/graph.h)

// dst = true in the active lanes where c holds.
void set_where(const Warp& w, Bool& dst, const Bool& c) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    if (c.v[l]) dst.v[l] = true;
  }
  dst.deps |= c.deps;
}

class Sssp : public KernelPort {
 public:
  Sssp(uint32_t scale, uint32_t edge_factor, uint32_t max_weight, uint32_t block, uint64_t seed)
      : scale_(scale), edge_factor_(edge_factor), max_weight_(max_weight), block_(block), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // R-MAT (GTgraph's defaults a, b, c, d = 0.45, 0.15, 0.15, 0.25), 2^scale nodes, edge_factor * 2^scale
    // directed edges (duplicates kept, self loops dropped and redrawn), weights uniform in [1, max_weight].
    n_ = uint32_t(1) << scale_;
    const uint64_t m = uint64_t(edge_factor_) * n_;
    std::mt19937_64 rng(seed_);
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adj(n_);
    for (uint64_t e = 0; e < m;) {
      uint32_t src = 0, dst = 0;
      for (uint32_t bit = 0; bit < scale_; ++bit) {
        const double r = u01(rng);
        const uint32_t right = r >= 0.45 && r < 0.60 ? 1 : r >= 0.75 ? 1 : 0;
        const uint32_t down = r >= 0.60 ? 1 : 0;
        src = src << 1 | down;
        dst = dst << 1 | right;
      }
      const uint32_t wt = uint32_t(rng() % max_weight_) + 1;
      if (src == dst) continue;
      adj[src].emplace_back(dst, wt);
      ++e;
    }
    m_ = uint32_t(m);
    // Graph::allocOnDevice's order, then main's nerr and dist, then sssp()'s changed.
    edgessrcdst_ = mem.alloc<uint32_t>("edgessrcdst", size_t(m_) + 1);
    edgessrcwt_ = mem.alloc<uint32_t>("edgessrcwt", size_t(m_) + 1);
    psrc_ = mem.alloc<uint32_t>("psrc", size_t(n_) + 1);
    noutgoing_ = mem.alloc<uint32_t>("noutgoing", n_);
    nincoming_ = mem.alloc<uint32_t>("nincoming", n_);
    srcsrc_ = mem.alloc<uint32_t>("srcsrc", n_);
    mem.alloc<uint32_t>("maxOutDegree", 1);
    mem.alloc<uint32_t>("maxInDegree", 1);
    nerr_ = mem.alloc<uint32_t>("nerr", 1);
    dist_ = mem.alloc<uint32_t>("dist", n_);
    changed_ = mem.alloc<uint8_t>("changed", 1);
    uint32_t next = 1;  // Graph::readFromGR: psrc is 1-based, edge 0 unused
    for (uint32_t i = 0; i < n_; ++i) {
      srcsrc_[i] = i;
      psrc_[i] = next;
      noutgoing_[i] = uint32_t(adj[i].size());
      for (const auto& [d, wt] : adj[i]) {
        edgessrcdst_[next] = d;
        edgessrcwt_[next] = wt;
        ++nincoming_[d];
        ++next;
      }
    }
    psrc_[n_] = next;
  }

  void run(Launcher& host) override {
    const uint32_t blocks = (n_ + block_ - 1) / block_;  // KernelConfig::setProblemSize(nnodes)
    KernelLaunch init;
    init.name = "initialize";
    init.grid = {blocks, 1, 1};
    init.block = {block_, 1, 1};
    init.regs_per_thread = kInitRegs;
    init.body = [this](Warp& w) { initialize(w); };
    host.launch(std::move(init));
    dist_[0] = 0;  // cudaMemcpy(&dist[0], &foruzero, ...)
    iterations_ = 0;
    do {
      ++iterations_;
      changed_[0] = 0;
      KernelLaunch k;
      k.name = "drelax";
      k.grid = {blocks, 1, 1};
      k.block = {block_, 1, 1};
      k.regs_per_thread = kRelaxRegs;
      k.body = [this](Warp& w) { drelax(w); };
      host.launch(std::move(k));
    } while (changed_[0] != 0);
    nerr_[0] = 0;
    KernelLaunch v;
    v.name = "dverifysolution";
    v.grid = {blocks, 1, 1};
    v.block = {block_, 1, 1};
    v.regs_per_thread = kVerifyRegs;
    v.body = [this](Warp& w) { verify(w); };
    host.launch(std::move(v));
  }

  std::string check() const override {
    std::vector<uint32_t> want(n_, kInfinity);
    using Item = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
    want[0] = 0;
    q.emplace(0, 0);
    while (!q.empty()) {
      const auto [d, u] = q.top();
      q.pop();
      if (d != want[u]) continue;
      for (uint32_t e = psrc_[u]; e < psrc_[u] + noutgoing_[u]; ++e) {
        const uint32_t v = edgessrcdst_[e];
        const uint64_t nd = d + edgessrcwt_[e];
        if (nd < want[v]) {
          want[v] = uint32_t(nd);
          q.emplace(nd, v);
        }
      }
    }
    for (uint32_t i = 0; i < n_; ++i)
      if (dist_[i] != want[i])
        return "dist[" + std::to_string(i) + "] = " + std::to_string(dist_[i]) + ", expected " +
               std::to_string(want[i]);
    if (nerr_[0] != 0) return "dverifysolution counted " + std::to_string(nerr_[0]) + " errors";
    return "";
  }

 private:
  void initialize(Warp& w) {
    const Int ii = w.global_x();
    w.compute(kInitEntry);
    w.if_(ii < int64_t(n_), [&] { w.store(0x10, dist_, ii, kInfinity); });
  }

  // Graph::getDestination / getWeight for edge ii of src (lanes where every bound check passes load the
  // edge; `out` keeps `otherwise` elsewhere). The same three lookups first, at PCs pc .. pc + 0x20.
  Lanes<uint32_t> edge_lookup(Warp& w, uint32_t pc, DeviceArray<uint32_t>& arr, const Int& src, const Int& ii,
                              uint32_t otherwise) {
    Lanes<uint32_t> out(otherwise);
    const Int deg = w.load(pc, noutgoing_, src).as<int64_t>();
    w.compute(kDegToSrc);
    w.if_(ii < deg, [&] {
      const Int ss = w.load(pc + 0x10, srcsrc_, src).as<int64_t>();
      w.compute(kSrcToPsrc);
      w.if_(ss < int64_t(n_), [&] {
        const Int edge = w.load(pc + 0x20, psrc_, ss).as<int64_t>() + ii;
        w.compute(kPsrcToDst);
        w.if_(edge != 0 && edge < int64_t(m_) + 1, [&] {
          const Lanes<uint32_t> v = w.load(pc + 0x30, arr, edge);
          for (uint32_t b = w.active(); b; b &= b - 1) {
            const unsigned l = unsigned(__builtin_ctz(b));
            out.v[l] = v.v[l];
          }
          out.deps |= v.deps;
        });
      });
    });
    return out;
  }

  void drelax(Warp& w) {
    const Int id = w.global_x();
    const int64_t per = int64_t(kMaxBlockSize / block_);
    w.compute(kRelaxEntry);
    w.for_(id * per, (id + 1) * per, Int(1), [&](const Int& nn) {
      Bool changed(false);
      w.if_(nn < int64_t(n_), [&] {  // processnode
        const Int deg = w.load(0x100, noutgoing_, nn).as<int64_t>();
        w.compute(kNodeToEdges);
        w.for_(Int(0), deg, Int(1), [&](const Int& ii) {  // processedge
          const Int dst = edge_lookup(w, 0x110, edgessrcdst_, nn, ii, n_).as<int64_t>();
          w.compute(kDstToDeg);
          w.if_(dst < int64_t(n_), [&] {
            const Lanes<uint32_t> wt = edge_lookup(w, 0x150, edgessrcwt_, nn, ii, kInfinity);
            w.compute(kWtToDist);
            w.if_(wt < kInfinity, [&] {
              const Lanes<uint32_t> alt = w.load(0x190, dist_, nn) + wt;
              w.compute(kDistSrcToDst);
              const Lanes<uint32_t> cur = w.load(0x1a0, dist_, dst);
              w.compute(kDistToAtomic);
              w.if_(alt < cur, [&] {
                const Lanes<uint32_t> old = w.atomic_min(0x1b0, dist_, dst, alt);
                w.compute(kAtomicTail);
                set_where(w, changed, alt < old);
              });
            });
          });
          w.compute(kEdgeTail);
        });
      });
      w.compute(kNodeEnd);
      w.if_(changed, [&] { w.store(0x1c0, changed_, Int(0), uint8_t(1)); });
      w.compute(kNodeLoop);
    });
  }

  void verify(Warp& w) {
    const Int nn = w.global_x();
    w.compute(kVerifyEntry);
    w.if_(nn < int64_t(n_), [&] {
      const Int deg = w.load(0x200, noutgoing_, nn).as<int64_t>();
      w.compute(kVerifyNodeToEdges);
      w.for_(Int(0), deg, Int(1), [&](const Int& ii) {
        const Int v = edge_lookup(w, 0x210, edgessrcdst_, nn, ii, n_).as<int64_t>();
        w.compute(kDstToDeg);
        const Lanes<uint32_t> wt = edge_lookup(w, 0x250, edgessrcwt_, nn, ii, kInfinity);
        w.compute(kVerifyWtToDist);
        w.if_(wt > 0u, [&] {
          const Lanes<uint32_t> du = w.load(0x290, dist_, nn) + wt;
          w.compute(kDistSrcToDst);
          const Lanes<uint32_t> dv = w.load(0x2a0, dist_, v);
          w.compute(kVerifyDistToErr);
          w.if_(du < dv, [&] {
            const Lanes<uint32_t> e = w.load(0x2b0, nerr_, Int(0));
            w.compute(kVerifyErrToStore);
            w.store(0x2c0, nerr_, Int(0), e + 1u);
          });
        });
        w.compute(kEdgeTail);
      });
    });
  }

  uint32_t scale_, edge_factor_, max_weight_, block_;
  uint64_t seed_;
  uint32_t n_ = 0, m_ = 0;
  uint32_t iterations_ = 0;
  DeviceArray<uint32_t> edgessrcdst_, edgessrcwt_, psrc_, noutgoing_, nincoming_, srcsrc_, nerr_, dist_;
  DeviceArray<uint8_t> changed_;  // CUDA bool: one byte
};

}  // namespace

void register_lonestar_sssp(PortRegistry& r) {
  PortInfo p;
  p.name = "lonestar/sssp";
  p.suite = "LonestarGPU 2.0";
  p.source =
      "LonestarGPU 2.0 apps/sssp (main.cu, sssp_ls.h: the topology-driven 'sssp' variant of LonestarGPU "
      "1.02; "
      "include/graph.h, kernelconfig.h), as in github.com/accel-sim/gpu-app-collection "
      "src/cuda/lonestargpu-2.0, commit 52c11fb";
  p.input =
      "The suite runs road networks (USA-road-d.*, up to 1M+ nodes: hundreds of sweeps, far over a minute "
      "of simulation). Default: an R-MAT graph (GTgraph's a,b,c,d = .45,.15,.15,.25) of 2^16 nodes and "
      "4 x 2^16 = 262,144 directed edges, weights uniform in 1..100, seed 1 (low diameter: few sweeps); "
      "footprint ~3.3 MB (edges 2 MB, node arrays 1 MB, dist 256 KB), several times Fermi's 768 KB L2 "
      "(cache unfriendly, as paper 002 classes SSSP). block = the device's maxThreadsDim.x (1024 from "
      "Fermi on; 512 or less on a small SM: each thread then relaxes 1024/block nodes, as the source does). "
      "Size keys: scale, edge_factor, max_weight, block, seed";
  p.papers = "Decoupled L1D (002)";
  p.kernels = "initialize, drelax, dverifysolution";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t scale = s.get_uint("scale", 16, 5, 24);
    const uint64_t ef = s.get_uint("edge_factor", 4, 1, 64);
    const uint64_t mw = s.get_uint("max_weight", 100, 1, 1000000);
    const uint64_t block = s.get_uint("block", 1024, 32, 1024);
    if (kMaxBlockSize % block != 0)
      throw ConfigError("lonestar/sssp: block " + std::to_string(block) + " must divide 1024");
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Sssp>(uint32_t(scale), uint32_t(ef), uint32_t(mw), uint32_t(block), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
