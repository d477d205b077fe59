// TSC+ set dueling (paper 000 sec. 3.5) and random load/store stress of the chunk-storage designs.
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/l1/tag_split_cache.h"

using namespace gms;
using namespace gms::test;

namespace {
L1Params linear32(const std::string& design) {
  L1Params p = test_params("lru", SetIndexFn::Linear);  // 16 KB, 4 ways, 32 sets
  p.design = design;
  return p;
}
}  // namespace

TEST(L1TscPlusDuel, SamplerSetsAreSpreadHalfFineHalfCoarseInTheLeaderOnly) {
  TscPlusParams p;  // 8 samplers over 32 sets: sets 0, 4, ..., 28
  TscModeDuel leader(p, 32, true, nullptr), other(p, 32, false, nullptr);
  EXPECT_EQ(leader.role(0), TscModeDuel::FineSampler);
  EXPECT_EQ(leader.role(4), TscModeDuel::CoarseSampler);
  EXPECT_EQ(leader.role(8), TscModeDuel::FineSampler);
  EXPECT_EQ(leader.role(28), TscModeDuel::CoarseSampler);
  EXPECT_EQ(leader.role(1), TscModeDuel::Follower);
  EXPECT_EQ(other.role(0), TscModeDuel::Follower);
  int samplers = 0;
  for (uint32_t s = 0; s < 32; ++s) samplers += leader.role(s) != TscModeDuel::Follower;
  EXPECT_EQ(samplers, 8);
}

TEST(L1TscPlusDuel, TheSmallerMissTimesTrafficProductWinsAndCountersAgeAboveTheThreshold) {
  TscPlusParams p;
  p.aging_threshold = 4;
  DecisionBoard board;
  TscModeDuel d(p, 32, true, &board);
  EXPECT_EQ(d.follower_mode(), TscModeDuel::Fine);
  d.count_miss(4, 4);  // coarse: 1 miss, 5 packets -> product 5 vs fine 0
  EXPECT_EQ(d.follower_mode(), TscModeDuel::Fine);
  for (int i = 0; i < 3; ++i) d.count_miss(0, 1);  // fine: 3 misses, 6 packets -> 18 > 5
  EXPECT_EQ(d.follower_mode(), TscModeDuel::Coarse);
  EXPECT_EQ(board.decision("l1.tsc_plus.mode", 0).get(), uint32_t(TscModeDuel::Coarse));
  d.count_miss(0, 1);
  d.count_miss(0, 1);  // the fifth fine miss exceeds 4: all four counters halve
  EXPECT_EQ(d.agings(), 1u);
  EXPECT_EQ(d.misses(TscModeDuel::Fine), 2u);
  EXPECT_EQ(d.traffic(TscModeDuel::Fine), 5u);
  EXPECT_EQ(d.misses(TscModeDuel::Coarse), 0u);
  EXPECT_EQ(d.traffic(TscModeDuel::Coarse), 2u);
}

// A line read one chunk per instruction: the fine sampler (set 0) misses four times (4 x 2 packets), the
// coarse sampler (set 4) once (1 + 4 packets) and then hits, so followers switch to coarse storage and a
// one-chunk load to a follower set fetches the whole line.
TEST(L1TscPlusDuel, ChunkByChunkStreamingMakesFollowersStoreWholeLines) {
  std::vector<SmOp> ops;
  for (uint64_t line : {uint64_t(0x0), uint64_t(0x200)})
    for (uint8_t m : {0x1, 0x2, 0x4, 0x8}) ops.push_back(load(line, true, m));
  ops.push_back(load(0x80, true, 0x1));  // set 1, a follower
  Bench b(linear32("tsc_plus"), ops);
  sc_core::sc_start();
  const TscModeDuel* d = static_cast<TagSplitCache&>(*b.l1).duel();
  EXPECT_EQ(d->misses(TscModeDuel::Fine), 4u);
  EXPECT_EQ(d->traffic(TscModeDuel::Fine), 8u);
  EXPECT_EQ(d->misses(TscModeDuel::Coarse), 1u);
  EXPECT_EQ(d->traffic(TscModeDuel::Coarse), 5u);
  EXPECT_EQ(d->follower_mode(), TscModeDuel::Coarse);
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x1, 0x2, 0x4, 0x8, 0xF, 0xF}));
  EXPECT_EQ(b.stat("coarse_misses"), 2u);
  EXPECT_EQ(b.stat("hits"), 3u);
  expect_all_answered(b);
}

TEST(L1TscPlusDuel, PlainTscNeverStoresCoarse) {
  std::vector<SmOp> ops;
  for (uint8_t m : {0x1, 0x2, 0x4, 0x8}) ops.push_back(load(0x200, true, m));
  Bench b(linear32("tsc"), ops);
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x1, 0x2, 0x4, 0x8}));
  EXPECT_EQ(static_cast<TagSplitCache&>(*b.l1).duel(), nullptr);
}

class ChunkDesignStress : public ::testing::TestWithParam<std::pair<std::string, uint32_t>> {};

TEST_P(ChunkDesignStress, EveryRequestGetsOneResponseWithTheRightBytes) {
  L1Params p = tight(test_params("lru"));
  p.design = GetParam().first;
  p.tsc.chunk_bytes = GetParam().second;
  p.tsc_plus.sampler_sets = 8;
  Bench b(p, random_ops(21, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  expect_counts_add_up(b);
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_GT(b.stat("reservation_fails"), 0u);
  EXPECT_EQ(static_cast<L1Pipeline&>(*b.l1).mshrs().size(), 0u);
  expect_all_answered(b);
}

INSTANTIATE_TEST_SUITE_P(Designs, ChunkDesignStress,
                         ::testing::Values(std::make_pair(std::string("tsc"), 32u),
                                           std::make_pair(std::string("tsc"), 8u),
                                           std::make_pair(std::string("tsc"), 64u),
                                           std::make_pair(std::string("tsc_plus"), 32u),
                                           std::make_pair(std::string("dsc"), 32u)),
                         [](const auto& i) { return i.param.first + "_" + std::to_string(i.param.second); });
