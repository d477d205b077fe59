// The bypass comparators against the scripted SM and a 10-cycle memory at 1 GHz: bypass_all (BALL),
// stall_bypass (MRPB's bypass on resource stall) and the PDP replacement policy in the baseline L1.
// A load accepted in cycle c and sent around the cache is answered at c+12, like a miss.
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/l1/baseline_l1.h"

using namespace gms;
using namespace gms::test;

namespace {
constexpr uint64_t A = kSet0[0], B = kSet0[1], C = kSet0[2], D = kSet0[3], E = kSet0[4];
L1Params design(const std::string& name, const std::string& replacement = "lru") {
  L1Params p = test_params(replacement);
  p.design = name;
  return p;
}
// PDP with a 2-way set: 4 sets of 2 ways, linear index, so A2 B2 C2 share set 0.
constexpr uint64_t A2 = 0x0, B2 = 0x200, C2 = 0x400;
L1Params pdp_params(uint32_t distance, const std::string& name = "baseline") {
  L1Params p = design(name, "pdp");
  p.set_index = SetIndexFn::Linear;
  p.size_bytes = 1024;
  p.ways = 2;
  p.pdp.distance = distance;
  return p;
}
}  // namespace

// ---- bypass_all -------------------------------------------------------------------------------------

TEST(L1BypassAll, EveryLoadGoesAroundTheCacheAndNothingIsEverAllocated) {
  Bench b(design("bypass_all"), {load(A), load(A, true, 0x3), store(A, 0x2, 0x40), load(A), load(B, false)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log,
            (std::vector<std::pair<char, uint64_t>>{{'R', A}, {'R', A}, {'W', A}, {'R', A}, {'R', B}}));
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0xF, 0x3, 0x2, 0xF, 0xF}));  // only the asked chunks
  EXPECT_EQ(b.stat("loads"), 4u);
  EXPECT_EQ(b.stat("bypasses"), 4u);
  EXPECT_EQ(b.stat("hits") + b.stat("misses") + b.stat("hit_pending") + b.stat("fills"), 0u);
  EXPECT_EQ(b.stat("stores"), 1u);
  EXPECT_EQ(b.stat("write_evicts"), 0u);
  EXPECT_EQ(b.stat("reservation_fails"), 0u);
  auto& r = b.sm->results;
  EXPECT_EQ(r[0].resp_cycle, 12u);  // accepted 0, sent 1, memory 11, reply 12
  EXPECT_EQ(r[1].chunks_returned, 0x3);
  EXPECT_EQ(r[3].data[32], 0x40 + 32);  // the store's bytes, from memory
  EXPECT_EQ(r[3].resp_cycle, r[3].accept_cycle + 12);
  EXPECT_EQ(r[4].resp_cycle, r[4].accept_cycle + 12);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1BypassAll, OnlyTheMissQueueStallsIt) {
  L1Params p = design("bypass_all");
  p.miss_queue_entries = 1;
  Bench b(p, {load(A, false), load(B, false), load(C, false)});
  sc_core::sc_start();
  // A's read holds the slot in cycles 0..1, B's in 2..3: B fails once (cycle 1), C once (cycle 3).
  EXPECT_EQ(b.stat("rf_miss_queue"), 2u);
  EXPECT_EQ(b.stat("bypasses"), 3u);
  EXPECT_EQ(b.sm->results[2].accept_cycle, 4u);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1BypassAll, EveryRequestGetsOneResponseWithTheRightBytesUnderStress) {
  L1Params p = tight(design("bypass_all"));
  p.miss_queue_entries = 1;  // two slots never run out: one request a cycle in, one out
  Bench b(p, random_ops(11, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  EXPECT_EQ(b.stat("bypasses"), b.stat("loads"));
  EXPECT_EQ(b.stat("hits"), 0u);
  EXPECT_GT(b.stat("rf_miss_queue"), 0u);
  EXPECT_EQ(b.stat("reservation_fails"), b.stat("rf_miss_queue"));
  expect_counts_add_up(b);
  expect_all_answered(b);
}

// ---- stall_bypass -----------------------------------------------------------------------------------

TEST(L1StallBypass, ASecondConcurrentMissWithoutAnMshrIsBypassedNotStalled) {
  L1Params p = design("stall_bypass");
  p.mshr_entries = 1;
  Bench b(p, {load(A, false), load(B, false), load(B)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A, B, B}));  // B was not allocated by its bypass: it misses later
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(b.stat("bypasses"), 1u);
  EXPECT_EQ(b.stat("stall_bypasses_mshr"), 1u);
  EXPECT_EQ(b.stat("rf_mshr"), 0u);
  EXPECT_EQ(b.stat("reservation_fails"), 0u);
  EXPECT_EQ(b.stat("accesses"), 3u);
  auto& r = b.sm->results;
  EXPECT_EQ(r[1].accept_cycle, 1u);  // the baseline would hold it until A's fill (cycle 12)
  EXPECT_EQ(r[0].resp_cycle, 12u);
  EXPECT_EQ(r[1].resp_cycle, 13u);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1StallBypass, ALoadOverTheMergeLimitIsBypassed) {
  L1Params p = design("stall_bypass");
  p.mshr_max_merge = 2;
  Bench b(p, {load(A, false), load(A, false), load(A, false), load(A)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A, A}));
  EXPECT_EQ(b.stat("misses"), 1u);
  EXPECT_EQ(b.stat("hit_pending"), 1u);
  EXPECT_EQ(b.stat("bypasses"), 1u);
  EXPECT_EQ(b.stat("stall_bypasses_merge"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);  // op 3, after the fill: the line was installed by op 0's miss
  EXPECT_EQ(b.stat("rf_merge"), 0u);
  auto& r = b.sm->results;
  EXPECT_EQ(r[2].accept_cycle, 2u);
  EXPECT_EQ(r[0].resp_cycle, 12u);
  EXPECT_EQ(r[1].resp_cycle, 13u);
  EXPECT_EQ(r[2].resp_cycle, 14u);  // sent 3, memory 13, reply 14
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1StallBypass, AFullSetAndACancelledFillAreBypassed) {
  Bench b(design("stall_bypass"), {load(A, false), load(B, false), load(C, false), load(D, false),
                                   load(E, false), store(A, 0x1, 0x70, false), load(A, false)});
  sc_core::sc_start();
  // E finds every way of set 0 reserved; op 6 finds A's fill cancelled by op 5's store.
  EXPECT_EQ(b.mem->log, (std::vector<std::pair<char, uint64_t>>{
                            {'R', A}, {'R', B}, {'R', C}, {'R', D}, {'R', E}, {'W', A}, {'R', A}}));
  EXPECT_EQ(b.stat("stall_bypasses_line"), 1u);
  EXPECT_EQ(b.stat("stall_bypasses_no_fill"), 1u);
  EXPECT_EQ(b.stat("bypasses"), 2u);
  EXPECT_EQ(b.stat("reservation_fails"), 0u);
  EXPECT_EQ(b.sm->results[6].data[0], 0x70);  // the bypass read follows the store
  expect_all_answered(b);
}

TEST(L1StallBypass, AFullMissQueueStillStallsBecauseTheBypassNeedsASlot) {
  L1Params p = design("stall_bypass");
  p.mshr_entries = 1;
  p.miss_queue_entries = 1;
  Bench q(p, {load(A, false), load(B, false)});
  sc_core::sc_start();
  EXPECT_EQ(q.stat("rf_miss_queue"), 1u);  // cycle 1: A's read still holds the only slot
  EXPECT_EQ(q.stat("stall_bypasses_mshr"), 1u);
  EXPECT_EQ(q.sm->results[1].accept_cycle, 2u);
  expect_all_answered(q);
  expect_counts_add_up(q);
}

TEST(L1StallBypass, EveryRequestGetsOneResponseWithTheRightBytesUnderStress) {
  Bench b(tight(design("stall_bypass")), random_ops(5, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  EXPECT_GT(b.stat("stall_bypasses_mshr"), 0u);
  EXPECT_GT(b.stat("stall_bypasses_merge"), 0u);
  EXPECT_EQ(b.stat("stall_bypasses_mshr") + b.stat("stall_bypasses_line") + b.stat("stall_bypasses_merge") +
                b.stat("stall_bypasses_no_fill"),
            b.stat("bypasses"));
  EXPECT_EQ(b.stat("reservation_fails"), b.stat("rf_miss_queue"));  // the only stall left
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_EQ(static_cast<BaselineL1&>(*b.l1).mshrs().size(), 0u);
  expect_counts_add_up(b);
  expect_all_answered(b);
}

// ---- pdp in the baseline L1 -------------------------------------------------------------------------

// PD 3, 2 ways, one load at a time. RPDs of (way 0, way 1) after each access, derived by hand:
//  1 A  miss, free way 0     (A3, -0)      7 A  bypass (C2, B3 protected)  (C1, B2)
//  2 B  miss, free way 1     (A2, B3)      8 C  hit                        (C3, B1)
//  3 C  bypass               (A1, B2)      9 A  bypass                     (C2, B0)
//  4 C  bypass               (A0, B1)     10 A  miss, evicts B             (C1, A3)
//  5 C  miss, evicts A       (C3, B0)     11 B  bypass                     (C0, A2)
//  6 B  hit                  (C2, B3)     12 B  miss, evicts C             (B3, A1)
// A is protected at the decisions of accesses 2, 3, 4 (exactly PD) and replaced at access 5.
TEST(L1Pdp, TwoWaySetWithDistance3FollowsTheHandDerivedSequence) {
  Bench b(pdp_params(3), {load(A2), load(B2), load(C2), load(C2), load(C2), load(B2), load(A2), load(C2),
                          load(A2), load(A2), load(B2), load(B2)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A2, B2, C2, C2, C2, A2, A2, A2, B2, B2}));
  EXPECT_EQ(b.stat("misses"), 5u);
  EXPECT_EQ(b.stat("hits"), 2u);
  EXPECT_EQ(b.stat("bypasses"), 5u);
  EXPECT_EQ(b.stat("protected_bypasses"), 5u);
  EXPECT_EQ(b.stat("evictions"), 3u);
  EXPECT_EQ(b.stat("fills"), 5u);  // bypass replies are not fills
  auto& t = static_cast<BaselineL1&>(*b.l1).tags();
  EXPECT_EQ(t.entry(0, 0).line, B2);
  EXPECT_EQ(t.entry(0, 1).line, A2);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1Pdp, StoresAreAccessesToTheSetAndAgeItsLines) {
  // As accesses 3 and 4 above, but two stores to C age A instead of two bypassed loads.
  Bench b(pdp_params(3), {load(A2), load(B2), store(C2, 0xF, 0x10), store(C2, 0xF, 0x20), load(C2)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log,
            (std::vector<std::pair<char, uint64_t>>{{'R', A2}, {'R', B2}, {'W', C2}, {'W', C2}, {'R', C2}}));
  EXPECT_EQ(b.stat("misses"), 3u);
  EXPECT_EQ(b.stat("bypasses"), 0u);
  EXPECT_EQ(b.stat("evictions"), 1u);
  EXPECT_EQ(b.sm->results[4].data[5], 0x20 + 5);
  expect_all_answered(b);
}

TEST(L1Pdp, AHitPendingLoadRenewsItsLineAndRetriesDoNotAge) {
  L1Params p = pdp_params(2);
  p.mshr_entries = 1;
  // A misses (A2); A merges (renews A: 2); B finds no MSHR entry and retries until A's fill without
  // aging the set, then misses into way 1 (A1); C finds both protected and is bypassed.
  Bench b(p, {load(A2, false), load(A2, false), load(B2, false), load(C2)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A2, B2, C2}));
  EXPECT_EQ(b.stat("hit_pending"), 1u);
  EXPECT_EQ(b.stat("rf_mshr"), 10u);  // cycles 2..11
  EXPECT_EQ(b.stat("protected_bypasses"), 1u);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1Pdp, WithStallBypassBothKindsOfBypassAreCounted) {
  L1Params p = pdp_params(2, "stall_bypass");
  p.mshr_entries = 1;
  Bench b(p, {load(A2, false), load(B2, false), load(C2)});
  sc_core::sc_start();
  // B: way 1 is free but no MSHR entry: a stall bypass (ages A to 1). C waits for both answers; A
  // (RPD 1) is still protected, way 1 is free: C misses into it.
  EXPECT_EQ(b.mem->log, reads({A2, B2, C2}));
  EXPECT_EQ(b.stat("stall_bypasses_mshr"), 1u);
  EXPECT_EQ(b.stat("protected_bypasses"), 0u);
  EXPECT_EQ(b.stat("misses"), 2u);
  expect_all_answered(b);
}

TEST(L1Pdp, EveryRequestGetsOneResponseWithTheRightBytesUnderStress) {
  L1Params p = tight(test_params("pdp"));
  p.pdp.distance = 4;
  Bench b(p, random_ops(5, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  EXPECT_GT(b.stat("protected_bypasses"), 0u);
  EXPECT_EQ(b.stat("protected_bypasses"), b.stat("bypasses"));
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_GT(b.stat("evictions"), 0u);
  EXPECT_EQ(static_cast<BaselineL1&>(*b.l1).mshrs().size(), 0u);
  expect_counts_add_up(b);
  expect_all_answered(b);
}
