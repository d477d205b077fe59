// bfs: one level of a Rodinia-style BFS (thread per node) on a generated graph: random gathers. Node v
// (thread v < nodes) is in the frontier when frontier_hash(graph_seed, v) < frontier_fraction. Warp program:
//   load frontier[v]            pc 0x100, 1 byte, every lane
//   load row_ptr[v], [v+1]      pc 0x108, 0x110, 4 bytes, frontier lanes
//   for e < the warp's largest frontier degree, lanes with degree > e:
//     load edges[row_ptr[v] + e]  pc 0x118, 4 bytes (the lane's adjacency list: streams)
//     load visited[u], u = that neighbour  pc 0x120, 1 byte (random gather)
//   store cost[v]               pc 0x200, `width` bytes, frontier lanes
// A warp without frontier nodes stops after its first load. Rodinia also writes the unvisited neighbours'
// cost and mask (several writers per byte, a benign race); here each thread writes only its own node's
// cost, keeping the single-writer rule. Load region: frontier, row_ptr, edges, visited (line-aligned).
#include <algorithm>

#include "models/common/rng.h"
#include "tb/workloads/csr_graph.h"
#include "tb/workloads/pattern_registry.h"

namespace gms {

namespace {

constexpr uint64_t kBfsStorePc = 0x200;

class BfsPattern : public Pattern {
 public:
  BfsPattern(const KernelGeometry& geom, CsrGraph graph, uint64_t seed, double frontier_fraction)
      : geom_(geom), g_(std::move(graph)), seed_(seed), fraction_(frontier_fraction) {
    row_ptr_at_ = line_align_up(g_.rows());
    edges_at_ = line_align_up(row_ptr_at_ + (g_.rows() + 1) * 4);
    visited_at_ = line_align_up(edges_at_ + g_.nnz() * 4);
  }

  uint64_t load_region_bytes() const override { return visited_at_ + g_.rows(); }
  uint64_t store_region_bytes() const override { return g_.rows() * geom_.width; }
  void next_load(WarpCursor&, WarpInst&) const override {}
  void next_store(WarpCursor&, WarpInst&) const override {}

  bool in_frontier(uint64_t v) const { return double(mix64(seed_ ^ mix64(v)) >> 11) * 0x1.0p-53 < fraction_; }

  bool next_inst(WarpCursor& warp, WarpInst& inst) const override {
    const uint64_t first = geom_.thread_id(warp.warp_uid, 0), s = warp.pattern_steps;
    const unsigned lanes = nodes_of(warp.warp_uid);
    if (lanes == 0) return false;
    inst.width = 1;
    if (s == 0) {
      inst.pc = kLoadPc;
      if (lanes < kWarpSize) inst.active_mask &= (uint32_t(1) << lanes) - 1;
      for (unsigned lane = 0; lane < kWarpSize; ++lane) inst.addr[lane] = first + lane;
      return true;
    }
    const uint32_t frontier = frontier_mask(first, lanes);
    const uint64_t store_at = 3 + 2 * uint64_t(max_degree(first, frontier));
    if (!frontier || s > store_at) return false;
    inst.active_mask &= frontier;
    if (s < 3 || s == store_at) {  // row bounds or the store of the node's cost
      const bool store = s == store_at;
      inst.kind = store ? MemKind::Store : MemKind::Load;
      inst.pc = store ? kBfsStorePc : kLoadPc + 8 * s;
      inst.width = uint8_t(store ? geom_.width : 4);
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        inst.addr[lane] = store ? (first + lane) * geom_.width : row_ptr_at_ + (first + lane + s - 1) * 4;
      return true;
    }
    const uint64_t e = (s - 3) / 2;
    const bool gather = (s - 3) % 2;
    inst.pc = gather ? 0x120 : 0x118;
    inst.width = gather ? 1 : 4;
    uint32_t mask = 0;
    for (uint32_t m = frontier; m; m &= m - 1) {
      const unsigned lane = unsigned(__builtin_ctz(m));
      const uint64_t v = first + lane;
      if (e >= g_.len(v)) continue;
      mask |= uint32_t(1) << lane;
      const uint64_t k = g_.row_ptr[v] + e;
      inst.addr[lane] = gather ? visited_at_ + g_.col[k] : edges_at_ + k * 4;
    }
    inst.active_mask &= mask;
    return true;
  }
  uint64_t total_insts() const override {
    uint64_t total = 0;
    for (uint64_t w = 0; w < geom_.num_warps; ++w) {
      const unsigned lanes = nodes_of(w);
      if (!lanes) continue;
      const uint64_t first = geom_.thread_id(w, 0);
      const uint32_t frontier = frontier_mask(first, lanes);
      total += frontier ? 4 + 2 * uint64_t(max_degree(first, frontier)) : 1;
    }
    return total;
  }

 private:
  unsigned nodes_of(uint64_t warp_uid) const {
    const uint64_t first = geom_.thread_id(warp_uid, 0);
    if (first >= g_.rows()) return 0;
    return unsigned(std::min<uint64_t>(__builtin_popcount(geom_.active_mask(warp_uid)), g_.rows() - first));
  }
  uint32_t frontier_mask(uint64_t first, unsigned lanes) const {
    uint32_t m = 0;
    for (unsigned lane = 0; lane < lanes; ++lane) m |= uint32_t(in_frontier(first + lane)) << lane;
    return m;
  }
  uint32_t max_degree(uint64_t first, uint32_t frontier) const {
    uint32_t d = 0;
    for (uint32_t m = frontier; m; m &= m - 1) d = std::max(d, g_.len(first + unsigned(__builtin_ctz(m))));
    return d;
  }

  KernelGeometry geom_;
  CsrGraph g_;
  uint64_t seed_;
  double fraction_;
  uint64_t row_ptr_at_ = 0, edges_at_ = 0, visited_at_ = 0;
};

}  // namespace

void register_bfs(PatternRegistry& registry) {
  registry.add(
      "bfs",
      [](const KernelGeometry& geom, const ConfigNode& n) -> std::unique_ptr<Pattern> {
        const CsrShape shape =
            read_csr_shape(n, {"nodes", nullptr, "avg_degree", "degree_dist", "max_degree", "graph_seed"},
                           geom.num_threads());
        const double fraction = n.get_double("frontier_fraction", 0.25, 0.0, 1.0);
        return std::make_unique<BfsPattern>(geom, CsrGraph::generate(shape), shape.seed, fraction);
      },
      true);
}

}  // namespace gms
