// Rodinia ports (group c): each runs functionally to the benchmark's result on a small input, emits an
// exactly known stream on a tiny one, and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_deterministic;
using test::make_port;
using test::pull_all;

// ---- cfd ----

TEST(RodiniaC, CfdComputesTheBenchmarksResult) {
  auto p = make_port("rodinia/cfd", "{elements: 3000, iterations: 2}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 3u + 2 * 7);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaC, CfdStreamOnATinyMesh) {
  // 384 elements: nelr 384, 2 CTAs of 6 warps. initialize_variables: 5 stores per warp; step_factor: 5
  // variables, the area, a store; compute_flux: 5 variables, per face the neighbour and 3 normal
  // components, 5 neighbour variables for a face where some lane has an interior neighbour, 5 stores;
  // time_step: the factor and 5 x (old, flux, store).
  auto p = make_port("rodinia/cfd", "{elements: 384, iterations: 1}");
  std::map<std::string, uint64_t> per_kernel;
  std::map<uint32_t, uint64_t> per_pc;
  bool first = true;
  const uint64_t areas = 0x7f0000000000, variables = areas + 1536 + 6144 + 18432;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string& k, const WarpInst& i) {
    ++per_kernel[k];
    ++per_pc[i.pc];
    if (first) {  // initialize_variables(variables): density of elements 0..31
      first = false;
      EXPECT_EQ(i.kind, MemKind::Store);
      EXPECT_EQ(i.pc, 0x10u);
      EXPECT_EQ(i.active_mask, 0xffffffffu);
      EXPECT_EQ(i.addr[0], variables);
      EXPECT_EQ(i.addr[31], variables + 4 * 31);
    }
  });
  EXPECT_EQ(s.kernels, 3u + 7);
  EXPECT_EQ(per_kernel["cuda_initialize_variables"], 3u * 12 * 5);
  EXPECT_EQ(per_kernel["cuda_compute_step_factor"], 12u * 7);
  EXPECT_EQ(per_kernel["cuda_time_step"], 3u * 12 * 16);
  uint64_t gathers = 0;
  for (uint32_t j = 0; j < 4; ++j) {
    EXPECT_EQ(per_pc[0x260 + 0x100 * j], 3u * 12);  // the neighbour index: every warp, every stage
    gathers += per_pc[0x2a0 + 0x100 * j];
    for (uint32_t v = 1; v < 5; ++v)
      EXPECT_EQ(per_pc[0x2a0 + 0x100 * j + 0x10 * v], per_pc[0x2a0 + 0x100 * j]);
  }
  EXPECT_GT(gathers, 0u);
  EXPECT_EQ(per_kernel["cuda_compute_flux"], 3u * 12 * (5 + 16 + 5) + 5 * gathers);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaC, CfdIsDeterministic) {
  expect_deterministic("rodinia/cfd", "{elements: 2000, iterations: 1}");
}

// ---- streamcluster ----

TEST(RodiniaC, StreamclusterComputesTheBenchmarksResult) {
  auto p = make_port("rodinia/streamcluster", "{points: 2000, dim: 8, launches: 4}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 4u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaC, StreamclusterStreamOnATinyChunk) {
  // 1000 points of 6 dimensions: 2 CTAs of 512 threads, 32 warps with a point (the last one 8 lanes, the
  // 32 warps beyond point 1023 none). Per warp: 2 x 6 coordinate loads (a coalesced row, then point x's
  // coordinate, one address for all lanes), weight, cost, then 4 on each path the warp's lanes take.
  auto p = make_port("rodinia/streamcluster", "{points: 1000, dim: 6, launches: 1}");
  std::map<uint32_t, uint64_t> per_pc;
  uint64_t n = 0, last_mask = 0;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
    ++per_pc[i.pc];
    if (n == 0) {
      EXPECT_EQ(i.pc, 0x10u);
      EXPECT_EQ(i.active_mask, 0xffffffffu);
      for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(i.addr[l], i.addr[0] + 4 * l);
    }
    if (n == 1) {
      EXPECT_EQ(i.pc, 0x20u);
      for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(i.addr[l], i.addr[0]);
    }
    if (i.pc == 0x10) last_mask = i.active_mask;
    ++n;
  });
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(last_mask, 0xffu);
  EXPECT_EQ(per_pc[0x10], 32u * 6);
  EXPECT_EQ(per_pc[0x20], 32u * 6);
  EXPECT_EQ(per_pc[0x30], 32u);
  EXPECT_EQ(per_pc[0x40], 32u);
  const uint64_t paths = per_pc[0x50] + per_pc[0x90];
  EXPECT_GE(paths, 32u);
  EXPECT_EQ(s.insts, 32u * (12 + 2) + 4 * paths);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaC, StreamclusterIsDeterministic) {
  expect_deterministic("rodinia/streamcluster", "{points: 1500, dim: 5, launches: 3}");
}

// The default inputs' streams (slow; run with --gtest_also_run_disabled_tests to print the counts).
TEST(RodiniaC, DISABLED_DefaultInputCounts) {
  for (const char* name : {"rodinia/cfd", "rodinia/streamcluster"}) {
    auto p = make_port(name);
    uint64_t mem = 0;
    const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
      mem += i.kind == MemKind::Load || i.kind == MemKind::Store;
    });
    std::printf("%s: %llu kernels, %llu warp instructions (%llu loads/stores), check '%s'\n", name,
                (unsigned long long)s.kernels, (unsigned long long)s.insts, (unsigned long long)mem,
                p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
