// Register dependences from Accel-Sim operands (tb/traces/load_dependences.h): which registers each memory
// instruction waits for, and how many compute cycles after they are written.
#include <gtest/gtest.h>

#include "tb/traces/load_dependences.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

using gms::LoadDependences;
using gms::RegSet;

namespace {

RegSet regs(std::initializer_list<unsigned> rs) {
  RegSet s;
  for (unsigned r : rs) s.set(r);
  return s;
}

struct Mem {
  RegSet waits_on, writes;
  uint32_t wait_gap = 0;
};

Mem memory(LoadDependences& d, bool load, unsigned width, RegSet srcs, RegSet dsts) {
  Mem m;
  d.memory(load, width, srcs, dsts, m.waits_on, m.writes, m.wait_gap);
  return m;
}

}  // namespace

TEST(LoadDependences, ConsumerThroughComputeWaitsFromTheFirstReader) {
  LoadDependences d;
  d.reset();
  Mem a = memory(d, true, 4, regs({2}), regs({10}));  // LDG R10, [R2]
  EXPECT_EQ(a.writes, regs({10}));
  EXPECT_FALSE(a.waits_on.any());
  d.compute(regs({3}), regs({4}));                      // gap 0: independent
  d.compute(regs({10, 4}), regs({5}));                  // gap 1: reads the load's R10
  d.compute(regs({5}), regs({6}));                      // gap 2: reads R5, a compute result
  Mem s = memory(d, false, 4, regs({7, 6}), RegSet());  // STG [R7], R6
  EXPECT_EQ(s.waits_on, regs({10}));
  EXPECT_EQ(s.wait_gap, 2u);  // the reader at gap index 1, then one more compute, then the store
  EXPECT_FALSE(s.writes.any());
}

TEST(LoadDependences, OverwrittenRegistersAndWideLoads) {
  LoadDependences d;
  d.reset();
  Mem a = memory(d, true, 8, regs({2}), regs({10}));  // LDG.E.64 R10: R10, R11
  EXPECT_EQ(a.writes, regs({10, 11}));
  d.compute(RegSet(), regs({10}));  // R10 overwritten by a compute instruction: no longer the load's
  Mem b = memory(d, true, 16, regs({10, 11}), regs({20}));  // address from R11 (still the load's)
  EXPECT_EQ(b.waits_on, regs({11}));
  EXPECT_EQ(b.wait_gap, 0u);  // its own operand: no compute cycles after the wait
  EXPECT_EQ(b.writes, regs({20, 21, 22, 23}));
  Mem c = memory(d, true, 4, RegSet(), regs({21}));  // a load into R21, which b still fills: waits (WAW)
  EXPECT_EQ(c.waits_on, regs({21}));
  d.reset();  // the next warp starts clean
  Mem e = memory(d, false, 4, regs({20, 21}), RegSet());
  EXPECT_FALSE(e.waits_on.any());
}

TEST(LoadDependences, ImporterFillsTheScoreboardFields) {
  // tests/data/accelsim/small kernel 1, warp 0: LDG R4; STS reads R4 (a compute cycle); STG reads R4.
  auto w = gms::load_accelsim_workload(gms::test::sample("small/kernelslist.g"));
  auto got = gms::test::drain(*w);
  ASSERT_GE(got.size(), 2u);
  EXPECT_EQ(got[0].inst.writes, regs({4}));
  EXPECT_FALSE(got[0].inst.waits_on.any());
  EXPECT_EQ(got[1].inst.waits_on, regs({4}));
  EXPECT_EQ(got[1].inst.wait_gap, 1u);
}

TEST(LoadDependences, H100StencilStoreWaitsForItsFourLoads) {
  // kernel-6 warp 0: LDG R23..R27, STG reads R24 R25 R26 R27 (R23 is not part of the stored value).
  auto w = gms::load_accelsim_workload(gms::test::sample("h100/kernelslist.g"));
  auto k = w->next_kernel();
  k = w->next_kernel();  // kernel 6 is the second
  ASSERT_TRUE(k);
  auto cta = k->next_cta();
  gms::WarpInst in;
  std::vector<gms::WarpInst> prog;
  while (cta->warps[0]->next(in)) prog.push_back(in);
  ASSERT_EQ(prog.size(), 6u);
  for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(prog[i].writes, regs({23 + i})) << i;
  EXPECT_EQ(prog[5].waits_on, regs({24, 25, 26, 27}));
  EXPECT_EQ(prog[5].wait_gap, 0u);
}
