// L1s whose capacity gives a set count that is not a power of two (the H100's 28 KiB and 224 KiB carve-outs,
// issue 14): the linear index takes the line number modulo the set count.
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/l1/l1_pipeline.h"

using namespace gms;
using namespace gms::test;

namespace {
L1Params sets56(const std::string& design) {
  L1Params p = test_params("lru", SetIndexFn::Linear);
  p.design = design;
  p.size_bytes = 28 * 1024;  // 224 lines, 4 ways: 56 sets
  return p;
}
}  // namespace

TEST(L1SetCounts, FiftySixSetsMapLinesModuloTheSetCount) {
  const uint64_t stride = 56 * 128;  // lines this far apart share a set
  const uint64_t A = 0, B = stride, C = 2 * stride, D = 3 * stride, E = 4 * stride;
  Bench b(sets56("baseline"), {load(A), load(B), load(C), load(D), load(0x80), load(E), load(A)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 7u);
  EXPECT_EQ(b.stat("evictions"), 2u);  // E evicts A (LRU of set 0), A then evicts B; 0x80 is in set 1
  EXPECT_EQ(b.mem->log, reads({A, B, C, D, 0x80, E, A}));
  expect_all_answered(b);
}

class SetCountStress : public ::testing::TestWithParam<std::string> {};

TEST_P(SetCountStress, EveryRequestGetsOneResponseWithTheRightBytes) {
  Bench b(tight(sets56(GetParam())), random_ops(17, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  expect_counts_add_up(b);
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_EQ(static_cast<L1Pipeline&>(*b.l1).mshrs().size(), 0u);
  expect_all_answered(b);
}

INSTANTIATE_TEST_SUITE_P(Designs, SetCountStress,
                         ::testing::Values("baseline", "sector", "tsc", "tsc_plus", "dsc", "gcache",
                                           "decoupled", "stall_bypass"));
