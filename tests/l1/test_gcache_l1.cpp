// G-Cache (design `gcache`, paper 001 section 4) against the scripted SM and a 10-cycle memory at 1 GHz
// whose victim-bit emulation stands for an LLC that never evicts. The exact test is Figure 7's stream on
// one 2-way set; then the periodic switch reset, a random stress with the golden data, and the params.
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/common/config.h"
#include "models/l1/gcache_l1.h"

using namespace gms;
using namespace gms::test;

namespace {
// One set of two 128 B ways, linear index: every line lands in set 0.
constexpr uint64_t A1 = 0x000, A2 = 0x080, B1 = 0x100, B2 = 0x180;

L1Params one_set() {
  L1Params p = test_params("lru", SetIndexFn::Linear);
  p.design = "gcache";
  p.size_bytes = 256;
  p.ways = 2;
  return p;
}
BenchOptions with_victim_bits() {
  BenchOptions o;
  o.victim_bits = true;
  return o;
}
std::vector<SmOp> figure7() {
  std::vector<SmOp> ops;
  for (uint64_t a : {A1, A2, B1, A2, A1, A1, B1, B2, A1, A2, B1, B1}) ops.push_back(load(a));
  return ops;
}
GCacheL1& gcache(Bench& b) {
  return static_cast<GCacheL1&>(*b.l1);
}
// Hits answer after hit_latency (1 cycle); anything that went downstream takes longer.
std::vector<bool> hit_pattern(Bench& b) {
  std::vector<bool> v;
  for (const SmResult& r : b.sm->results) v.push_back(r.resp_cycle == r.issue_cycle + 1);
  return v;
}
}  // namespace

TEST(L1GCache, Figure7StreamBypassesTheStreamingLinesAndKeepsTheHotOnes) {
  Bench b(one_set(), figure7(), with_victim_bits());
  sc_core::sc_start();
  // a1 a2 b1 | a2 hit | a1 miss (victim bit: switch opens, b1 at RRPV 6 is not hot: installed over b1) |
  // a1 hit | b1 (victim bit, a1=0 a2=1 < 2) and b2 (no bit, 1 2 < 4) bypassed | a1 a2 hit | b1 b1 bypassed.
  EXPECT_EQ(hit_pattern(b), (std::vector<bool>{false, false, false, true, false, true, false, false, true,
                                               true, false, false}));
  EXPECT_EQ(b.stat("hits"), 4u);
  EXPECT_EQ(b.stat("misses"), 8u);
  EXPECT_EQ(b.stat("fill_bypasses"), 4u);
  EXPECT_EQ(b.stat("switch_opens"), 1u);
  EXPECT_EQ(b.stat("victim_bits_returned"), 4u);  // a1's second miss and the three later b1 misses
  EXPECT_EQ(b.stat("evictions"), 2u);             // b1 evicted a1, a1 evicted b1
  EXPECT_EQ(b.stat("fills"), 8u);
  EXPECT_EQ(b.stat("fills_dropped"), 0u);
  EXPECT_EQ(b.mem->log, reads({A1, A2, B1, A1, B1, B2, B1, B1}));
  GCacheL1& g = gcache(b);
  EXPECT_TRUE(g.switch_on(0));
  EXPECT_EQ(g.tags().entry(0, 0).line, A1);
  EXPECT_EQ(g.tags().entry(0, 1).line, A2);
  EXPECT_TRUE(g.tags().entry(0, 0).valid && g.tags().entry(0, 1).valid);
  // Four bypasses aged them by one each after a1, a2 were last set to 0: both at 2, so the next b1
  // (victim threshold 2) finds no hot line and is installed.
  EXPECT_EQ(g.srrip().rrpv(0, 0), 2u);
  EXPECT_EQ(g.srrip().rrpv(0, 1), 2u);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1GCache, ABypassedLineGetsInOnceTheSetHasCooledDown) {
  std::vector<SmOp> ops = figure7();
  ops.push_back(load(B1));  // RRPVs 2, 2: not hot for a victim-bit fill: installed over a1 (way 0)
  ops.push_back(load(B1));  // hit
  Bench b(one_set(), ops, with_victim_bits());
  sc_core::sc_start();
  EXPECT_EQ(b.stat("fill_bypasses"), 4u);
  EXPECT_EQ(b.stat("hits"), 5u);
  EXPECT_EQ(b.stat("evictions"), 3u);
  GCacheL1& g = gcache(b);
  EXPECT_EQ(g.tags().entry(0, 0).line, B1);
  EXPECT_EQ(g.srrip().rrpv(0, 0), 0u);  // inserted at 6, hit
  EXPECT_EQ(g.srrip().rrpv(0, 1), 7u);  // aged from 2 to 7 when the victim was chosen
  expect_all_answered(b);
}

TEST(L1GCache, WithoutVictimBitsTheSwitchStaysOffAndItIsPlainSrrip) {
  Bench b(one_set(), figure7());
  sc_core::sc_start();
  EXPECT_EQ(b.stat("switch_opens"), 0u);
  EXPECT_EQ(b.stat("fill_bypasses"), 0u);
  EXPECT_EQ(b.stat("victim_bits_returned"), 0u);
  EXPECT_EQ(b.stat("misses") + b.stat("hits"), 12u);
  EXPECT_FALSE(gcache(b).switch_on(0));
  expect_all_answered(b);
}

TEST(L1GCache, PeriodicResetClosesTheSwitchesLazily) {
  auto ops = [] {
    std::vector<SmOp> v;
    for (uint64_t a : {A1, A2, B1, A2, A1, A1}) v.push_back(load(a));  // the switch opens at the 2nd a1
    SmOp late = load(B2);  // a new streaming line long after, two reset points (1000, 2000) later
    late.not_before = 2500;
    v.push_back(late);
    return v;
  };
  L1Params p = one_set();
  p.gcache.switch_reset_cycles = 1000;
  Bench b(p, ops(), with_victim_bits());
  sc_core::sc_start();
  EXPECT_EQ(b.stat("switch_opens"), 1u);
  EXPECT_EQ(b.stat("switch_resets"), 1u);  // both reset points collapse into the lazy one at cycle 2500
  EXPECT_EQ(b.stat("fill_bypasses"), 0u);  // b2 found the switch closed: installed
  EXPECT_EQ(b.stat("evictions"), 3u);
  EXPECT_FALSE(gcache(b).switch_on(0));
  expect_all_answered(b);
}

TEST(L1GCache, WithoutPeriodicResetTheSameLateLineIsBypassed) {
  std::vector<SmOp> v;
  for (uint64_t a : {A1, A2, B1, A2, A1, A1}) v.push_back(load(a));
  SmOp late = load(B2);
  late.not_before = 2500;
  v.push_back(late);
  Bench b(one_set(), v, with_victim_bits());
  sc_core::sc_start();
  EXPECT_EQ(b.stat("switch_resets"), 0u);
  EXPECT_EQ(b.stat("fill_bypasses"), 1u);
  EXPECT_TRUE(gcache(b).switch_on(0));
  expect_all_answered(b);
}

TEST(L1GCache, AStoreToALineInFlightKeepsItsFillOut) {
  // Load a1 (miss), store a1 while the fill is in flight, load a1 again (waits for the stale fill to
  // pass, then misses and reads the stored bytes).
  Bench b(one_set(), {load(A1, false), store(A1, 0xF, 0x40, false), load(A1, false)}, with_victim_bits());
  sc_core::sc_start();
  EXPECT_EQ(b.stat("no_fill_marks"), 1u);
  EXPECT_GT(b.stat("rf_no_fill"), 0u);
  EXPECT_EQ(b.stat("fills_dropped"), 1u);
  EXPECT_EQ(b.stat("misses"), 2u);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1GCache, AStoreHitEvictsTheLine) {
  Bench b(one_set(), {load(A1), store(A1, 0x1, 0x40), load(A1)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("write_evicts"), 1u);
  EXPECT_EQ(b.stat("misses"), 2u);
  expect_all_answered(b);
}

TEST(L1GCache, EveryRequestGetsOneResponseWithTheRightBytesUnderStress) {
  // Four 2-way sets: six of the ten random lines share set 0, so victim bits come back and switches open.
  L1Params p = test_params("lru", SetIndexFn::Linear);
  p.design = "gcache";
  p.size_bytes = 1024;
  p.ways = 2;
  BenchOptions o = with_victim_bits();
  o.mem_latency = 7;
  Bench b(tight(p), random_ops(5, 800), o);
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  expect_counts_add_up(b);
  EXPECT_GT(b.stat("fill_bypasses"), 0u);
  EXPECT_GT(b.stat("switch_opens"), 0u);
  EXPECT_GT(b.stat("hit_pending"), 0u);
  EXPECT_GT(b.stat("no_fill_marks"), 0u);
  EXPECT_GT(b.stat("rf_mshr"), 0u);
  EXPECT_EQ(b.stat("rf_line"), 0u);  // allocate on fill: a miss never needs a way
  EXPECT_EQ(gcache(b).mshrs().size(), 0u);
  expect_all_answered(b);
}

TEST(L1GCache, ParamsDefaultsAndKeys) {
  L1Params d = L1Params::from(ConfigNode::load_string("l1: {}\n", "t.yaml").child("l1"));
  EXPECT_EQ(d.gcache.rrpv_bits, 3u);
  EXPECT_EQ(d.gcache.hot_threshold, 4u);
  EXPECT_EQ(d.gcache.victim_hot_threshold, 2u);
  EXPECT_EQ(d.gcache.switch_reset_cycles, 0u);
  EXPECT_EQ(d.gcache.sms_per_victim_bit, 1u);
  L1Params p = L1Params::from(
      ConfigNode::load_string("l1:\n  design: gcache\n  gcache:\n    rrpv_bits: 2\n    hot_threshold: 3\n"
                              "    victim_hot_threshold: 1\n    switch_reset_cycles: 5000\n"
                              "    sms_per_victim_bit: 4\n",
                              "t.yaml")
          .child("l1"));
  EXPECT_EQ(p.design, "gcache");
  EXPECT_EQ(p.gcache.rrpv_bits, 2u);
  EXPECT_EQ(p.gcache.hot_threshold, 3u);
  EXPECT_EQ(p.gcache.victim_hot_threshold, 1u);
  EXPECT_EQ(p.gcache.switch_reset_cycles, 5000u);
  EXPECT_EQ(p.gcache.sms_per_victim_bit, 4u);
}

TEST(L1GCache, ParamsErrorsNameTheKey) {
  EXPECT_NE(l1_params_error("l1:\n  gcache:\n    hot_treshold: 3\n").find("l1.gcache.hot_treshold"),
            std::string::npos);
  EXPECT_NE(l1_params_error("l1:\n  gcache:\n    rrpv_bits: 9\n").find("l1.gcache.rrpv_bits"),
            std::string::npos);
  EXPECT_NE(l1_params_error("l1:\n  gcache:\n    rrpv_bits: 2\n    hot_threshold: 5\n")
                .find("l1.gcache.hot_threshold"),
            std::string::npos);
  EXPECT_NE(
      l1_params_error("l1:\n  gcache:\n    victim_hot_threshold: 5\n").find("l1.gcache.victim_hot_threshold"),
      std::string::npos);
  EXPECT_NE(
      l1_params_error("l1:\n  gcache:\n    sms_per_victim_bit: 0\n").find("l1.gcache.sms_per_victim_bit"),
      std::string::npos);
  EXPECT_NE(
      l1_params_error("l1:\n  design: gcache\n  line_bytes: 64\n  set_index: linear\n").find("l1.line_bytes"),
      std::string::npos);
}
