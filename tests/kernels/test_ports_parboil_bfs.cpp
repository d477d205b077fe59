// Parboil bfs: runs functionally to the sequential BFS distances (road-like and random graphs; the default
// road-like one reaches the in-GPU and multi-block kernels, a random one all three), emits an exactly known
// stream on a tiny graph, and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_all;

TEST(ParboilBfs, ComputesBfsDistances) {
  for (const char* size : {"{nodes: 4000, edges: 11000}", "{nodes: 40000, edges: 110000, source: 20100}",
                           "{nodes: 20000, edges: 120000, random: 1, seed: 5}"}) {
    auto p = make_port("parboil/bfs", size);
    p->run_functionally();
    EXPECT_GE(p->kernels_launched(), 1u) << size;
    EXPECT_EQ(p->check(), "") << size;
  }
}

TEST(ParboilBfs, ReachesAllThreeKernels) {
  for (const char* size : {"{}", "{nodes: 20000, edges: 120000, random: 1, seed: 5}"}) {
    auto p = make_port("parboil/bfs", size);
    std::set<std::string> names;
    const test::StreamSummary s = pull_all(*p);
    for (const std::string& n : s.kernel_names) names.insert(n);
    EXPECT_TRUE(names.count("BFS_in_GPU_kernel")) << size;
    EXPECT_TRUE(names.count("BFS_kernel_multi_blk_inGPU")) << size;
    if (std::string(size).find("random") != std::string::npos) {
      EXPECT_TRUE(names.count("BFS_kernel"));
    }
    EXPECT_GT(s.atomics, 0u);
    EXPECT_EQ(p->check(), "") << size;
  }
}

// 2 x 2 grid, spanning tree only (3 undirected links): the whole search is one BFS_in_GPU_kernel launch of
// one 512-thread CTA (its first instruction is the barrier after the queue reset). Levels: {0} -> 2 nodes ->
// 1 node -> empty. Warp 0's first instruction is thread 0's q1[0] load; per level the frontier threads (all
// in warp 0) issue colour store, cost load, node load and per edge an edge load and atomicMin (each neighbour
// with a lower cost gets an atomicExch).
TEST(ParboilBfs, TinyGraphStream) {
  auto p = make_port("parboil/bfs", "{nodes: 4, edges: 6}");
  uint64_t warp0_loads_pc100 = 0, barriers = 0;
  WarpInst f;
  bool have = false;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
    if (i.kind == MemKind::Load && i.pc == 0x100) ++warp0_loads_pc100;
    const bool mem = i.kind == MemKind::Load || i.kind == MemKind::Store || i.kind == MemKind::Atomic;
    if (!mem) ++barriers;
    if (mem && !have) f = i, have = true;
  });
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.kernel_names[0], "BFS_in_GPU_kernel");
  EXPECT_EQ(s.ctas, 1u);
  EXPECT_EQ(s.warps, 16u);
  ASSERT_TRUE(have);
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.pc, 0x100u);
  EXPECT_EQ(f.active_mask, 1u);
  // count, no_of_nodes_vol, stay_vol, nodes (32 B), edges (48 B), color, cost: 256 B apart; then q1.
  EXPECT_EQ(f.addr[0], DeviceMemory::kDefaultBase + 7 * 256);
  EXPECT_EQ(warp0_loads_pc100, 1u);  // only the first level reads q1; later ones read next_wf
  // Three levels visit 1, 2 and 1 nodes (the last finds nothing new and the kernel returns).
  // Per level 3 barriers per warp (after reset, after the visits, after the scan), plus one after the
  // in-block concatenate for the two levels that continue: (3 * 3 + 2) * 16 warps.
  EXPECT_EQ(barriers, (3u * 3u + 2u) * 16u);
}

TEST(ParboilBfs, Deterministic) {
  for (const char* size : {"{nodes: 4000, edges: 11000}", "{nodes: 20000, edges: 120000, random: 1}"}) {
    auto a = make_port("parboil/bfs", size), b = make_port("parboil/bfs", size);
    const test::StreamSummary sa = pull_all(*a), sb = pull_all(*b);
    EXPECT_EQ(sa.kernels, sb.kernels);
    EXPECT_EQ(sa.insts, sb.insts);
    EXPECT_EQ(sa.hash, sb.hash);
    EXPECT_EQ(a->check(), "");
  }
}

// The default input's size (run by hand: --gtest_also_run_disabled_tests).
TEST(ParboilBfs, DISABLED_DefaultInputStats) {
  auto p = make_port("parboil/bfs");
  std::map<std::string, uint64_t> launches, insts;
  const test::StreamSummary s =
      pull_all(*p, [&](uint64_t, const std::string& n, const WarpInst&) { ++insts[n]; });
  for (const std::string& n : s.kernel_names) ++launches[n];
  for (const auto& [n, c] : launches)
    std::printf("%s: %llu launches, %llu warp insts\n", n.c_str(), (unsigned long long)c,
                (unsigned long long)insts[n]);
  std::printf("total %llu insts (%llu loads, %llu stores, %llu atomics, %llu barriers)\n",
              (unsigned long long)s.insts, (unsigned long long)s.loads, (unsigned long long)s.stores,
              (unsigned long long)s.atomics, (unsigned long long)s.barriers);
  EXPECT_EQ(p->check(), "");
}

}  // namespace
}  // namespace gms::kernels
