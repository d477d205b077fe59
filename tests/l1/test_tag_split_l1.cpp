// The tag-split cache (tsc, tsc_plus) and the decoupled sectored cache (dsc) against the scripted SM and
// a 10-cycle memory at 1 GHz, on hand-built streams (paper 000 sec. 3 and 5.2).
#include <gtest/gtest.h>

#include "l1_test_ops.h"
#include "models/l1/tag_split_cache.h"
#include "tests/l1/child_process.h"

using namespace gms;
using namespace gms::test;

namespace {
// One set: size = ways x 128 B, linear index; the tag is the line address / 128.
L1Params one_set(const std::string& design, uint32_t ways) {
  L1Params p = test_params("lru", SetIndexFn::Linear);
  p.design = design;
  p.ways = ways;
  p.size_bytes = ways * 128;
  p.tsc.extra_hit_latency = 0;
  return p;
}
TagSplitStore& store_of(Bench& b) {
  return static_cast<TagSplitCache&>(*b.l1).store();
}
}  // namespace

// Lines 0x0 and 0x80 share the shared tag (private tags 0 and 1): TSC keeps both first chunks in the one
// chunk group; DSC-2 has two tags for the frame but one slot for sector 0, so each evicts the other.
TEST(L1TagSplit, TscStoresTwoLinesFirstChunksSideBySide) {
  Bench b(one_set("tsc", 1),
          {load(0x0, true, 0x1), load(0x80, true, 0x1), load(0x0, true, 0x1), load(0x80, true, 0x1)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(b.stat("hits"), 2u);
  EXPECT_EQ(b.stat("evictions"), 0u);
  EXPECT_EQ(b.mem->log, reads({0x0, 0x80}));
  expect_all_answered(b);
}

TEST(L1TagSplit, DscCannotStoreTwoLinesFirstSectorsInOneFrame) {
  L1Params p = one_set("dsc", 1);
  p.dsc.tags_per_frame = 2;
  Bench b(p, {load(0x0, true, 0x1), load(0x80, true, 0x1), load(0x0, true, 0x1), load(0x80, true, 0x1)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 4u);
  EXPECT_EQ(b.stat("hits"), 0u);
  EXPECT_EQ(b.stat("evictions"), 3u);  // each later miss displaces the other line's sector 0
  EXPECT_EQ(b.mem->log, reads({0x0, 0x80, 0x0, 0x80}));
  expect_all_answered(b);
}

TEST(L1TagSplit, DscSharesAFrameBetweenLinesWithDifferentSectors) {
  L1Params p = one_set("dsc", 1);
  Bench b(p, {load(0x0, true, 0x1), load(0x80, true, 0x2), load(0x0, true, 0x1), load(0x80, true, 0x2)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("misses"), 2u);
  EXPECT_EQ(b.stat("hits"), 2u);
  expect_all_answered(b);
}

TEST(L1TagSplit, APartialMissFetchesOnlyTheMissingChunks) {
  Bench b(one_set("tsc", 4), {load(0x0, true, 0x3), load(0x0, true, 0xF), load(0x0, true, 0xF)});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x3, 0xC}));
  EXPECT_EQ(b.stat("misses"), 1u);
  EXPECT_EQ(b.stat("partial_hits"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);
  EXPECT_EQ(b.stat("from_l2_bytes"), 128u);
  EXPECT_EQ(b.stat("from_l2_packets"), 4u);
  expect_all_answered(b);
}

TEST(L1TagSplit, ExtraHitLatencyDelaysHits) {
  L1Params p = one_set("tsc", 4);
  p.tsc.extra_hit_latency = 2;
  Bench b(p, {load(0x0, true, 0x1), load(0x0, true, 0x1)});
  sc_core::sc_start();
  EXPECT_EQ(b.sm->results[1].resp_cycle, b.sm->results[1].issue_cycle + 3);  // hit_latency 1 + 2
}

// NRU (paper 000 sec. 3.3): four one-chunk lines fill the group (the fourth allocation sets the last NRU
// bit, so all reset); D's fill and A's hit set theirs again; E's chunk must replace B's or C's.
TEST(L1TagSplit, NruVictimsAreChosenAmongChunksNotRecentlyUsed) {
  const uint64_t A = 0x0, B = 0x80, C = 0x100, D = 0x180, E = 0x200, F = 0x280;
  Bench b(one_set("tsc", 1), {load(A, true, 0x1), load(B, true, 0x1), load(C, true, 0x1), load(D, true, 0x1),
                              load(A, true, 0x1), load(E, true, 0x1)});
  sc_core::sc_start();
  TagSplitStore& s = store_of(b);
  EXPECT_EQ(s.cached(A), 0x1);
  EXPECT_EQ(s.cached(D), 0x1);
  EXPECT_EQ(s.cached(E), 0x1);
  EXPECT_EQ(s.cached(B) + s.cached(C), 0x1);  // exactly one of them was replaced
  EXPECT_EQ(b.stat("evictions"), 1u);
  (void)F;
  expect_all_answered(b);
}

// A four-chunk miss into a full group replaces four chunks of four lines in one step.
TEST(L1TagSplit, AMissReplacesSeveralChunksAtOnce) {
  Bench b(one_set("tsc", 1), {load(0x0, true, 0x1), load(0x80, true, 0x2), load(0x100, true, 0x4),
                              load(0x180, true, 0x8), load(0x200, true, 0xF)});
  sc_core::sc_start();
  EXPECT_EQ(b.stat("evictions"), 4u);
  EXPECT_EQ(store_of(b).cached(0x200), 0xF);
  EXPECT_EQ(store_of(b).valid_chunks(), 4u);
  expect_all_answered(b);
}

// Line 0x8000 has another shared tag (tag 0x100 = shared 1, private 0): with both groups holding other
// shared tags, its chunk retags a whole group, invalidating everything in it.
TEST(L1TagSplit, ChangingAGroupsSharedTagInvalidatesItsChunks) {
  Bench b(one_set("tsc", 2), {load(0x0, true, 0xF), load(0x8000, true, 0x1), load(0x10000, true, 0x1)});
  sc_core::sc_start();
  TagSplitStore& s = store_of(b);
  EXPECT_EQ(b.stat("retagged_groups"), 1u);
  EXPECT_EQ(s.cached(0x10000), 0x1);
  const bool a_gone = s.cached(0x0) == 0, x_gone = s.cached(0x8000) == 0;
  EXPECT_NE(a_gone, x_gone);
  EXPECT_EQ(b.stat("evictions"), a_gone ? 4u : 1u);
  expect_all_answered(b);
}

// 8 B chunks: the load's 8 B words travel as MemReq::word_mask and only those come back.
TEST(L1TagSplit, EightByteChunksFetchOnlyTheTouchedWords) {
  L1Params p = one_set("tsc", 4);
  p.tsc.chunk_bytes = 8;
  SmOp a = load(0x0, true, 0x1), b2 = load(0x0, true, 0x1), c = load(0x0, true, 0x1);
  a.words = 0x1;
  b2.words = 0x3;
  c.words = 0x3;
  Bench b(p, {a, b2, c});
  sc_core::sc_start();
  EXPECT_EQ(b.mem->log_words, (std::vector<uint16_t>{0x1, 0x2}));
  EXPECT_EQ(b.mem->log_chunks, (std::vector<uint8_t>{0x1, 0x1}));
  EXPECT_EQ(b.stat("from_l2_bytes"), 16u);
  EXPECT_EQ(b.stat("from_l2_packets"), 2u);  // a packet carries at most 32 B, at least one per reply
  EXPECT_EQ(b.stat("partial_hits"), 1u);
  EXPECT_EQ(b.stat("hits"), 1u);
  expect_all_answered(b);
}

// With private tags of 0 bits a chunk group holds one line: on a one-way cache (one group per set, so no
// victim choice) TSC answers a random load/store stream exactly as the sector cache does. Each design runs
// in its own child process (one SystemC kernel per process) and reports what it did.
TEST(L1TagSplit, PrivateTagLengthZeroBehavesLikeTheSectorCache) {
  auto run = [](const std::string& design) {
    return in_child_process([design] {
      L1Params p = test_params("lru", SetIndexFn::Linear);
      p.design = design;
      p.ways = 1;
      p.size_bytes = 1024;  // 8 sets: the ten lines of random_ops conflict
      p.tsc.private_tag_bits = 0;
      p.tsc.extra_hit_latency = 0;
      Bench b(tight(p), random_ops(11, 500), BenchOptions{7});
      sc_core::sc_start();
      std::string out;
      for (size_t i = 0; i < b.mem->log.size(); ++i)
        out += std::string(1, b.mem->log[i].first) + std::to_string(b.mem->log[i].second) + "/" +
               std::to_string(b.mem->log_chunks[i]) + " ";
      for (const SmResult& r : b.sm->results)
        out += std::to_string(r.resp_cycle) + (r.data_ok ? "" : "!") + " ";
      for (const char* s : {"hits", "misses", "partial_hits", "hit_pending", "reservation_fails", "rf_line",
                            "rf_no_fill", "write_evicts", "fills", "from_l2_bytes"})
        out += std::string(s) + "=" + std::to_string(b.stat(s)) + " ";
      return out;
    });
  };
  const std::string sector = run("sector"), tsc = run("tsc");
  EXPECT_NE(sector.find("partial_hits="), std::string::npos) << sector;
  EXPECT_EQ(tsc, sector);
}
