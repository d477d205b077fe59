// GoldenMemory and program order within a warp: a load reads memory as of its issue, although its bytes
// are checked when the response arrives, after later stores of the same warp may have been issued
// (read-modify-write, write-after-read). Explicit sequence numbers: issue order versus response order.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "models/common/memory_image.h"
#include "tb/checker/golden_memory.h"
#include "tests/tb/golden_test_util.h"

namespace gms {
namespace {

std::vector<uint8_t> filled(unsigned n, uint8_t first) {
  std::vector<uint8_t> v(n);
  for (unsigned i = 0; i < n; ++i) v[i] = uint8_t(first + i);
  return v;
}

TEST(TbGoldenWar, LoadIssuedBeforeAStoreReadsTheOldValue) {
  GoldenMemory g;
  const auto old = initial(0x1000, 4), v = filled(4, 0x10);
  g.on_load_issue(3, 1);
  g.on_store(3, 2, 0x1000, v.data(), 4);   // issued while the load is in flight
  g.on_load(3, 1, 0x1000, old.data(), 4);  // the response: the value before the store
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_EQ(g.bytes_checked(), 4u);
  g.on_load(3, 1, 0x1000, v.data(), 4);  // a load that sees a later store of its warp is wrong
  EXPECT_EQ(g.mismatches(), 1u);
  ASSERT_EQ(g.first_mismatches().size(), 1u);
  EXPECT_EQ(g.first_mismatches()[0].expected, old[0]);
  EXPECT_EQ(g.first_mismatches()[0].got, v[0]);
  g.on_load_done(3, 1);
  EXPECT_EQ(g.undo_entries(), 0u);
}

TEST(TbGoldenWar, LoadIssuedAfterTheStoreSeesItAndAStaleReadIsCaught) {
  GoldenMemory g;
  const auto old = initial(0x2000, 8), v = filled(8, 0x40);
  g.on_load_issue(0, 10);
  g.on_store(0, 11, 0x2000, v.data(), 8);
  g.on_load_issue(0, 12);
  // Responses in the other order: the later load first.
  g.on_load(0, 12, 0x2000, v.data(), 8);
  g.on_load(0, 10, 0x2000, old.data(), 8);
  EXPECT_EQ(g.mismatches(), 0u);
  // A stale read: the load issued after the store gets the pre-store data (a fill that left before the
  // store, say): still a mismatch.
  g.on_load(0, 12, 0x2000, old.data(), 8);
  EXPECT_EQ(g.mismatches(), 1u);
  ASSERT_EQ(g.first_mismatches().size(), 1u);
  EXPECT_EQ(g.first_mismatches()[0].wrong_bytes, 8u);
  EXPECT_EQ(g.first_mismatches()[0].expected, v[0]);
  EXPECT_EQ(g.first_mismatches()[0].got, old[0]);
  g.on_load_done(0, 10);
  g.on_load_done(0, 12);
}

TEST(TbGoldenWar, EachLoadSeesTheLastStoreIssuedBeforeIt) {
  GoldenMemory g;
  const auto old = initial(0x3000, 4), a = filled(4, 0xa0), b = filled(4, 0xb0), c = filled(4, 0xc0);
  g.on_load_issue(5, 1);  // before every store: the image
  g.on_store(5, 2, 0x3000, a.data(), 4);
  g.on_load_issue(5, 3);  // sees a
  g.on_store(5, 4, 0x3000, b.data(), 4);
  g.on_store(5, 5, 0x3000, c.data(), 4);
  g.on_load_issue(5, 6);  // sees c
  EXPECT_GT(g.undo_entries(), 0u);
  g.on_load(5, 6, 0x3000, c.data(), 4);
  g.on_load(5, 3, 0x3000, a.data(), 4);
  g.on_load(5, 1, 0x3000, old.data(), 4);
  EXPECT_EQ(g.mismatches(), 0u);
  g.on_load(5, 3, 0x3000, b.data(), 4);  // b came after load 3
  g.on_load(5, 1, 0x3000, a.data(), 4);  // a came after load 1
  EXPECT_EQ(g.mismatches(), 2u);
  g.on_load_done(5, 6);
  g.on_load_done(5, 3);
  g.on_load_done(5, 1);
  EXPECT_EQ(g.undo_entries(), 0u);
  g.on_kernel_end();
  EXPECT_EQ(g.image_byte(0x3000), c[0]);
}

TEST(TbGoldenWar, PartiallyOverlappingStoresAreResolvedBytePerByte) {
  GoldenMemory g;
  const auto a = filled(8, 0x10), b = filled(4, 0x60);
  g.on_store(1, 1, 0x4000, a.data(), 8);  // bytes 0..7 = a, nothing in flight: no undo kept
  EXPECT_EQ(g.undo_entries(), 0u);
  g.on_load_issue(1, 2);                  // reads bytes 4..11
  g.on_store(1, 3, 0x4006, b.data(), 4);  // bytes 6..9 = b, after the load
  std::vector<uint8_t> want(8);
  for (unsigned i = 0; i < 8; ++i) want[i] = i < 4 ? a[4 + i] : initial_byte(0x4004 + i);
  g.on_load(1, 2, 0x4004, want.data(), 8);
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_EQ(g.bytes_checked(), 8u);
  // Bytes 6..9 as the store left them: 4 wrong bytes, the first at 0x4006.
  std::vector<uint8_t> late = want;
  for (unsigned i = 2; i < 6; ++i) late[i] = b[i - 2];
  g.on_load(1, 2, 0x4004, late.data(), 8);
  EXPECT_EQ(g.mismatches(), 1u);
  ASSERT_EQ(g.first_mismatches().size(), 1u);
  EXPECT_EQ(g.first_mismatches()[0].addr, 0x4006u);
  EXPECT_EQ(g.first_mismatches()[0].wrong_bytes, 4u);
  g.on_load_done(1, 2);
  // A load issued now sees a then b.
  g.on_load_issue(1, 4);
  std::vector<uint8_t> now = {a[4], a[5], b[0], b[1], b[2], b[3], initial_byte(0x400a), initial_byte(0x400b)};
  g.on_load(1, 4, 0x4004, now.data(), 8);
  EXPECT_EQ(g.mismatches(), 1u);
  g.on_load_done(1, 4);
}

TEST(TbGoldenWar, OtherWarpsBytesStayRacy) {
  GoldenMemory g;
  const auto mine = filled(4, 0x20), theirs = filled(4, 0x70), junk = filled(4, 0xe0);
  g.on_load_issue(1, 1);
  g.on_store(2, 1, 0x5000, theirs.data(), 4);  // another warp: racy for warp 1
  g.on_store(1, 2, 0x5002, mine.data(), 4);    // bytes 2..3 now written by two warps: racy for all
  // Bytes 0..1 hold warp 2's values or the old ones; bytes 2..3 either warp's (or the old).
  const std::vector<uint8_t> seen = {theirs[0], initial_byte(0x5001), mine[0], theirs[3]};
  g.on_load(1, 1, 0x5000, seen.data(), 4);
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_EQ(g.racy_bytes(), 4u);
  EXPECT_EQ(g.bytes_checked(), 0u);
  EXPECT_EQ(g.write_conflicts(), 2u);
  g.on_load_done(1, 1);
  // Bytes 4..5 hold warp 1's store 2 only; a later load of the warp sees it, even once store 4 overwrote it.
  g.on_load_issue(1, 3);
  g.on_store(1, 4, 0x5004, junk.data(), 2);
  const uint8_t before[2] = {mine[2], mine[3]};
  g.on_load(1, 3, 0x5004, before, 2);
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_EQ(g.bytes_checked(), 2u);
  g.on_load_done(1, 3);
}

TEST(TbGoldenWar, LoadsCompletingOutOfOrderKeepWhatOlderLoadsNeed) {
  GoldenMemory g;
  const auto old = initial(0x6000, 4), v = filled(4, 0x33), w = filled(4, 0x44);
  g.on_load_issue(9, 1);
  g.on_load_issue(9, 2);
  g.on_store(9, 3, 0x6000, v.data(), 4);
  g.on_load_done(9, 2);  // the younger load finishes first: load 1 still needs the old bytes
  g.on_store(9, 4, 0x6000, w.data(), 4);
  g.on_load(9, 1, 0x6000, old.data(), 4);
  EXPECT_EQ(g.mismatches(), 0u);
  g.on_load_done(9, 1);
  EXPECT_EQ(g.undo_entries(), 0u);
}

TEST(TbGoldenWar, UndoRecordsStayBoundedByTheLoadsInFlight) {
  GoldenMemory g;
  const auto v = filled(16, 0x01);
  // A warp that always has a load in flight while it stores (a long read-modify-write loop): records
  // older than its oldest load in flight are dropped.
  uint64_t seq = 1;
  g.on_load_issue(4, seq++);
  size_t most = 0;
  for (unsigned i = 0; i < 1000; ++i) {
    const uint64_t ld = seq++;
    g.on_load_issue(4, ld);
    for (unsigned lane = 0; lane < 32; ++lane) g.on_store(4, seq, 0x10000 + 16 * lane, v.data(), 16);
    ++seq;
    g.on_load_done(4, ld - (i == 0 ? 1 : 2));  // the previous load ends
    most = std::max(most, g.undo_entries());
  }
  EXPECT_LE(most, 64u);
  g.on_load_done(4, seq - 2);
  EXPECT_EQ(g.undo_entries(), 0u);
}

TEST(TbGoldenWar, OnlyStoresALoadInFlightMayReadAreLogged) {
  GoldenMemory g;
  const auto v = filled(8, 0x21);
  g.on_load_issue(1, 1, 0x9000, 0x907f);  // reads one line
  g.on_store(1, 2, 0x9100, v.data(), 8);  // elsewhere: nothing to keep
  EXPECT_EQ(g.undo_entries(), 0u);
  g.on_store(1, 3, 0x907c, v.data(), 8);  // half in the line
  EXPECT_EQ(g.undo_entries(), 1u);
  g.on_store(2, 4, 0x9000, v.data(), 8);  // another warp: not its program order
  EXPECT_EQ(g.undo_entries(), 1u);
  g.on_load_done(1, 1);
  EXPECT_EQ(g.undo_entries(), 0u);
}

TEST(TbGoldenWar, ALoadAcrossABlockBoundaryWithARacyByteInBetween) {
  GoldenMemory g;
  const auto a = filled(8, 0x30), b = filled(8, 0x90);
  const uint8_t x = 0xee;
  g.on_store(1, 1, 0xa07c, a.data(), 8);  // bytes 0xa07c..0xa083
  g.on_store(2, 1, 0xa080, &x, 1);        // 0xa080 racy from now on
  g.on_load_issue(1, 2, 0xa000, 0xa0ff);
  g.on_store(1, 3, 0xa07c, b.data(), 8);  // after the load
  std::vector<uint8_t> want(a);
  want[4] = x;  // the racy byte: warp 2's value (or one warp 1 stored, or the old byte), nothing else
  g.on_load(1, 2, 0xa07c, want.data(), 8);
  EXPECT_EQ(g.mismatches(), 0u);
  EXPECT_EQ(g.bytes_checked(), 7u);
  EXPECT_EQ(g.racy_bytes(), 1u);
  g.on_load_done(1, 2);
}

TEST(TbGoldenWar, ALoadMustBeAnnouncedBeforeItEnds) {
  GoldenMemory g;
  EXPECT_THROW(g.on_load_done(6, 3), std::logic_error);
  g.on_load_issue(6, 3);
  EXPECT_THROW(g.on_load_done(6, 4), std::logic_error);
  g.on_load_done(6, 3);
}

TEST(TbGoldenWar, InOrderCallsWithoutSequencesKeepTheirMeaning) {
  GoldenMemory g;
  const auto v = filled(4, 0x99), old = initial(0x8000, 4);
  g.on_store(2, 0x8000, v.data(), 4);
  g.on_load(2, 0x8000, v.data(), 4);    // a load checked at once sees every store before it
  g.on_load(2, 0x8000, old.data(), 4);  // stale
  EXPECT_EQ(g.mismatches(), 1u);
}

}  // namespace
}  // namespace gms
