// Rodinia ports (group a: bfs, kmeans, hotspot, pathfinder, nw, lud): on small inputs each computes the
// benchmark's result (checked against a sequential reference), emits a stream with hand-computed properties,
// and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_stats;

void expect_checks(const std::string& name, const std::string& size) {
  auto p = make_port(name, size);
  ASSERT_NE(p, nullptr) << name;
  p->run_functionally();
  EXPECT_EQ(p->check(), "") << name;
}

void expect_deterministic(const std::string& name, const std::string& size) {
  auto a = make_port(name, size), b = make_port(name, size);
  const auto sa = pull_stats(*a), sb = pull_stats(*b);
  EXPECT_GT(sa.insts, 0u);
  EXPECT_EQ(sa.insts, sb.insts);
  EXPECT_EQ(sa.hash, sb.hash);
  EXPECT_EQ(sa.kernels.size(), sb.kernels.size());
  EXPECT_EQ(a->check(), "") << name;  // pulled streams compute the result too
}

// ---- bfs

TEST(RodiniaA, BfsChecks) {
  expect_checks("rodinia/bfs", "{nodes: 3000}");
}
TEST(RodiniaA, BfsIsDeterministic) {
  expect_deterministic("rodinia/bfs", "{nodes: 3000}");
}

TEST(RodiniaA, BfsStream) {
  // 1,100 nodes: 3 CTAs of 512 threads (the last one 76 nodes), launched Kernel, Kernel2 per level.
  auto p = make_port("rodinia/bfs", "{nodes: 1100}");
  const auto s = pull_stats(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_GE(s.kernels.size(), 4u);
  EXPECT_EQ(s.kernels.size() % 2, 0u);
  for (size_t k = 0; k < s.kernels.size(); ++k) {
    EXPECT_EQ(s.kernels[k].name, k % 2 ? "Kernel2" : "Kernel");
    EXPECT_EQ(s.kernels[k].ctas, 3u);
    EXPECT_EQ(s.kernels[k].threads_per_cta, 512u);
  }
  // The last level marks nothing: Kernel2 loads each in-range warp's flags once (1,100 nodes: 35 warps).
  EXPECT_EQ(s.kernels.back().insts, 35u);
  // The first instruction: warp 0 loads graph_mask[0..31] (bytes, placed third after nodes and edges).
  EXPECT_EQ(s.first.kind, MemKind::Load);
  EXPECT_EQ(s.first.pc, 0x10u);
  EXPECT_EQ(s.first.active_mask, 0xffffffffu);
  EXPECT_EQ(s.first.width, 1u);
  EXPECT_EQ(s.first.addr[5] - s.first.addr[0], 5u);
}

// ---- kmeans

TEST(RodiniaA, KmeansChecks) {
  expect_checks("rodinia/kmeans", "{points: 2000, features: 6}");
}
TEST(RodiniaA, KmeansIsDeterministic) {
  expect_deterministic("rodinia/kmeans", "{points: 2000, features: 6}");
}

TEST(RodiniaA, KmeansStream) {
  // 300 points: 2 blocks of 256, squared up to a 2 x 2 grid; 10 warps hold points (the last one 12).
  auto p = make_port("rodinia/kmeans", "{points: 300, features: 4, clusters: 3}");
  const auto s = pull_stats(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_GE(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].name, "invert_mapping");
  EXPECT_EQ(s.kernels[0].ctas, 4u);
  EXPECT_EQ(s.kernels[0].insts, 10u * 4 * 2);  // a load and a store per feature
  for (size_t k = 1; k < s.kernels.size(); ++k) {
    EXPECT_EQ(s.kernels[k].name, "kmeansPoint");
    EXPECT_EQ(s.kernels[k].ctas, 4u);
    EXPECT_EQ(s.kernels[k].insts, 10u * (3 * 4 + 1));  // clusters x features loads, the membership store
  }
  // The first instruction: warp 0 loads feature 0 of points 0..31, 4 features (16 B) apart.
  EXPECT_EQ(s.first.pc, 0x10u);
  EXPECT_EQ(s.first.active_mask, 0xffffffffu);
  EXPECT_EQ(s.first.addr[1] - s.first.addr[0], 16u);
}

// ---- hotspot

TEST(RodiniaA, HotspotChecks) {
  expect_checks("rodinia/hotspot", "{grid: 100, pyramid_height: 3, sim_time: 9}");
  expect_checks("rodinia/hotspot", "{grid: 70, pyramid_height: 3, sim_time: 7}");  // a shorter last launch
}
TEST(RodiniaA, HotspotIsDeterministic) {
  expect_deterministic("rodinia/hotspot", "{grid: 64, pyramid_height: 2, sim_time: 4}");
}

TEST(RodiniaA, HotspotStream) {
  // 32 x 32, height 2: 12 x 12 outputs per 16 x 16 tile, 3 x 3 CTAs of 8 warps (two tile rows each).
  // Loads (temperature, power) by warps with a row in the grid: 7 + 8 + 5 per CTA column; stores by warps
  // with a cell computed in the last step (rows 2..13, inside the grid): 6 + 6 + 4; four barriers each (after
  // the loads, after each step, between the steps).
  auto p = make_port("rodinia/hotspot", "{grid: 32, pyramid_height: 2, sim_time: 2}");
  const auto s = pull_stats(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].ctas, 9u);
  EXPECT_EQ(s.kernels[0].threads_per_cta, 256u);
  EXPECT_EQ(s.kernels[0].insts, 3u * 20 * 2 + 3u * 16 + 9u * 8 * 4);
  EXPECT_EQ(s.first.kind, MemKind::Barrier);  // CTA 0's first warp holds rows -2 and -1: no load
}

// ---- pathfinder

TEST(RodiniaA, PathfinderChecks) {
  expect_checks("rodinia/pathfinder", "{cols: 1000, rows: 30, pyramid_height: 4}");  // a shorter last launch
}
TEST(RodiniaA, PathfinderIsDeterministic) {
  expect_deterministic("rodinia/pathfinder", "{cols: 1000, rows: 30, pyramid_height: 4}");
}

TEST(RodiniaA, PathfinderStream) {
  // 300 columns, 5 rows, height 2: two launches of 2 CTAs (252 output columns each). CTA 0's 8 warps and
  // CTA 1's first 2 (columns 250..299) load the previous row, load both rows' costs and store; every warp
  // passes 4 barriers (after the load, after each row, between the rows).
  auto p = make_port("rodinia/pathfinder", "{cols: 300, rows: 5, pyramid_height: 2}");
  const auto s = pull_stats(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels.size(), 2u);
  for (const auto& k : s.kernels) {
    EXPECT_EQ(k.ctas, 2u);
    EXPECT_EQ(k.insts, 10u + 10u * 2 + 10u + 16u * 4);
  }
  // The first: CTA 0, warp 0 loads gpuResult0 (the first allocation) from column 0 in lane 2 on.
  EXPECT_EQ(s.first.pc, 0x10u);
  EXPECT_EQ(s.first.active_mask, 0xfffffffcu);
  EXPECT_EQ(s.first.addr[2], DeviceMemory::kDefaultBase);
}

// ---- nw

TEST(RodiniaA, NwChecks) {
  expect_checks("rodinia/nw", "{dim: 128}");
}
TEST(RodiniaA, NwIsDeterministic) {
  expect_deterministic("rodinia/nw", "{dim: 96}");
}

TEST(RodiniaA, NwStream) {
  // 64 x 64: 4 tiles a side; launches 1..4 of needle_cuda_shared_1, then 3..1 of _2, one 16-thread warp
  // per CTA. A CTA: 16 reference rows, the corner, west column, north row, 16 stored rows (34 accesses) and
  // 3 + 16 + 15 barriers.
  auto p = make_port("rodinia/nw", "{dim: 64}");
  const auto s = pull_stats(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels.size(), 7u);
  const uint32_t ctas[7] = {1, 2, 3, 4, 3, 2, 1};
  for (size_t k = 0; k < 7; ++k) {
    EXPECT_EQ(s.kernels[k].name, k < 4 ? "needle_cuda_shared_1" : "needle_cuda_shared_2");
    EXPECT_EQ(s.kernels[k].ctas, ctas[k]);
    EXPECT_EQ(s.kernels[k].threads_per_cta, 16u);
    EXPECT_EQ(s.kernels[k].insts, ctas[k] * (35u + 34u));
  }
  // The first: tile (0, 0)'s corner, matrix[0][0] (matrix_cuda is the second array, 65 x 65 ints after the
  // reference's), by thread 0 only.
  EXPECT_EQ(s.first.pc, 0x10u);
  EXPECT_EQ(s.first.active_mask, 1u);
  EXPECT_EQ(s.first.addr[0], DeviceMemory::kDefaultBase + (65u * 65 * 4 + 255) / 256 * 256);
}

// ---- lud

TEST(RodiniaA, LudChecks) {
  expect_checks("rodinia/lud", "{dim: 128}");
}
TEST(RodiniaA, LudIsDeterministic) {
  expect_deterministic("rodinia/lud", "{dim: 64}");
}

TEST(RodiniaA, LudStream) {
  // 32 x 32: one tile step (diagonal, perimeter, internal: one CTA each), then the last diagonal tile.
  // lud_diagonal: 16 loads, 1 + 15 x 2 barriers, 15 stores (row 0 is not written back). lud_perimeter (one
  // warp, both halves): 8 + 16 loads per half, 2 barriers, 15 + 16 stores. lud_internal: 8 warps of 2
  // loads, a barrier, a load and a store.
  auto p = make_port("rodinia/lud", "{dim: 32}");
  const auto s = pull_stats(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels.size(), 4u);
  EXPECT_EQ(s.kernels[0].name, "lud_diagonal");
  EXPECT_EQ(s.kernels[1].name, "lud_perimeter");
  EXPECT_EQ(s.kernels[2].name, "lud_internal");
  EXPECT_EQ(s.kernels[3].name, "lud_diagonal");
  EXPECT_EQ(s.kernels[0].insts, 16u + 31 + 15);
  EXPECT_EQ(s.kernels[1].insts, 2u * 24 + 2 + 31);
  EXPECT_EQ(s.kernels[2].insts, 8u * 5);
  EXPECT_EQ(s.kernels[3].insts, 16u + 31 + 15);
  // The first: the diagonal tile's row 0 by 16 threads.
  EXPECT_EQ(s.first.active_mask, 0xffffu);
  EXPECT_EQ(s.first.addr[15], DeviceMemory::kDefaultBase + 15 * 4);
}

// Warp instructions of the default inputs (for the record; minutes): --gtest_also_run_disabled_tests.
TEST(RodiniaA, DISABLED_DefaultInputs) {
  for (const char* name : {"rodinia/bfs", "rodinia/kmeans", "rodinia/hotspot", "rodinia/pathfinder",
                           "rodinia/nw", "rodinia/lud"}) {
    auto p = make_port(name);
    const auto s = pull_stats(*p);
    std::printf("%s: %zu kernels, %llu warp instructions, check '%s'\n", name, s.kernels.size(),
                (unsigned long long)s.insts, p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
