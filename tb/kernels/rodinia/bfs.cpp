// Rodinia 3.1 bfs (CUDA): breadth-first search from node 0, one thread per node, the frontier as a mask.
// Kernel expands every frontier node's edges (cost of unvisited neighbours = own cost + 1, marked for the
// next level); Kernel2 turns the marks into the next frontier and raises the `over` flag. The host launches
// both until a level sets no flag. Global accesses follow the compiled code (nvcc 13, sm_75 PTX): the node's
// edge count is loaded before its start, and both are reloaded in the loop after the stores (they might
// alias). The input is the suite's graph generator (data/bfs/inputGen/graphgen.cpp) with a fixed seed.
#include <cstdint>
#include <queue>
#include <random>

#include "tb/kernels/port_registry.h"

namespace gms::kernels {

namespace {

// nvcc -arch=sm_75 -Xptxas -v (CUDA 13; sm_70 is no longer supported): registers per thread.
constexpr uint32_t kKernelRegs = 20, kKernel2Regs = 6;
// PTX instructions between consecutive global memory instructions (nvcc --ptx -arch=sm_75, counted).
constexpr uint32_t kK1Entry = 17, kK1MaskToClear = 3, kK1ClearToCount = 4, kK1CountToStart = 4,
                   kK1StartToLoop = 6, kK1EdgeToVisited = 1, kK1VisitedBranch = 2, kK1CostToStore = 3,
                   kK1StoreToMark = 2, kK1LoopTail = 5;
constexpr uint32_t kK2Entry = 14, kK2Flag = 5, kK2Mask = 2, kK2Visited = 1, kK2Over = 1;
constexpr uint32_t kMaxThreadsPerBlock = 512;  // MAX_THREADS_PER_BLOCK

// dst = src in the active lanes.
template <class T>
void assign(const Warp& w, Lanes<T>& dst, const Lanes<T>& src) {
  for (uint32_t b = w.active(); b; b &= b - 1) {
    const unsigned l = unsigned(__builtin_ctz(b));
    dst.v[l] = src.v[l];
  }
  dst.deps |= src.deps;
}

class Bfs : public KernelPort {
 public:
  Bfs(uint32_t nodes, uint64_t seed) : n_(nodes), seed_(seed) {}

  void setup(DeviceMemory& mem) override {
    // graphgen: node i gets 2..4 random edges (random weight 1..10), each also added in the reverse
    // direction, so a node has 6 edges on average; lists in node order.
    std::vector<std::vector<int32_t>> adj(n_);
    std::mt19937_64 rng(seed_);
    for (uint32_t i = 0; i < n_; ++i) {
      const uint32_t edges = uint32_t(rng() % 3) + 2;
      for (uint32_t j = 0; j < edges; ++j) {
        const uint32_t dest = uint32_t(rng() % n_);
        (void)(rng() % 10);  // the edge's weight: drawn as the generator does, unused by bfs
        adj[i].push_back(int32_t(dest));
        adj[dest].push_back(int32_t(i));
      }
    }
    size_t total = 0;
    for (const auto& a : adj) total += a.size();
    nodes_ = mem.alloc<int32_t>("graph_nodes", size_t(2) * n_);  // struct Node {starting, no_of_edges}
    edges_ = mem.alloc<int32_t>("graph_edges", total);
    mask_ = mem.alloc<uint8_t>("graph_mask", n_);
    updating_ = mem.alloc<uint8_t>("updating_graph_mask", n_);
    visited_ = mem.alloc<uint8_t>("graph_visited", n_);
    cost_ = mem.alloc<int32_t>("cost", n_, -1);
    over_ = mem.alloc<uint8_t>("over", 1);
    size_t e = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      nodes_[2 * i] = int32_t(e);
      nodes_[2 * i + 1] = int32_t(adj[i].size());
      for (int32_t d : adj[i]) edges_[e++] = d;
    }
    mask_[0] = 1;  // bfs.cu: the source is node 0
    visited_[0] = 1;
    cost_[0] = 0;
  }

  void run(Launcher& host) override {
    const uint32_t blocks = (n_ + kMaxThreadsPerBlock - 1) / kMaxThreadsPerBlock;
    const uint32_t threads = n_ > kMaxThreadsPerBlock ? kMaxThreadsPerBlock : n_;
    levels_ = 0;
    do {
      over_[0] = 0;
      KernelLaunch k1;
      k1.name = "Kernel";
      k1.grid = {blocks, 1, 1};
      k1.block = {threads, 1, 1};
      k1.regs_per_thread = kKernelRegs;
      k1.body = [this](Warp& w) { expand(w); };
      host.launch(std::move(k1));
      KernelLaunch k2;
      k2.name = "Kernel2";
      k2.grid = {blocks, 1, 1};
      k2.block = {threads, 1, 1};
      k2.regs_per_thread = kKernel2Regs;
      k2.body = [this](Warp& w) { advance(w); };
      host.launch(std::move(k2));
      ++levels_;
    } while (over_[0] != 0);
  }

  std::string check() const override {
    std::vector<int32_t> want(n_, -1);
    std::queue<uint32_t> q;
    want[0] = 0;
    q.push(0);
    while (!q.empty()) {
      const uint32_t u = q.front();
      q.pop();
      for (int32_t e = nodes_[2 * u]; e < nodes_[2 * u] + nodes_[2 * u + 1]; ++e) {
        const int32_t v = edges_[size_t(e)];
        if (want[size_t(v)] < 0) {
          want[size_t(v)] = want[u] + 1;
          q.push(uint32_t(v));
        }
      }
    }
    for (uint32_t i = 0; i < n_; ++i)
      if (cost_[i] != want[i])
        return "cost[" + std::to_string(i) + "] = " + std::to_string(cost_[i]) + ", expected " +
               std::to_string(want[i]);
    return "";
  }

 private:
  void expand(Warp& w) {
    const Int tid = int64_t(w.block_idx().x) * int64_t(kMaxThreadsPerBlock) + w.thread_idx_x();
    w.compute(kK1Entry);
    w.if_(tid < int64_t(n_), [&] {
      const Lanes<uint8_t> m = w.load(0x10, mask_, tid);
      w.compute(kK1MaskToClear);
      w.if_(m != 0, [&] {
        w.store(0x20, mask_, tid, 0);
        w.compute(kK1ClearToCount);
        Int count = w.load(0x30, nodes_, tid * 2 + 1).as<int64_t>();
        w.compute(kK1CountToStart);
        w.if_(count >= 1, [&] {
          Int start = w.load(0x40, nodes_, tid * 2).as<int64_t>();
          Int i = start;
          w.compute(kK1StartToLoop);
          w.while_([&] { return i < start + count; },
                   [&] {
                     const Int id = w.load(0x50, edges_, i).as<int64_t>();
                     w.compute(kK1EdgeToVisited);
                     const Lanes<uint8_t> seen = w.load(0x60, visited_, id);
                     w.compute(kK1VisitedBranch);
                     w.if_(seen == 0, [&] {
                       const Lanes<int32_t> c = w.load(0x70, cost_, tid);
                       w.compute(kK1CostToStore);
                       w.store(0x80, cost_, id, c + 1);
                       w.compute(kK1StoreToMark);
                       w.store(0x90, updating_, id, 1);
                       assign(w, count, w.load(0xa0, nodes_, tid * 2 + 1).as<int64_t>());
                       assign(w, start, w.load(0xb0, nodes_, tid * 2).as<int64_t>());
                     });
                     w.compute(kK1LoopTail);
                     i = i + 1;
                   });
        });
      });
    });
  }

  void advance(Warp& w) {
    const Int tid = int64_t(w.block_idx().x) * int64_t(kMaxThreadsPerBlock) + w.thread_idx_x();
    w.compute(kK2Entry);
    w.if_(tid < int64_t(n_), [&] {
      const Lanes<uint8_t> u = w.load(0x110, updating_, tid);
      w.compute(kK2Flag);
      w.if_(u != 0, [&] {
        w.store(0x120, mask_, tid, 1);
        w.compute(kK2Mask);
        w.store(0x130, visited_, tid, 1);
        w.compute(kK2Visited);
        w.store(0x140, over_, Int(0), 1);
        w.compute(kK2Over);
        w.store(0x150, updating_, tid, 0);
      });
    });
  }

  uint32_t n_;
  uint64_t seed_;
  uint32_t levels_ = 0;
  DeviceArray<int32_t> nodes_, edges_;
  DeviceArray<uint8_t> mask_, updating_, visited_;  // CUDA bool: one byte
  DeviceArray<int32_t> cost_;
  DeviceArray<uint8_t> over_;
};

}  // namespace

void register_rodinia_bfs(PortRegistry& r) {
  PortInfo p;
  p.name = "rodinia/bfs";
  p.suite = "Rodinia 3.1";
  p.source =
      "github.com/yuhc/gpu-rodinia cuda/bfs (bfs.cu, kernel.cu, kernel2.cu; Rodinia 3.1), commit 9c10d3e";
  p.input =
      "graph65536 (the suite's run script): 65,536 nodes from the suite's graphgen (2..4 random edges per "
      "node, each also reversed: ~6 edges per node, ~393K edges), seeded (seed 1) instead of time(); "
      "footprint ~2.3 MB, kept as the benchmark's standard input. Size keys: nodes, seed";
  p.papers = "TSC (000), G-Cache (001)";
  p.kernels = "Kernel, Kernel2";
  p.make = [](const ConfigNode& s) -> std::unique_ptr<KernelPort> {
    const uint64_t nodes = s.get_uint("nodes", 65536, 20, uint64_t(1) << 24);
    const uint64_t seed = s.get_uint("seed", 1);
    return std::make_unique<Bfs>(uint32_t(nodes), seed);
  };
  r.add(std::move(p));
}

}  // namespace gms::kernels
