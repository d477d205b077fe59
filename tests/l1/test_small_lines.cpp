// The baseline with small lines (l1.line_bytes 32 and 64; paper 000 sec. 2.2, figures 2-5): the SM sends
// one request per small line, framed as its 128 B line; every small line is a line of its own with its
// own tag, MSHR entry and fill of just its chunks.
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/l1/baseline_l1.h"

using namespace gms;
using namespace gms::test;

namespace {
L1Params small(uint32_t line_bytes) {
  L1Params p = test_params("lru", SetIndexFn::Linear);  // 16 KB, 4 ways
  p.line_bytes = line_bytes;
  return p;
}
// random_ops with every load's chunk mask cut to the small line of its lowest chunk (as the SM splits).
std::vector<SmOp> small_ops(uint32_t line_bytes, uint64_t seed, int n) {
  std::vector<SmOp> ops = random_ops(seed, n);
  const unsigned per = line_bytes / 32;
  for (SmOp& o : ops) {
    const unsigned first = unsigned(__builtin_ctz(o.mask)) / per * per;
    o.mask = uint8_t(o.mask & (((1u << per) - 1) << first));
  }
  return ops;
}
}  // namespace

TEST(L1SmallLines, EachThirtyTwoByteLineMissesHitsAndIsFetchedOnItsOwn) {
  Bench b(small(32),
          {load(0x0, false, 0x1), load(0x0, false, 0x2), load(0x0, true, 0x1), load(0x0, true, 0x4)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 3u);  // lines 0x0, 0x20 and 0x40
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.mem->log, reads({0x0, 0x0, 0x0}));  // framed as the 128 B line
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x1, 0x2, 0x4}));
  EXPECT_EQ(b.stat("from_l2_bytes"), 96u);
  expect_all_answered(b);
}

TEST(L1SmallLines, TwoSmallLinesInFlightTakeTwoMshrEntries) {
  L1Params p = small(32);
  p.mshr_entries = 1;
  Bench b(p, {load(0x0, false, 0x1), load(0x0, false, 0x2)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_GT(b.stat("rf_mshr"), 0u);  // a 128 B-line cache would have merged them
  expect_all_answered(b);
}

TEST(L1SmallLines, SixtyFourByteLinesHoldTwoChunks) {
  Bench b(small(64), {load(0x0, true, 0x3), load(0x0, true, 0x1), load(0x0, true, 0xC)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x3, 0xC}));
  expect_all_answered(b);
}

TEST(L1SmallLines, ALoadSpanningTwoSmallLinesIsABurstError) {
  Bench b(small(32), {load(0x0, true, 0x3)});
  sc_core::sc_start();
  ASSERT_EQ(b.sm->results.size(), 1u);
  EXPECT_EQ(b.sm->results[0].status, tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_TRUE(b.mem->log.empty());
}

TEST(L1SmallLines, AStoreEvictsEverySmallLineItWrites) {
  Bench b(small(32), {load(0x0, true, 0x1), load(0x0, true, 0x2), load(0x0, true, 0x4), store(0x0, 0x3, 0x40),
                      load(0x0, true, 0x1), load(0x0, true, 0x4)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("write_evicts"), 2u);
  EXPECT_EQ(b.stat("hits"), 1u);  // line 0x40 was not written
  expect_all_answered(b);
}

class SmallLineStress : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SmallLineStress, EveryRequestGetsOneResponseWithTheRightBytes) {
  L1Params p = tight(small(GetParam()));
  p.size_bytes = 2048;  // small, so the ten lines of the stream conflict
  Bench b(p, small_ops(GetParam(), 9, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  expect_counts_add_up(b);
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_GT(b.stat("evictions"), 0u);
  EXPECT_EQ(static_cast<BaselineL1&>(*b.l1).mshrs().size(), 0u);
  expect_all_answered(b);
}

INSTANTIATE_TEST_SUITE_P(LineBytes, SmallLineStress, ::testing::Values(32u, 64u),
                         [](const auto& i) { return std::to_string(i.param) + "B"; });
