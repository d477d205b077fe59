#include <gtest/gtest.h>

#include <stdexcept>

#include "models/coalescing/coalescer.h"
#include "tests/sm/sm_test_support.h"

using gms::LineRequest;
using gms::MemKind;
using gms::WarpInst;
using gms::test::make_inst;

namespace {
std::vector<LineRequest> run(const WarpInst& i) {
  std::vector<LineRequest> out;
  gms::Coalescer::coalesce(i, out);
  return out;
}
}  // namespace

TEST(Coalescer, FullyCoalescedIsOneLineFourChunks) {
  auto out = run(make_inst(1, MemKind::Load, 0x1000, 4));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line_addr, 0x1000u);
  EXPECT_EQ(out[0].chunk_mask, 0xF);
  EXPECT_EQ(out[0].lanes, 0xffffffffu);
  EXPECT_EQ(out[0].byte_mask[0], ~uint64_t(0));
  EXPECT_EQ(out[0].byte_mask[1], ~uint64_t(0));
}

TEST(Coalescer, Stride32BytesIsEightLinesOfFourChunks) {
  auto out = run(make_inst(1, MemKind::Load, 0x2000, 32));
  ASSERT_EQ(out.size(), 8u);
  for (unsigned k = 0; k < 8; ++k) {
    EXPECT_EQ(out[k].line_addr, 0x2000u + 128 * k);
    EXPECT_EQ(out[k].chunk_mask, 0xF);
    EXPECT_EQ(out[k].lanes, 0xFu << (4 * k));
    // 4 bytes at offsets 0, 32, 64, 96.
    EXPECT_EQ(out[k].byte_mask[0], 0x0000000F0000000FULL);
    EXPECT_EQ(out[k].byte_mask[1], 0x0000000F0000000FULL);
  }
}

TEST(Coalescer, Stride128BytesIsThirtyTwoLinesOfOneChunk) {
  auto out = run(make_inst(1, MemKind::Store, 0x10040, 128));
  ASSERT_EQ(out.size(), 32u);
  for (unsigned k = 0; k < 32; ++k) {
    EXPECT_EQ(out[k].line_addr, 0x10000u + 128 * k);
    EXPECT_EQ(out[k].chunk_mask, 0x4);  // offset 64 = chunk 2
    EXPECT_EQ(out[k].lanes, 1u << k);
    EXPECT_EQ(out[k].byte_mask[0], 0u);
    EXPECT_EQ(out[k].byte_mask[1], 0xFu);
  }
}

TEST(Coalescer, InactiveLanesAreIgnored) {
  WarpInst i = make_inst(1, MemKind::Load, 0x4000, 128);
  i.active_mask = 0x80000005u;  // lanes 0, 2, 31
  for (unsigned l = 0; l < 32; ++l)
    if (!(i.active_mask >> l & 1)) i.addr[l] = 0xdead0000 + l * 4096;
  auto out = run(i);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].line_addr, 0x4000u);
  EXPECT_EQ(out[1].line_addr, 0x4100u);
  EXPECT_EQ(out[2].line_addr, 0x4000u + 31 * 128);
  EXPECT_EQ(out[0].lanes, 1u);
  EXPECT_EQ(out[1].lanes, 4u);
  EXPECT_EQ(out[2].lanes, 0x80000000u);
  i.active_mask = 0;
  EXPECT_TRUE(run(i).empty());
}

TEST(Coalescer, SixteenByteAccessesFillFourLines) {
  auto out = run(make_inst(1, MemKind::Load, 0x8000, 16, 32, 16));
  ASSERT_EQ(out.size(), 4u);
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(out[k].line_addr, 0x8000u + 128 * k);
    EXPECT_EQ(out[k].chunk_mask, 0xF);
    EXPECT_EQ(out[k].lanes, 0xFFu << (8 * k));
  }
  // Two lanes of 16 B at stride 64: chunks 0 and 2 only, 16 bytes each.
  out = run(make_inst(1, MemKind::Load, 0x8000, 64, 2, 16));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].chunk_mask, 0x5);
  EXPECT_EQ(out[0].byte_mask[0], 0xFFFFu);
  EXPECT_EQ(out[0].byte_mask[1], 0xFFFFu);
}

TEST(Coalescer, LineCrossingAccessIsSplitAcrossBothLines) {
  WarpInst i = make_inst(7, MemKind::Load, 0, 0, 3, 8);
  i.addr[0] = 0x107C;  // bytes 0x107C..0x1083: last 4 of line 0x1000, first 4 of line 0x1080
  i.addr[1] = 0x1010;
  i.addr[2] = 0x1084;
  auto out = run(i);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].line_addr, 0x1000u);
  EXPECT_EQ(out[0].chunk_mask, 0x9);  // chunk 3 (lane 0) and chunk 0 (lane 1)
  EXPECT_EQ(out[0].lanes, 0x3u);
  EXPECT_EQ(out[0].byte_mask[0], 0xFF0000u);              // bytes 16..23 (lane 1)
  EXPECT_EQ(out[0].byte_mask[1], 0xF000000000000000ULL);  // bytes 124..127 (lane 0)
  EXPECT_EQ(out[1].line_addr, 0x1080u);
  EXPECT_EQ(out[1].chunk_mask, 0x1);
  EXPECT_EQ(out[1].lanes, 0x5u);
  EXPECT_EQ(out[1].byte_mask[0], 0xFFFu);  // bytes 0..3 (lane 0) and 4..11 (lane 2)
  EXPECT_EQ(out[1].byte_mask[1], 0u);
}

TEST(Coalescer, OrderOfFirstTouchAndBroadcast) {
  WarpInst i = make_inst(1, MemKind::Load, 0x3000, 0);  // all lanes one word: one line, one chunk
  auto out = run(i);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].chunk_mask, 0x1);
  EXPECT_EQ(out[0].byte_mask[0], 0xFu);
  for (unsigned l = 0; l < 32; ++l) i.addr[l] = 0x9000 - 128 * (l % 4);  // lines 0x9000, 0x8F80, ...
  out = run(i);
  ASSERT_EQ(out.size(), 4u);
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(out[k].line_addr, 0x9000u - 128 * k);
    EXPECT_EQ(out[k].lanes, 0x11111111u << k);
  }
}

TEST(Coalescer, RejectsBadWidth) {
  WarpInst i = make_inst(5, MemKind::Load, 0, 4, 32, 3);
  EXPECT_THROW(run(i), std::invalid_argument);
}
