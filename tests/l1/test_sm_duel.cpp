// SM dueling (paper 002 sec. 4.3) with three L1s' duels sharing one DecisionBoard: SM 0 posts the
// design's miss rate, SM 1 the baseline's, SM 2 follows the verdict judged lazily at the first access
// after each 500-cycle boundary.
#include <gtest/gtest.h>

#include "models/l1/sm_duel.h"

using namespace gms;

namespace {
struct Duel {
  DecisionBoard board;
  DecoupledParams p;
  SmDuel sm0{board, 0, p}, sm1{board, 1, p}, sm2{board, 2, p};
  // One interval's loads: `loads` each for SM 0 and SM 1 in cycles [start, start + loads), with the given
  // numbers of misses; every access asks for its mode first, as the L1 does.
  void interval(uint64_t start, int loads, int miss0, int miss1) {
    for (int i = 0; i < loads; ++i) {
      uint64_t c = start + uint64_t(i);
      sm0.mode(c);
      sm0.record(c, i < miss0);
      sm1.mode(c);
      sm1.record(c, i < miss1);
    }
  }
};
}  // namespace

TEST(L1SmDuel, LeadersKeepTheirModeAndTheRestStartAsTheBaseline) {
  Duel d;
  EXPECT_EQ(d.sm0.mode(0), SmDuel::kDesign);
  EXPECT_EQ(d.sm1.mode(0), SmDuel::kBaseline);
  EXPECT_EQ(d.sm2.mode(0), SmDuel::kBaseline);
  EXPECT_EQ(d.sm2.role(), SmDuel::Role::Follower);
}

TEST(L1SmDuel, TheVerdictFollowsTheMissRatesOfTheIntervalJustEnded) {
  Duel d;
  d.interval(0, 100, 20, 50);                     // design 0.20 vs baseline 0.50: the design
  EXPECT_EQ(d.sm2.mode(499), SmDuel::kBaseline);  // nothing judged before the boundary
  EXPECT_EQ(d.sm2.mode(500), SmDuel::kDesign);
  d.interval(500, 100, 90, 50);  // 0.90 vs 0.50: more than 0.10 worse: the baseline
  EXPECT_EQ(d.sm2.mode(1000), SmDuel::kBaseline);
  d.interval(1000, 100, 60, 50);  // 0.60 vs 0.50: worse by exactly 0.10, not more: the design
  EXPECT_EQ(d.sm2.mode(1500), SmDuel::kDesign);
  d.interval(1500, 100, 61, 50);                 // 0.61 vs 0.50: the baseline
  EXPECT_EQ(d.sm0.mode(2000), SmDuel::kDesign);  // a leader's access judges too
  EXPECT_EQ(d.sm2.mode(2000), SmDuel::kBaseline);
  EXPECT_EQ(d.sm2.decision().changes(), 4u);
  EXPECT_EQ(d.sm2.mode(2000), d.sm1.mode(2000));  // SM 2 now runs what SM 1 runs
}

TEST(L1SmDuel, IdleIntervalsAndALeaderWithoutLoadsKeepTheVerdict) {
  Duel d;
  d.interval(0, 50, 0, 40);
  EXPECT_EQ(d.sm2.mode(5000), SmDuel::kDesign);  // judged from interval 0 although 9 more passed
  for (uint64_t c = 5000; c < 5100; ++c) {       // only SM 0 loads: no miss rate of SM 1 to compare
    d.sm0.mode(c);
    d.sm0.record(c, true);
  }
  EXPECT_EQ(d.sm2.mode(6000), SmDuel::kDesign);
  EXPECT_EQ(d.sm2.decision().changes(), 1u);
}

TEST(L1SmDuel, WithoutDuelingEverySmRunsTheDesign) {
  DecisionBoard board;
  DecoupledParams p;
  p.dueling = false;
  SmDuel sm1(board, 1, p), sm5(board, 5, p);
  EXPECT_EQ(sm1.mode(0), SmDuel::kDesign);
  EXPECT_EQ(sm5.mode(10000), SmDuel::kDesign);
}
