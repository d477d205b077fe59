// Coalescing to small L1 lines (split_to_lines): one request per 32 or 64 B line a warp touches.
#include <gtest/gtest.h>

#include "models/coalescing/coalescer.h"
#include "tests/sm/sm_test_support.h"

using gms::LineRequest;
using gms::MemKind;
using gms::WarpInst;
using gms::test::make_inst;

namespace {
std::vector<LineRequest> split(const WarpInst& i, unsigned line_bytes) {
  std::vector<LineRequest> out, scratch;
  gms::Coalescer::coalesce(i, out);
  gms::split_to_lines(i, line_bytes, out, scratch);
  return out;
}
}  // namespace

TEST(LineSplit, AFullWarpIsFourThirtyTwoByteRequestsOfEightLanes) {
  auto out = split(make_inst(1, MemKind::Load, 0x1000, 4), 32);
  ASSERT_EQ(out.size(), 4u);
  for (unsigned p = 0; p < 4; ++p) {
    EXPECT_EQ(out[p].line_addr, 0x1000u);
    EXPECT_EQ(out[p].chunk_mask, 1u << p);
    EXPECT_EQ(out[p].lanes, 0xFFu << (8 * p));
    EXPECT_EQ(out[p].span_lo, 32 * p);
    EXPECT_EQ(out[p].span_hi, 32 * p + 32);
  }
  EXPECT_EQ(out[1].byte_mask[0], 0xFFFFFFFF00000000ull);
  EXPECT_EQ(out[1].byte_mask[1], 0u);
}

TEST(LineSplit, SixtyFourByteLinesTakeTwoChunksEach) {
  auto out = split(make_inst(1, MemKind::Load, 0x1000, 4), 64);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].chunk_mask, 0x3);
  EXPECT_EQ(out[1].chunk_mask, 0xC);
  EXPECT_EQ(out[1].lanes, 0xFFFF0000u);
}

TEST(LineSplit, ALaneCrossingASmallLineIsInBothAndUntouchedLinesMakeNoRequest) {
  WarpInst i;
  i.kind = MemKind::Load;
  i.width = 8;
  i.active_mask = 0x3;
  i.addr[0] = 0x101C;  // bytes 28..35: chunks 0 and 1
  i.addr[1] = 0x1060;  // bytes 96..103: chunk 3
  auto out = split(i, 32);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].chunk_mask, 0x1);
  EXPECT_EQ(out[0].lanes, 0x1u);
  EXPECT_EQ(out[1].chunk_mask, 0x2);
  EXPECT_EQ(out[1].lanes, 0x1u);
  EXPECT_EQ(out[2].chunk_mask, 0x8);
  EXPECT_EQ(out[2].lanes, 0x2u);
}

TEST(LineSplit, TheLastLineOfTheAddressSpaceSplitsToo) {
  auto out = split(make_inst(1, MemKind::Load, 0xffffffffffffff80ull, 4), 32);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[3].lanes, 0xFF000000u);
  EXPECT_EQ(out[3].span_hi, 128u);
}

TEST(LineSplit, OneHundredTwentyEightByteLinesAreLeftAlone) {
  auto out = split(make_inst(1, MemKind::Load, 0x1000, 4), 128);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].chunk_mask, 0xF);
}
