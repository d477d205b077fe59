// The Parboil ports lbm, cutcp, tpacf and sad: each computes its benchmark's result (checked against a
// sequential reference), emits a stream whose shape is computed by hand on a tiny input, and emits the same
// stream twice.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_checks;
using test::expect_deterministic;
using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

TEST(ParboilPorts2, LbmComputesAndStreams) {
  expect_checks("parboil/lbm", "{size_x: 40, size_y: 9, size_z: 7, iterations: 3, obstacle_permille: 100}");
  expect_deterministic("parboil/lbm", "{size_x: 36, size_y: 6, size_z: 5, obstacle_permille: 50}");
  // 40 x 6 x 5, 2 steps: 30 CTAs of 40 threads (a full warp and one of 8 lanes), each warp 20 loads and 19
  // stores. Padded x = 48, the grid pointer 2 planes of 48 x 6 cells into the allocation.
  const auto s = pull_all(*make_port("parboil/lbm", "{size_x: 40, size_y: 6, size_z: 5}"));
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.warps, 2u * 30 * 2);
  EXPECT_EQ(s.insts_per_kernel[0], 60u * 39);
  EXPECT_EQ(s.loads, 2u * 60 * 20);
  ASSERT_EQ(s.first.size(), 2u);
  const uint64_t margin = 2 * 48 * 6 * 4;
  const uint64_t grid = (48 * 6 * 9 * 20 + 4 * 48 * 6 * 20) * 4;  // margins of 2 planes x 20 entries each end
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], kBase + margin);
  EXPECT_EQ(s.first[0].addr[31], kBase + margin + 31 * 4);
  const uint64_t dst = (kBase + grid + 255) / 256 * 256;
  EXPECT_EQ(s.first[1].addr[0], dst + margin);  // the second step reads the first's output
}

TEST(ParboilPorts2, CutcpComputesAndStreams) {
  expect_checks("parboil/cutcp", "{side_x: 14, side_y: 10, side_z: 9}");
  expect_deterministic("parboil/cutcp", "{side_x: 8, side_y: 8, side_z: 6}");
  // Every warp: 11 rounds over the 335 neighbour bins, 4 bins per half-warp in the first 10 (8 loads), 2
  // in the last (4 loads, the second of warp 3 by one half-warp), 2 barriers a round, 4 stores.
  const auto s = pull_all(*make_port("parboil/cutcp", "{side_x: 6, side_y: 6, side_z: 6}"));
  EXPECT_EQ(s.warps, 4 * s.ctas);
  EXPECT_EQ(s.loads, 84 * s.warps);
  EXPECT_EQ(s.barriers, 22 * s.warps);
  EXPECT_EQ(s.stores, 4 * s.warps);
  ASSERT_EQ(s.first.size(), s.kernels);
  // The first load: half-warp 0 the first 16 floats of bin (-2, -3, -3) from the origin's (one bin past
  // the bins' base, after the regions of 2048 B each), half-warp 1 those of the next bin.
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ((s.first[0].addr[0] - kBase) % 2048, 128u);
  for (unsigned l = 0; l < kWarpSize; ++l)
    EXPECT_EQ(s.first[0].addr[l], s.first[0].addr[0] + 4 * (l % 16) + 128 * (l / 16));
}

TEST(ParboilPorts2, TpacfComputesAndStreams) {
  expect_checks("parboil/tpacf", "{points: 600, sets: 2}");
  expect_deterministic("parboil/tpacf", "{points: 300, sets: 1}");
  // 512 points, 1 random set: 3 CTAs of 8 warps. Per warp: 2 chunks x (3 loads, a barrier); self CTAs
  // (0, 1) 2 + 1 random chunks, the cross CTA 2 x 2, 3 loads each; 36 barriers of the reduction; warp 0
  // stores the 20 bins.
  const auto s = pull_all(*make_port("parboil/tpacf", "{points: 512, sets: 1}"));
  EXPECT_EQ(s.ctas, 3u);
  EXPECT_EQ(s.warps, 24u);
  EXPECT_EQ(s.barriers, 24u * (2 + 36));
  EXPECT_EQ(s.loads, 8u * (2 * (6 + 9) + (6 + 12)));
  EXPECT_EQ(s.stores, 3u);
  EXPECT_EQ(s.insts, s.loads + s.stores + s.barriers);
  ASSERT_EQ(s.first.size(), 1u);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);  // x of the data's first 32 points
  EXPECT_EQ(s.first[0].addr[0], kBase);
  EXPECT_EQ(s.first[0].addr[31], kBase + 31 * 4);
}

TEST(ParboilPorts2, SadComputesAndStreams) {
  expect_checks("parboil/sad", "{width: 48, height: 32}");
  expect_deterministic("parboil/sad", "{width: 32, height: 32}");
  // 32 x 16: 2 macroblocks. larger_sad_calc_8: 2 CTAs of 4 warps, larger_sad_calc_16: 2 of 1; every warp
  // 18 rounds (the last one lane: word 544) of 4 loads and 5 stores.
  uint64_t lone = 0;
  const auto s =
      pull_all(*make_port("parboil/sad", "{width: 32, height: 16}"),
               [&](uint64_t, const std::string&, const WarpInst& i) { lone += i.active_mask == 1u; });
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.insts_per_kernel[0], 8u * 18 * 9);
  EXPECT_EQ(s.insts_per_kernel[1], 2u * 18 * 9);
  EXPECT_EQ(s.loads, 10u * 18 * 4);
  EXPECT_EQ(lone, 10u * 9);
  ASSERT_EQ(s.first.size(), 2u);
  // calc_8's first load: the 4 x 4 SADs (type 7, from 25 x 2 x 1096 16-bit SADs) of the first macroblock,
  // after d_cur_image (2 x 256 pixels).
  const uint64_t sads = kBase + 1024;
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], sads + 25 * 2 * 1096 * 2);
  EXPECT_EQ(s.first[0].addr[31], sads + 25 * 2 * 1096 * 2 + 31 * 4);
  EXPECT_EQ(s.first[1].addr[0], sads + 5 * 2 * 1096 * 2);  // calc_16 reads the 8 x 8 SADs (type 4)
}

}  // namespace
}  // namespace gms::kernels

namespace gms::kernels {
namespace {
// The default inputs' warp instructions (slow: run by hand with --gtest_also_run_disabled_tests).
TEST(ParboilPorts2, DISABLED_DefaultCounts) {
  for (const char* name : {"parboil/lbm", "parboil/cutcp", "parboil/tpacf", "parboil/sad"}) {
    const auto t0 = std::chrono::steady_clock::now();
    auto p = test::make_port(name);
    const auto s = test::pull_all(*p);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "%s (%.1f s to pull): %llu kernels, %llu warps, %llu warp instructions (%llu loads, %llu stores, "
        "%llu barriers)\n",
        name, secs, (unsigned long long)s.kernels, (unsigned long long)s.warps, (unsigned long long)s.insts,
        (unsigned long long)s.loads, (unsigned long long)s.stores, (unsigned long long)s.barriers);
    EXPECT_EQ(p->check(), "") << name;
  }
}
}  // namespace
}  // namespace gms::kernels
