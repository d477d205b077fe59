// The Decoupled L1D (design `decoupled`, paper 002 sec. 4) against the scripted SM and a 10-cycle memory
// at 1 GHz. The bench's L1 is SM 0, so with its private DecisionBoard it always runs the design.
// Sequence implemented (threshold 2): the first access of a line allocates its tag entry with RC = 1 and
// bypasses; the second raises RC to 2 and allocates a data line (a miss); the third hits.
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/l1/decoupled_l1.h"

using namespace gms;
using namespace gms::test;

namespace {
// Linear index, 32 sets: lines 0x1000 apart share set 0.
constexpr uint64_t L(uint64_t k) {
  return k * 0x1000;
}
L1Params dec_params(SetIndexFn index = SetIndexFn::Linear) {
  L1Params p = test_params("lru", index);
  p.design = "decoupled";
  return p;
}
DecoupledL1& dec(Bench& b) {
  return static_cast<DecoupledL1&>(*b.l1);
}
const DecoupledTagEntry& entry_of(Bench& b, uint64_t line) {
  DecoupledL1& d = dec(b);
  uint32_t set = d.tags().set_of(line);
  int w = d.tag_store().find(set, line);
  EXPECT_GE(w, 0) << std::hex << line;
  return d.tag_store().entry(set, uint32_t(w < 0 ? 0 : w));
}
// Every data line (valid or reserved) has the tag entry that points at it, and every Position points at
// the data line of its own tag.
void expect_stores_agree(Bench& b) {
  DecoupledL1& d = dec(b);
  for (uint32_t s = 0; s < d.tags().sets(); ++s) {
    for (uint32_t w = 0; w < d.tags().ways(); ++w) {
      const TagEntry& e = d.tags().entry(s, w);
      if (!e.valid && !e.reserved) continue;
      int tw = d.tag_store().find(s, e.line);
      ASSERT_GE(tw, 0);
      EXPECT_EQ(d.tag_store().entry(s, uint32_t(tw)).position, int(w));
    }
    for (uint32_t w = 0; w < d.tag_store().ways(); ++w) {
      const DecoupledTagEntry& x = d.tag_store().entry(s, w);
      if (x.valid && x.position >= 0) {
        EXPECT_EQ(d.tags().entry(s, uint32_t(x.position)).line, x.line);
      }
    }
  }
}
}  // namespace

TEST(L1Decoupled, ALineBypassesUntilItsCountReachesTheThresholdThenHits) {
  Bench b(dec_params(), {load(L(1)), load(L(1)), load(L(1))});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({L(1), L(1)}));  // the bypass and the allocation; the third hits
  EXPECT_EQ(b.stat("bypasses"), 1u);
  EXPECT_EQ(b.stat("misses"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("tag_allocations"), 1u);
  EXPECT_EQ(b.stat("rc_threshold_allocations"), 1u);
  EXPECT_EQ(b.stat("aging_steps"), 1u);  // one allocation into a free way
  auto& r = b.sm->results;
  EXPECT_EQ(r[0].resp_cycle, 12u);  // a bypass takes the miss path's time: sent 1, memory 11, back 12
  EXPECT_EQ(r[1].resp_cycle, r[1].issue_cycle + 12);
  EXPECT_EQ(r[2].resp_cycle, r[2].issue_cycle + 1);
  EXPECT_EQ(entry_of(b, L(1)).rc, 2u);
  EXPECT_EQ(entry_of(b, L(1)).position, 0);
  EXPECT_EQ(dec(b).mshrs().size(), 0u);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1Decoupled, AllocationsAgeTheSetAndAnEvictedLineRestartsAtZero) {
  // Five lines of set 0, each loaded twice: the fifth allocation evicts the LRU line (line 1).
  std::vector<SmOp> ops;
  for (uint64_t k = 1; k <= 5; ++k) ops.insert(ops.end(), {load(L(k)), load(L(k))});
  ops.push_back(load(L(1)));
  Bench b(dec_params(), ops);
  sc_core::sc_start();
  // RC after each allocation (others aged by 1, by 2 when the allocation also evicts):
  // 1: {1:2}; 2: {1:1, 2:2}; 3: {1:0, 2:1, 3:2}; 4: {1:0, 2:0, 3:1, 4:2}; 5 evicts 1: {2:0, 3:0, 4:0, 5:2}
  // and line 1's entry restarts at 0, so its next load raises it to 1 only: a bypass.
  EXPECT_EQ(b.stat("aging_steps"), 6u);
  EXPECT_EQ(b.stat("evictions"), 1u);
  EXPECT_EQ(b.stat("bypasses"), 6u);
  EXPECT_EQ(b.stat("misses"), 5u);
  EXPECT_EQ(entry_of(b, L(1)).rc, 1u);
  EXPECT_EQ(entry_of(b, L(1)).position, -1);
  EXPECT_EQ(entry_of(b, L(2)).rc, 0u);
  EXPECT_EQ(entry_of(b, L(3)).rc, 0u);
  EXPECT_EQ(entry_of(b, L(4)).rc, 0u);
  EXPECT_EQ(entry_of(b, L(5)).rc, 2u);
  EXPECT_EQ(entry_of(b, L(5)).position, 0);  // line 1's way
  EXPECT_EQ(b.mem->log, reads({L(1), L(1), L(2), L(2), L(3), L(3), L(4), L(4), L(5), L(5), L(1)}));
  expect_stores_agree(b);
  expect_all_answered(b);
}

TEST(L1Decoupled, AStaleEntryAgesToZeroAndLeavesTheTagStoreFirst) {
  // Line 1 seen once (RC 1); line 2's allocation ages it to 0; six more single loads fill the eight
  // tag ways. The next new line replaces line 1 (smallest RC); the one after, with every candidate at
  // RC 1, the oldest candidate (line 3).
  std::vector<SmOp> ops = {load(L(1)), load(L(2)), load(L(2))};
  for (uint64_t k = 3; k <= 8; ++k) ops.push_back(load(L(k)));
  ops.push_back(load(L(9)));
  ops.push_back(load(L(10)));
  Bench b(dec_params(), ops);
  sc_core::sc_start();
  DecoupledL1& d = dec(b);
  EXPECT_EQ(d.tag_store().find(0, L(1)), -1);
  EXPECT_EQ(d.tag_store().find(0, L(3)), -1);
  for (uint64_t k : {2, 4, 5, 6, 7, 8, 9, 10}) EXPECT_GE(d.tag_store().find(0, L(k)), 0) << k;
  EXPECT_EQ(b.stat("tag_allocations"), 10u);
  EXPECT_EQ(b.stat("tag_evictions"), 2u);
  EXPECT_EQ(b.stat("bypasses"), 10u);
  EXPECT_EQ(b.stat("misses"), 1u);
  expect_all_answered(b);
}

TEST(L1Decoupled, AReservationFailLeavesTheCountUnchanged) {
  // One MSHR entry: line 1's allocation holds it, so line 2's allocating load fails until the fill
  // and retries; its RC still ends at 2.
  L1Params p = dec_params();
  p.mshr_entries = 1;
  Bench b(p, {load(L(1), false), load(L(1), false), load(L(2), false), load(L(2), false)});
  sc_core::sc_start();
  EXPECT_GT(b.stat("rf_mshr"), 5u);
  EXPECT_EQ(entry_of(b, L(2)).rc, 2u);
  EXPECT_EQ(entry_of(b, L(2)).position, 1);
  EXPECT_EQ(b.stat("rc_threshold_allocations"), 2u);
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(b.stat("bypasses"), 2u);
  expect_counts_add_up(b);
  expect_all_answered(b);
}

TEST(L1Decoupled, AStoreToALineInFlightKeepsItsFillOut) {
  Bench b(dec_params(), {load(L(1)), load(L(1), false), store(L(1), 0xF, 0x40, false), load(L(1), false)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("no_fill_marks"), 1u);
  EXPECT_EQ(b.stat("fills_dropped"), 1u);
  EXPECT_GT(b.stat("rf_no_fill"), 0u);
  // The dropped fill freed the data line: the entry keeps RC 2, so the last load allocates again.
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(entry_of(b, L(1)).rc, 3u);
  EXPECT_EQ(b.mem->log,
            (std::vector<std::pair<char, uint64_t>>{{'R', L(1)}, {'R', L(1)}, {'W', L(1)}, {'R', L(1)}}));
  expect_stores_agree(b);
  expect_all_answered(b);  // op 1 sees the old bytes, op 3 the stored ones
}

TEST(L1Decoupled, AStoreHitEvictsTheLineAndTheEntryKeepsItsCount) {
  Bench b(dec_params(), {load(L(1)), load(L(1)), store(L(1), 0xF, 0x40), load(L(1)), load(L(1))});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("write_evicts"), 1u);
  EXPECT_EQ(b.stat("misses"), 2u);  // RC 2 -> 3 after the write-evict: allocated again at once
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("aging_steps"), 2u);  // write-evict is no replacement: it does not age
  expect_stores_agree(b);
  expect_all_answered(b);
}

TEST(L1Decoupled, ThresholdZeroIsTheBaseline) {
  L1Params p = dec_params();
  p.decoupled.threshold = 0;
  Bench b(p, {load(L(1)), load(L(1))});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("bypasses"), 0u);
  EXPECT_EQ(b.stat("tag_allocations"), 1u);
  expect_all_answered(b);
}

TEST(L1Decoupled, EveryRequestGetsOneResponseWithTheRightBytesUnderStress) {
  Bench b(tight(dec_params(SetIndexFn::FermiHash)), random_ops(5, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  expect_counts_add_up(b);
  EXPECT_GT(b.stat("bypasses"), 0u);
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_GT(b.stat("hit_pending"), 0u);
  EXPECT_GT(b.stat("rc_threshold_allocations"), 0u);
  EXPECT_GT(b.stat("rf_no_fill") + b.stat("no_fill_marks"), 0u);
  EXPECT_GT(b.stat("reservation_fails"), 0u);
  EXPECT_EQ(b.stat("design_loads"), b.stat("loads"));
  EXPECT_EQ(dec(b).mshrs().size(), 0u);
  expect_stores_agree(b);
  expect_all_answered(b);
}

TEST(L1Decoupled, ATagStoreNotLargerThanTheDataStoreIsAConfigError) {
  L1Params p = dec_params();
  p.decoupled.tag_ways = 4;
  PayloadPool pool;
  StatGroup root{"top"};
  BlockEnv env;
  env.stats = &root;
  env.pool = &pool;
  EXPECT_EQ(
      config_error_of([&] { make_l1(p, "l1", 0, env); }),
      "l1.decoupled.tag_ways: 4 tag entries per set must exceed the data store's l1.ways (4), else data "
      "lines are wasted");
}

namespace {}  // namespace

TEST(L1Decoupled, ParamsDefaultsFollowTable3AndEveryKeyIsRead) {
  L1Params d = L1Params::from(ConfigNode::load_string("l1: {}\n", "t.yaml").child("l1"));
  EXPECT_EQ(d.decoupled.tag_ways, 8u);
  EXPECT_EQ(d.decoupled.rc_bits, 6u);
  EXPECT_EQ(d.decoupled.rc_max(), 63u);
  EXPECT_EQ(d.decoupled.threshold, 2u);
  EXPECT_TRUE(d.decoupled.dueling);
  EXPECT_EQ(d.decoupled.duel_interval, 500u);
  EXPECT_DOUBLE_EQ(d.decoupled.duel_threshold, 0.10);
  L1Params p =
      L1Params::from(ConfigNode::load_string("l1:\n  design: decoupled\n  decoupled:\n    tag_ways: 16\n"
                                             "    rc_bits: 4\n    threshold: 3\n    dueling: false\n"
                                             "    duel_interval: 1000\n    duel_threshold: 0.25\n",
                                             "t.yaml")
                         .child("l1"));
  EXPECT_EQ(p.design, "decoupled");
  EXPECT_EQ(p.decoupled.tag_ways, 16u);
  EXPECT_EQ(p.decoupled.rc_max(), 15u);
  EXPECT_EQ(p.decoupled.threshold, 3u);
  EXPECT_FALSE(p.decoupled.dueling);
  EXPECT_EQ(p.decoupled.duel_interval, 1000u);
  EXPECT_DOUBLE_EQ(p.decoupled.duel_threshold, 0.25);
}

TEST(L1Decoupled, ParamErrorsNameTheKey) {
  EXPECT_EQ(l1_params_error("l1:\n  design: decoupled\n  size_bytes: 32768\n  ways: 8\n"),
            "t.yaml:4: l1.ways: l1.decoupled.tag_ways (8) tag entries per set must exceed the data store's "
            "l1.ways (8), "
            "else data lines are wasted");
  // With tag_ways in the file, it is the key blamed, at its line.
  EXPECT_EQ(l1_params_error("l1:\n  design: decoupled\n  ways: 4\n  decoupled:\n    tag_ways: 4\n"),
            "t.yaml:5: l1.decoupled.tag_ways: l1.decoupled.tag_ways (4) tag entries per set must exceed the "
            "data store's "
            "l1.ways (4), else data lines are wasted");
  EXPECT_EQ(l1_params_error("l1:\n  design: baseline\n  size_bytes: 32768\n  ways: 8\n"),
            "");  // only for decoupled
  EXPECT_EQ(l1_params_error("l1:\n  decoupled:\n    tag_wayz: 8\n"),
            "t.yaml:3: l1.decoupled.tag_wayz: unknown key");
  EXPECT_EQ(l1_params_error("l1:\n  decoupled:\n    rc_bits: 2\n    threshold: 4\n"),
            "t.yaml:4: l1.decoupled.threshold: 4 cannot be reached by a 2-bit reference count (max 3)");
  EXPECT_NE(
      l1_params_error("l1:\n  decoupled:\n    duel_threshold: 1.5\n").find("l1.decoupled.duel_threshold"),
      std::string::npos);
  EXPECT_NE(l1_params_error("l1:\n  decoupled:\n    duel_interval: 0\n").find("l1.decoupled.duel_interval"),
            std::string::npos);
  EXPECT_NE(l1_params_error("l1:\n  design: decoupled\n  line_bytes: 64\n").find("l1.line_bytes"),
            std::string::npos);
}
