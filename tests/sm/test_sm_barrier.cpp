// Barriers (__syncthreads, Accel-Sim BAR): a warp that reaches one waits until every warp of its CTA whose
// stream has not ended has reached it; then each goes on after its next instruction's gap. Warps of other
// CTAs are not held; a warp that ends (or ends at the barrier) is no longer waited for.
#include <gtest/gtest.h>

#include <tuple>

#include "tests/sm/sm_test_system.h"

using namespace gms;
using namespace gms::test;

namespace {

SmParams params() {
  SmParams p;
  p.count = 1;
  p.scheduler = SchedulerKind::Lrr;
  return p;
}

WarpInst ld(uint64_t pc, uint64_t addr, uint32_t gap = 0) {
  return make_inst(pc, MemKind::Load, addr, 4, 32, 4, gap);
}

WarpInst bar(uint32_t gap = 0) {
  WarpInst i;
  i.kind = MemKind::Barrier;
  i.active_mask = 0xffffffffu;
  i.width = 0;
  i.gap = gap;
  return i;
}

std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> sends(const SmSystem& sys) {
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> v;  // (warp, pc, cycle)
  for (const SeenRequest& r : sys.l1s[0]->seen) v.emplace_back(r.warp, r.pc, sys.cycle_of(r.ps));
  return v;
}

}  // namespace

TEST(SmBarrier, WarpsWaitForTheSlowestWarpOfTheirCta) {
  // Warp 0 reaches the barrier at once; warp 1 after 50 cycles of compute. Warp 0's load after the
  // barrier (gap 2) goes out 2 cycles after warp 1 arrived, not at cycle 2.
  TestKernel k = make_kernel("bar", 1, 2, [](uint32_t, uint32_t w) {
    if (w == 0) return std::vector<WarpInst>{bar(), ld(0x10, 0x1000, 2)};
    return std::vector<WarpInst>{ld(0x20, 0x2000), bar(50), ld(0x30, 0x3000, 1)};
  });
  SmSystem sys(params(), 1, {k}, 10);
  sys.run();
  // Warp 1's first load at 1 (cycle 0 is warp 0's barrier issue); its barrier at 1 + 50 = 51; both go on:
  // warp 0's load at 53, warp 1's at 52.
  EXPECT_EQ(sends(sys), (std::vector<std::tuple<uint32_t, uint64_t, uint64_t>>{
                            {1, 0x20, 1}, {1, 0x30, 52}, {0, 0x10, 53}}));
  EXPECT_EQ(sys.stat("sm0.barriers"), 2);
  EXPECT_EQ(sys.stat("sm0.barrier_wait_cycles"), 51);  // warp 0 from 0 to 51, warp 1 not at all
  EXPECT_EQ(sys.stat("sm0.warp_insts"), 3);            // barriers are not memory instructions
}

TEST(SmBarrier, AWarpThatEndedIsNotWaitedFor) {
  // Warp 1 ends without reaching the barrier (its threads returned): warp 0 goes on when warp 2 arrives.
  TestKernel k = make_kernel("exit", 1, 3, [](uint32_t, uint32_t w) {
    if (w == 0) return std::vector<WarpInst>{bar(), ld(0x10, 0x1000)};
    if (w == 1) return std::vector<WarpInst>{ld(0x20, 0x2000, 5)};
    return std::vector<WarpInst>{bar(30), ld(0x30, 0x3000)};
  });
  SmSystem sys(params(), 1, {k}, 10);
  sys.run();
  const auto s = sends(sys);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(std::get<2>(s[1]), 31u);  // warp 2's barrier issues at 30: both loads after it, 31 and 32
  EXPECT_EQ(std::get<2>(s[2]), 32u);
  EXPECT_EQ(sys.stat("sm0.ctas_completed"), 1);
}

TEST(SmBarrier, OtherCtasAreNotHeld) {
  // Two CTAs of two warps: CTA 0's warp 1 arrives late; CTA 1's warps pass their barrier at once.
  TestKernel k = make_kernel("two", 2, 2, [](uint32_t c, uint32_t w) {
    const uint32_t late = (c == 0 && w == 1) ? 100 : 0;
    return std::vector<WarpInst>{bar(late), ld(0x10 + 0x10 * c, 0x1000 * (c + 1) + 0x100 * w)};
  });
  SmSystem sys(params(), 1, {k}, 10);
  sys.run();
  for (const auto& [warp, pc, cycle] : sends(sys)) {
    if (pc == 0x20) {
      EXPECT_LT(cycle, 20u) << "CTA 1 waited for CTA 0";
    } else {
      EXPECT_GE(cycle, 100u) << "CTA 0 passed its barrier before its last warp arrived";
    }
  }
  EXPECT_EQ(sys.stat("sm0.barriers"), 4);
}

TEST(SmBarrier, ABarrierAtTheEndOfAStreamEndsTheWarp) {
  TestKernel k = make_kernel("tail", 1, 2, [](uint32_t, uint32_t w) {
    if (w == 0) return std::vector<WarpInst>{ld(0x10, 0x1000), bar()};
    return std::vector<WarpInst>{bar(20), ld(0x20, 0x2000)};
  });
  SmSystem sys(params(), 1, {k}, 10);
  sys.run();
  EXPECT_EQ(sys.stat("sm0.ctas_completed"), 1);
  EXPECT_EQ(sys.l1s[0]->seen.size(), 2u);
}
