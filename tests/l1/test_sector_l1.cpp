// The sector cache (design `sector`) against the scripted SM and a 10-cycle memory at 1 GHz: a miss
// fetches only the requested sectors, a partial hit only the missing ones, a second miss to a line in
// flight only sectors not yet requested, and the line is allocated whole (no reuse of empty sectors).
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/l1/sector_l1.h"

using namespace gms;
using namespace gms::test;

namespace {
constexpr uint64_t A = kSet0[0], B = kSet0[1], C = kSet0[2], D = kSet0[3], E = kSet0[4];
L1Params sector_params() {
  L1Params p = test_params("lru");
  p.design = "sector";
  return p;
}
}  // namespace

TEST(L1Sector, MissFetchesOnlyTheRequestedSectorsAndPartialHitsOnlyTheMissingOnes) {
  Bench b(sector_params(), {load(A, true, 0x1), load(A, true, 0x1), load(A, true, 0x3), load(A, true, 0xF)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log, reads({A, A, A}));
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x1, 0x2, 0xC}));
  EXPECT_EQ(b.stat("misses"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("partial_hits"), 2u);
  EXPECT_EQ(b.stat("from_l2_bytes"), 128u);  // 32 + 32 + 64
  EXPECT_EQ(b.stat("from_l2_packets"), 4u);  // one per returned sector
  EXPECT_EQ(b.stat("to_l2_packets"), 3u);    // one per read request
  EXPECT_EQ(b.sm->results[0].resp_cycle, 12u);
  EXPECT_EQ(b.sm->results[1].resp_cycle, b.sm->results[1].issue_cycle + 1);  // hit latency 1
  EXPECT_EQ(b.sm->results[3].chunks_returned, 0xF);
  // Nsight-style sector counts: 1 + 1 + 2 + 4 sectors asked, 0 + 1 + 1 + 2 found.
  EXPECT_EQ(b.stat("load_sectors"), 8u);
  EXPECT_EQ(b.stat("load_sector_hits"), 4u);
  expect_all_answered(b);
  expect_counts_add_up(b);
}

TEST(L1Sector, ASecondMissToALineInFlightRequestsOnlySectorsNotYetRequested) {
  Bench b(sector_params(), {load(A, false, 0x1), load(A, false, 0x3), load(A, false, 0x2)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x1, 0x2}));
  EXPECT_EQ(b.stat("misses"), 2u);       // neither found a sector of its own in the cache
  EXPECT_EQ(b.stat("hit_pending"), 1u);  // sector 1 was already requested
  EXPECT_EQ(b.stat("fills"), 2u);
  auto& r = b.sm->results;
  EXPECT_EQ(r[0].resp_cycle, 12u);  // accepted 0, sent 1, memory 11, fill 12
  EXPECT_EQ(r[1].resp_cycle, 13u);  // its sector 1 was sent a cycle later
  EXPECT_EQ(r[2].resp_cycle, 14u);  // same fill, one response per cycle
  EXPECT_EQ(static_cast<SectorL1&>(*b.l1).mshrs().size(), 0u);
  // A sector already being fetched counts as a hit, as Nsight counts it: 0 of 1, 1 of 2, 1 of 1.
  EXPECT_EQ(b.stat("load_sectors"), 4u);
  EXPECT_EQ(b.stat("load_sector_hits"), 2u);
  expect_all_answered(b);
}

TEST(L1Sector, ALineIsAllocatedWholeSoEmptySectorsAreNotReused) {
  // Five one-sector lines in one 4-way set: the fifth evicts a line although 12 sectors lie empty.
  Bench b(sector_params(), {load(A, true, 0x1), load(B, true, 0x1), load(C, true, 0x1), load(D, true, 0x1),
                            load(E, true, 0x1), load(A, true, 0x1)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 6u);
  EXPECT_EQ(b.stat("evictions"), 2u);  // E evicts A (LRU), A then evicts B
  EXPECT_EQ(b.mem->log, reads({A, B, C, D, E, A}));
  expect_all_answered(b);
}

TEST(L1Sector, AStoreHitEvictsOnlyTheWrittenSectors) {
  Bench b(sector_params(), {load(A, true, 0xF), store(A, 0x2, 0x40), load(A, true, 0x1), load(A, true, 0x2)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("write_evicts"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);    // sector 0 stayed
  EXPECT_EQ(b.stat("misses"), 2u);  // sector 1 is fetched again, with the stored bytes
  ASSERT_EQ(b.mem->log_chunks.size(), 3u);
  EXPECT_EQ(b.mem->log_chunks[2], 0x2);
  expect_all_answered(b);
}

TEST(L1Sector, WriteAllocateInstallsCompletelyWrittenSectorsOnly) {
  // Store policy write_allocate (Accel-Sim's Volta+ L1): sector 0 of A written whole is installed (the line
  // allocated by the store), sector 1 of A written in one 8 B word stays invalid; the load of sector 0 hits
  // with the stored bytes, the load of sector 1 fetches.
  L1Params p = sector_params();
  p.store_policy = StorePolicy::WriteAllocate;
  SmOp partial = store(A, 0x2, 0x60);
  partial.words = 0x10;  // word 4: bytes 32..39, in sector 1
  Bench b(p, {store(A, 0x1, 0x40), partial, load(A, true, 0x1), load(A, true, 0x2)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("store_installs"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("misses"), 1u);
  EXPECT_EQ(b.stat("write_evicts"), 0u);
  ASSERT_EQ(b.mem->log_chunks.size(), 3u);  // two writes through, one read of sector 1
  EXPECT_EQ(b.mem->log_chunks[2], 0x2);
  EXPECT_EQ(b.stat("load_sector_hits"), 1u);
  expect_all_answered(b);  // the hit returned the stored bytes, the fetch the merged ones
}

TEST(L1Sector, WriteAllocateUpdatesValidSectorsInsteadOfEvicting) {
  L1Params p = sector_params();
  p.store_policy = StorePolicy::WriteAllocate;
  SmOp partial = store(A, 0x1, 0x70);
  partial.words = 0x1;  // 8 bytes of sector 0, which is valid: updated in place
  Bench b(p, {load(A, true, 0x1), partial, load(A, true, 0x1)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("write_evicts"), 0u);
  EXPECT_EQ(b.stat("hits"), 1u);  // the second load finds the updated sector
  EXPECT_EQ(b.stat("store_installs"), 0u);
  expect_all_answered(b);
}

TEST(L1Sector, WriteAllocateIsRejectedForWholeLineDesigns) {
  EXPECT_EQ(l1_params_error("l1:\n  design: baseline\n  store_policy: write_allocate\n"),
            "t.yaml:3: l1.store_policy: write_allocate needs a sectored design (sector, tsc, tsc_plus, dsc), "
            "not 'baseline'");
  EXPECT_EQ(l1_params_error("l1:\n  store_policy: allocate\n"),
            "t.yaml:2: l1.store_policy: 'allocate' is not one of: write_evict, write_allocate");
}

TEST(L1Sector, AStoreToAPendingSectorKeepsItsFillOutAndLaterLoadsWait) {
  Bench b(sector_params(), {load(A, false, 0x1), store(A, 0x1, 0x40, false), load(A, false, 0x1)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("no_fill_marks"), 1u);
  EXPECT_GT(b.stat("rf_no_fill"), 0u);  // the later load waits for the stale fill to pass
  EXPECT_EQ(b.stat("fills_dropped"), 1u);
  EXPECT_EQ(b.mem->log, (std::vector<std::pair<char, uint64_t>>{{'R', A}, {'W', A}, {'R', A}}));
  expect_all_answered(b);  // op 0 sees the old bytes, op 2 the stored ones
}

TEST(L1Sector, EveryRequestGetsOneResponseWithTheRightBytesUnderStress) {
  Bench b(tight(sector_params()), random_ops(5, 800), BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  expect_counts_add_up(b);
  EXPECT_GT(b.stat("partial_hits"), 0u);
  EXPECT_GT(b.stat("hit_pending"), 0u);
  EXPECT_GT(b.stat("rf_no_fill") + b.stat("no_fill_marks"), 0u);
  EXPECT_GT(b.stat("rf_mshr"), 0u);
  EXPECT_EQ(static_cast<SectorL1&>(*b.l1).mshrs().size(), 0u);
  expect_all_answered(b);
}

TEST(L1Sector, WriteAllocateEveryRequestGetsOneResponseWithTheRightBytesUnderStress) {
  // Random loads and stores, some stores writing single words (partly written sectors).
  L1Params p = tight(sector_params());
  p.store_policy = StorePolicy::WriteAllocate;
  std::vector<SmOp> ops = random_ops(11, 800);
  Rng rng(3);
  for (SmOp& o : ops)
    if (o.kind == SmOp::Store && rng.below(2)) o.words = uint16_t(1u << rng.below(16));
  Bench b(p, ops, BenchOptions{7});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("requests"), 800u);
  expect_counts_add_up(b);
  EXPECT_GT(b.stat("store_installs"), 0u);
  EXPECT_GT(b.stat("hits"), 0u);
  EXPECT_EQ(static_cast<SectorL1&>(*b.l1).mshrs().size(), 0u);
  expect_all_answered(b);
}
