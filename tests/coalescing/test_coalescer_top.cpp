// The coalescer at the top of the 64-bit space: the last line (0xffffffffffffff80) is an ordinary line,
// accesses ending exactly at 2^64 are requested like any other, and a lane wrapping past 2^64 is rejected
// instead of silently making no request (its load would never be answered nor checked).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "models/coalescing/coalescer.h"

using gms::Coalescer;
using gms::LineRequest;
using gms::WarpInst;

namespace {

constexpr uint64_t kLastLine = 0xffffffffffffff80ull;

WarpInst warp(uint32_t mask, unsigned width, uint64_t base, uint64_t stride) {
  WarpInst in;
  in.active_mask = mask;
  in.width = uint8_t(width);
  for (unsigned l = 0; l < 32; ++l) in.addr[l] = base + l * stride;  // modulo 2^64
  return in;
}

std::vector<LineRequest> run(const WarpInst& in) {
  std::vector<LineRequest> out;
  Coalescer::coalesce(in, out);
  return out;
}

}  // namespace

TEST(CoalescerTop, LastLineFullWarpIsOneRequest) {
  const auto out = run(warp(~0u, 4, kLastLine, 4));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].line_addr, kLastLine);
  EXPECT_EQ(out[0].lanes, ~0u);
  EXPECT_EQ(out[0].chunk_mask, 0xf);
  EXPECT_EQ(out[0].byte_mask[0], ~uint64_t(0));
  EXPECT_EQ(out[0].byte_mask[1], ~uint64_t(0));
}

TEST(CoalescerTop, AccessesEndingExactlyAt2To64AreRequested) {
  for (unsigned w : {1u, 2u, 4u, 8u, 16u}) {
    const auto out = run(warp(1, w, 0 - uint64_t(w), 0));
    ASSERT_EQ(out.size(), 1u) << "width " << w;
    EXPECT_EQ(out[0].line_addr, kLastLine);
    EXPECT_EQ(out[0].lanes, 1u);
    EXPECT_EQ(out[0].chunk_mask, 0x8);
    EXPECT_EQ(out[0].byte_mask[0], 0u);
    EXPECT_EQ(out[0].byte_mask[1], ~uint64_t(0) << (64 - w)) << "width " << w;
  }
  // Misaligned in the last line, crossing a 64-bit word of the mask: the general path.
  const auto out = run(warp(1, 16, 0xffffffffffffffb8ull, 0));  // line bytes 56..71
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].chunk_mask, 0x6);
}

TEST(CoalescerTop, CrossingIntoTheLastLineSplits) {
  const auto out = run(warp(1, 8, kLastLine - 4, 0));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].line_addr, kLastLine - 128);
  EXPECT_EQ(out[0].chunk_mask, 0x8);
  EXPECT_EQ(out[1].line_addr, kLastLine);
  EXPECT_EQ(out[1].chunk_mask, 0x1);
  EXPECT_EQ(out[1].byte_mask[0], 0xfu);
}

TEST(CoalescerTop, LanesWrappingTheirAddressToZeroAreAllRequested) {
  // Base ...f0 with stride 4: lanes 0-3 in the last line, lane 4 on at address 0 (addresses are modulo
  // 2^64; no single access wraps). Every lane is in a request.
  const auto out = run(warp(~0u, 4, 0xfffffffffffffff0ull, 4));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].line_addr, kLastLine);
  EXPECT_EQ(out[0].lanes, 0xfu);
  EXPECT_EQ(out[1].line_addr, 0u);
  EXPECT_EQ(out[1].lanes, ~0xfu);
}

TEST(CoalescerTop, AnAccessWrappingPast2To64IsRejected) {
  WarpInst in = warp(0x21, 4, 0x1000, 0);
  in.addr[5] = 0xfffffffffffffffeull;
  EXPECT_EQ(gms::first_wrapping_lane(in), 5);
  try {
    run(in);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "lane 5 address 0xfffffffffffffffe + 4 bytes wraps past 2^64");
  }
  in.addr[5] = 0xfffffffffffffffcull;  // fits exactly
  EXPECT_EQ(gms::first_wrapping_lane(in), -1);
  EXPECT_EQ(run(in).size(), 2u);
  // A full warp in the last line tries the fast paths first: its one wrapping lane is rejected too.
  WarpInst full = warp(~0u, 4, kLastLine, 4);
  full.addr[31] = 0xfffffffffffffffeull;
  EXPECT_EQ(gms::first_wrapping_lane(full), 31);
  EXPECT_THROW(run(full), std::invalid_argument);
}
