// The SM's issue side as Volta+ has it: sub-partition schedulers taking turns at the load-store pipeline,
// and a scoreboard holding an instruction until the loads whose registers it reads are back.
#include <gtest/gtest.h>

#include <tuple>

#include "models/sm/sub_partitions.h"
#include "tests/sm/sm_test_system.h"

using namespace gms;
using namespace gms::test;

namespace {

SmParams params(SchedulerKind s = SchedulerKind::Gto, uint32_t schedulers = 1) {
  SmParams p;
  p.count = 1;
  p.scheduler = s;
  p.schedulers = schedulers;
  return p;
}

RegSet regs(std::initializer_list<unsigned> rs) {
  RegSet s;
  for (unsigned r : rs) s.set(r);
  return s;
}

WarpInst load(uint64_t pc, uint64_t addr, std::initializer_list<unsigned> writes, uint32_t gap = 0) {
  WarpInst i = make_inst(pc, MemKind::Load, addr, 4, 32, 4, gap);
  i.writes = regs(writes);
  return i;
}

WarpInst consumer(uint64_t pc, MemKind kind, uint64_t addr, std::initializer_list<unsigned> waits,
                  uint32_t gap, uint32_t wait_gap) {
  WarpInst i = make_inst(pc, kind, addr, 4, 32, 4, gap);
  i.waits_on = regs(waits);
  i.wait_gap = wait_gap;
  return i;
}

TestKernel one_warp(std::vector<WarpInst> prog) {
  TestKernel k;
  k.info.name = "w";
  k.info.num_ctas = 1;
  k.info.threads_per_cta = 32;
  k.ctas = {{std::move(prog)}};
  return k;
}

std::vector<uint64_t> send_cycles(const SmSystem& sys) {
  std::vector<uint64_t> c;
  for (const SeenRequest& r : sys.l1s[0]->seen) c.push_back(sys.cycle_of(r.ps));
  return c;
}

}  // namespace

TEST(SmScoreboard, ConsumerWaitsForTheLoadThenItsComputeCycles) {
  // Load at 0 writes R1 (response at 10); the store reads R1 through a compute instruction two cycles
  // before it: ready at 10 + 2. Its gap alone (3) would have let it go at 3.
  SmSystem sys(params(), 1,
               {one_warp({load(1, 0x1000, {1}), consumer(2, MemKind::Store, 0x2000, {1}, 3, 2)})}, 10);
  sys.run();
  EXPECT_EQ(send_cycles(sys), (std::vector<uint64_t>{0, 12}));
  EXPECT_EQ(sys.stat("sm0.scoreboard_waits"), 1);
}

TEST(SmScoreboard, OffItIgnoresTheDependences) {
  SmParams p = params();
  p.scoreboard = false;
  SmSystem sys(p, 1, {one_warp({load(1, 0x1000, {1}), consumer(2, MemKind::Store, 0x2000, {1}, 3, 2)})}, 10);
  sys.run();
  EXPECT_EQ(send_cycles(sys), (std::vector<uint64_t>{0, 3}));
  EXPECT_EQ(sys.stat("sm0.scoreboard_waits"), 0);
}

TEST(SmScoreboard, IndependentLoadsRunAheadAndTheConsumerWaitsForTheLastOfThem) {
  // Three loads into R1, R2, R3 go out back to back; the store needs R1 and R3: it waits for the third
  // load's response (2 + 10) although the first came back at 10.
  SmSystem sys(params(), 1,
               {one_warp({load(1, 0x1000, {1}), load(2, 0x2000, {2}), load(3, 0x3000, {3}),
                          consumer(4, MemKind::Store, 0x4000, {1, 3}, 0, 0)})},
               10);
  sys.run();
  EXPECT_EQ(send_cycles(sys), (std::vector<uint64_t>{0, 1, 2, 12}));
  EXPECT_EQ(sys.stat("sm0.scoreboard_waits"), 1);
}

TEST(SmScoreboard, PointerChaseSerialisesLoads) {
  // Each load's address comes from the previous load (waits on its register): one latency apart.
  SmSystem sys(params(), 1,
               {one_warp({load(1, 0x1000, {1}),
                          [] {
                            WarpInst i = load(2, 0x2000, {2});
                            i.waits_on = regs({1});
                            return i;
                          }(),
                          [] {
                            WarpInst i = load(3, 0x3000, {3});
                            i.waits_on = regs({2});
                            return i;
                          }()})},
               10);
  sys.run();
  EXPECT_EQ(send_cycles(sys), (std::vector<uint64_t>{0, 10, 20}));
  EXPECT_EQ(sys.stat("sm0.scoreboard_waits"), 2);
}

TEST(SmScoreboard, AWaitingWarpLetsTheOthersIssue) {
  // Two warps: load then dependent store each. While warp 0's store waits, warp 1 issues.
  TestKernel k = make_kernel("two", 1, 2, [](uint32_t, uint32_t w) {
    return std::vector<WarpInst>{load(1, 0x1000 + 0x100 * w, {5}),
                                 consumer(2, MemKind::Store, 0x8000 + 0x100 * w, {5}, 0, 0)};
  });
  SmSystem sys(params(), 1, {k}, 10);
  sys.run();
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> got,
      expect = {{0, 1, 0}, {1, 1, 1}, {0, 2, 10}, {1, 2, 11}};
  for (const SeenRequest& r : sys.l1s[0]->seen) got.emplace_back(r.warp, r.pc, sys.cycle_of(r.ps));
  EXPECT_EQ(got, expect);
}

TEST(SubPartitions, WarpsSplitBySlotModuloAndPartitionsTakeTurns) {
  SubPartitions sp(SchedulerKind::Gto, 6, 2);  // part 0: slots 0, 2, 4; part 1: slots 1, 3, 5
  for (uint32_t s = 0; s < 6; ++s) sp.set_age(s, s);
  for (uint32_t s : {0u, 2u, 3u, 5u}) sp.set_ready(s);
  EXPECT_TRUE(sp.is_ready(3));
  EXPECT_FALSE(sp.is_ready(1));
  EXPECT_EQ(sp.pick(), 0);  // part 0's oldest
  EXPECT_EQ(sp.pick(), 3);  // part 1's turn: its oldest ready
  EXPECT_EQ(sp.pick(), 0);  // part 0 greedy
  sp.reset_ready(0);
  EXPECT_EQ(sp.pick(), 3);  // part 1 greedy
  EXPECT_EQ(sp.pick(), 2);
  sp.reset_ready(3);
  sp.reset_ready(5);
  EXPECT_EQ(sp.pick(), 2);  // part 1 has none: part 0 again
  sp.reset_ready(2);
  EXPECT_FALSE(sp.any_ready());
  EXPECT_EQ(sp.pick(), -1);
}

TEST(SubPartitions, FourSchedulersIssueOrderOnTheSm) {
  // Four warps x three one-line loads, warp 0's second load 5 cycles after its first; two sub-partitions
  // (slots 0, 2 and 1, 3) with GTO each take turns at the pipeline.
  TestKernel k = make_kernel("k", 1, 4, [](uint32_t, uint32_t w) {
    std::vector<WarpInst> prog;
    for (uint32_t i = 0; i < 3; ++i)
      prog.push_back(make_inst(0x100 + 8 * i, MemKind::Load, 0x100000 + w * 0x10000 + i * 0x1000, 4, 32, 4,
                               (w == 0 && i == 1) ? 5 : 0));
    return prog;
  });
  SmSystem sys(params(SchedulerKind::Gto, 2), 1, {k}, 10);
  sys.run();
  using T = std::tuple<uint32_t, uint64_t, uint64_t>;
  std::vector<T> got,
      expect = {{0, 0x100, 0}, {1, 0x100, 1}, {2, 0x100, 2}, {1, 0x108, 3}, {2, 0x108, 4},  {1, 0x110, 5},
                {2, 0x110, 6}, {3, 0x100, 7}, {0, 0x108, 8}, {3, 0x108, 9}, {0, 0x110, 10}, {3, 0x110, 11}};
  for (const SeenRequest& r : sys.l1s[0]->seen) got.emplace_back(r.warp, r.pc, sys.cycle_of(r.ps));
  EXPECT_EQ(got, expect);
}
