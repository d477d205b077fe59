// LonestarGPU bh: runs functionally, pulled CTA by CTA and pulled round robin (as SMs do) to the sequential
// reference's positions and velocities (bit for bit), emits the kernels the host loop launches with the
// source's grids and exactly known counts on a tiny input, and emits the same stream twice.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;

unsigned lanes(const WarpInst& i) {
  return unsigned(__builtin_popcount(i.active_mask));
}

TEST(LonestarBh, MatchesTheSequentialReference) {
  struct Case {
    const char* size;
    uint64_t steps;
  };
  for (const Case& c :
       {Case{"{bodies: 2000, timesteps: 2, sms: 2}", 2}, Case{"{bodies: 700, timesteps: 3, sms: 1}", 3},
        Case{"{bodies: 5000, timesteps: 1, sms: 4, seed: 11}", 1}, Case{"{bodies: 33, sms: 1}", 2}}) {
    auto p = make_port("lonestar/bh", c.size);
    p->run_functionally();
    EXPECT_EQ(p->kernels_launched(), 1 + 8 * c.steps) << c.size;
    EXPECT_EQ(p->check(), "") << c.size;
  }
}

TEST(LonestarBh, TheCheckSeesBodiesThatDidNotMove) {
  auto p = make_port("lonestar/bh", "{bodies: 300, sms: 1}");
  EXPECT_NE(p->check(), "");  // nothing ran: the reference's bodies moved, the port's did not
}

TEST(LonestarBh, PulledRoundRobinItComputesTheSameResult) {
  auto p = make_port("lonestar/bh", "{bodies: 1500, timesteps: 2, sms: 2}");
  EXPECT_GT(test::pull_round_robin(*p), 10000u);
  EXPECT_EQ(p->check(), "");
}

TEST(LonestarBh, StreamOnATinyInput) {
  // 700 bodies, 1 SM: nnodes = max(1400, 1024) rounded up to a warp, minus 1 = 1407.
  auto p = make_port("lonestar/bh", "{bodies: 700, timesteps: 1, sms: 1}");
  std::map<std::string, test::StreamSummary> per;
  std::map<uint64_t, uint64_t> lanes_at;  // store lanes per PC
  std::vector<std::string> names;
  std::vector<uint32_t> grids, blocks;
  std::vector<bool> co_resident;
  for (std::unique_ptr<KernelSource> k; (k = p->next_kernel());) {
    const KernelLaunch& l = static_cast<PortKernel&>(*k).launch();
    names.push_back(l.name);
    grids.push_back(l.grid.x);
    blocks.push_back(l.block.x);
    co_resident.push_back(l.co_resident);
    test::StreamSummary& s = per[l.name];
    for (std::unique_ptr<CtaWork> cta; (cta = k->next_cta());)
      for (auto& w : cta->warps)
        for (WarpInst i; w->next(i);) {
          ++s.insts;
          ++(i.kind == MemKind::Load     ? s.loads
             : i.kind == MemKind::Store  ? s.stores
             : i.kind == MemKind::Atomic ? s.atomics
                                         : s.barriers);
          if (i.kind == MemKind::Store) lanes_at[i.pc] += lanes(i);
          if (s.first.empty()) s.first.push_back(i);
        }
  }
  const std::vector<std::string> want = {
      "InitializationKernel", "BoundingBoxKernel",      "ClearKernel1",
      "TreeBuildingKernel",   "ClearKernel2",           "SummarizationKernel",
      "SortKernel",           "ForceCalculationKernel", "IntegrationKernel"};
  EXPECT_EQ(names, want);
  EXPECT_EQ(grids, (std::vector<uint32_t>{1, 3, 1, 3, 1, 6, 6, 5, 1}));  // SMs x FACTOR
  EXPECT_EQ(blocks, (std::vector<uint32_t>{1, 512, 1024, 512, 1024, 128, 64, 256, 1024}));
  EXPECT_EQ(co_resident, (std::vector<bool>{false, false, false, true, false, true, true, false, false}));
  // InitializationKernel: one thread, four stores.
  EXPECT_EQ(per["InitializationKernel"].stores, 4u);
  EXPECT_EQ(per["InitializationKernel"].first[0].active_mask, 1u);
  // BoundingBoxKernel: 3 CTAs of 16 warps load body 0's x, y, z; bodies 0..699 are scanned by CTA 0's 16
  // warps and CTA 1's first 6; 9 barriers per warp; thread 0 of each CTA stores its box (6) and counts
  // itself (atomicInc); the last reads the 3 boxes (18), writes radius, bottom, the root's mass, start,
  // x, y, z and 8 children, and steps `step` (a load and a store).
  const test::StreamSummary& bb = per["BoundingBoxKernel"];
  EXPECT_EQ(bb.loads, 3u * 16 * 3 + 22 * 3 + 18 + 1);
  EXPECT_EQ(bb.stores, 3u * 6 + 15 + 1);
  EXPECT_EQ(bb.atomics, 3u);
  EXPECT_EQ(bb.barriers, 3u * 16 * 9);
  // ClearKernel1: child[8 x 700 .. 8 x 1407) to -1, 5656 pointers by 1024 threads: 5 full passes of 32
  // warps, then 536 threads (17 warps).
  EXPECT_EQ(per["ClearKernel1"].stores, 5u * 32 + 17);
  EXPECT_EQ(lanes_at[0x300], 8u * 1407 - 8 * 700);
  // Every cell's mass and count are written once (pre-pass or final loop), every non-root cell's start and
  // every body's sorted place once, every body's acceleration once.
  EXPECT_EQ(lanes_at[0x840] + lanes_at[0x890], lanes_at[0x750]);
  EXPECT_EQ(lanes_at[0x950] + 1, lanes_at[0x750]);
  EXPECT_GT(lanes_at[0x750], 100u);
  EXPECT_EQ(lanes_at[0x970], 700u);
  EXPECT_EQ(lanes_at[0xb90], 700u);
  EXPECT_EQ(lanes_at[0xc70], 700u);  // IntegrationKernel's posx
  EXPECT_EQ(p->check(), "");
}

TEST(LonestarBh, BlockCapSplitsTheGridStrideKernelsOnly) {
  // The 1024-thread kernels as twice as many 512-thread CTAs: the same warps' streams, the same result.
  auto a = make_port("lonestar/bh", "{bodies: 600, timesteps: 2, sms: 1}");
  auto b = make_port("lonestar/bh", "{bodies: 600, timesteps: 2, sms: 1, block_cap: 512}");
  const test::StreamStats sa = test::pull_stats(*a), sb = test::pull_stats(*b);
  ASSERT_EQ(sa.kernels.size(), sb.kernels.size());
  uint64_t la = 0, lb = 0;
  for (size_t k = 0; k < sa.kernels.size(); ++k) {
    const bool split = sa.kernels[k].threads_per_cta == 1024;
    EXPECT_EQ(sb.kernels[k].ctas, sa.kernels[k].ctas * (split ? 2 : 1)) << sa.kernels[k].name;
    EXPECT_EQ(sb.kernels[k].threads_per_cta, split ? 512u : sa.kernels[k].threads_per_cta);
    if (split) la += sa.kernels[k].insts, lb += sb.kernels[k].insts;
  }
  EXPECT_EQ(la, lb);
  EXPECT_EQ(a->check(), "");
  EXPECT_EQ(b->check(), "");
}

TEST(LonestarBh, IsDeterministic) {
  test::expect_deterministic("lonestar/bh", "{bodies: 1000, timesteps: 2, sms: 2}");
}

}  // namespace
}  // namespace gms::kernels
