// The second group of PolyBench/GPU ports (2DCONV, 3DCONV, SYR2K, FDTD-2D, GRAMSCHMIDT): each computes its
// benchmark's result (checked against a sequential reference), emits a stream whose shape is computed by
// hand on a tiny input, and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_checks;
using test::expect_deterministic;
using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

TEST(Polybench2Ports, TwoDConvComputesAndStreams) {
  expect_checks("polybench/2dconv", "{n: 50}");
  expect_checks("polybench/2dconv", "{n: 64}");
  expect_deterministic("polybench/2dconv", "{n: 40}");
  // n = 32: 1 x 4 CTAs of 8 warps, a warp per row i; rows 1..30 are interior, lanes j = 1..30: 9 loads and
  // a store each.
  const auto s = pull_all(*make_port("polybench/2dconv", "{n: 32}"));
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.ctas, 4u);
  EXPECT_EQ(s.warps, 32u);
  EXPECT_EQ(s.insts, 30u * 10);
  EXPECT_EQ(s.stores, 30u);
  ASSERT_EQ(s.first.size(), 1u);
  // CTA 0's first instruction is row 1's: A[0][j - 1].
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  EXPECT_EQ(s.first[0].active_mask, 0x7ffffffeu);
  EXPECT_EQ(s.first[0].addr[1], kBase);
  EXPECT_EQ(s.first[0].addr[30], kBase + 29 * 4);
}

TEST(Polybench2Ports, ThreeDConvComputesAndStreams) {
  expect_checks("polybench/3dconv", "{ni: 5, nj: 20, nk: 40}");
  expect_deterministic("polybench/3dconv", "{ni: 4, nj: 12, nk: 36}");
  // ni = 4, nj = 16, nk = 32: 2 launches (planes 1, 2) of 1 x 2 CTAs; rows j = 1..14 of each plane are
  // interior, lanes k = 1..30: 11 loads and a store each.
  const auto s = pull_all(*make_port("polybench/3dconv", "{ni: 4, nj: 16, nk: 32}"));
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.ctas, 4u);
  EXPECT_EQ(s.insts_per_kernel[0], 14u * 12);
  EXPECT_EQ(s.insts_per_kernel[1], 14u * 12);
  EXPECT_EQ(s.stores, 2u * 14);
  ASSERT_EQ(s.first.size(), 2u);
  // Plane i, row 1: A[i - 1][0][k - 1] first.
  EXPECT_EQ(s.first[0].active_mask, 0x7ffffffeu);
  EXPECT_EQ(s.first[0].addr[1], kBase);
  EXPECT_EQ(s.first[1].addr[1], kBase + 16 * 32 * 4);
  EXPECT_EQ(s.first[1].addr[30], kBase + 16 * 32 * 4 + 29 * 4);
}

TEST(Polybench2Ports, Syr2kComputesAndStreams) {
  expect_checks("polybench/syr2k", "{n: 48}");
  expect_deterministic("polybench/syr2k", "{n: 40}");
  // n = 32: 4 CTAs of 8 warps, each: load C, store C, 32 x (load A[i][k], B[j][k], B[i][k], A[j][k], store
  // C).
  const auto s = pull_all(*make_port("polybench/syr2k", "{n: 32}"));
  EXPECT_EQ(s.ctas, 4u);
  EXPECT_EQ(s.insts, 32u * (2 + 5 * 32));
  EXPECT_EQ(s.stores, 32u * (1 + 32));
  ASSERT_EQ(s.first.size(), 1u);
  const uint64_t c_base = kBase + 2 * 32 * 32 * 4;  // C after A and B
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], c_base);
  EXPECT_EQ(s.first[0].addr[31], c_base + 31 * 4);
}

TEST(Polybench2Ports, Fdtd2dComputesAndStreams) {
  expect_checks("polybench/fdtd-2d", "{tmax: 3, nx: 20, ny: 50}");
  expect_deterministic("polybench/fdtd-2d", "{tmax: 2, nx: 12, ny: 40}");
  // tmax = 2, nx = 16, ny = 32: per step 3 launches of 1 x 2 CTAs, a warp per row i. Step 1: row 0 loads
  // _fict_[t] and stores (2), rows 1..15 load, load, load, store (4); step 2: every row, lanes j >= 1 (4);
  // step 3: rows 0..14, lanes j <= 30: 5 loads and a store.
  const auto s = pull_all(*make_port("polybench/fdtd-2d", "{tmax: 2, nx: 16, ny: 32}"));
  ASSERT_EQ(s.kernels, 6u);
  EXPECT_EQ(s.insts_per_kernel[0], 2u + 15 * 4);
  EXPECT_EQ(s.insts_per_kernel[1], 16u * 4);
  EXPECT_EQ(s.insts_per_kernel[2], 15u * 6);
  EXPECT_EQ(s.insts, 2u * (62 + 64 + 90));
  ASSERT_EQ(s.first.size(), 6u);
  // _fict_ (2 floats, 256 B), ex, ey, hz (2 KiB each).
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], kBase);
  EXPECT_EQ(s.first[0].addr[31], kBase);
  EXPECT_EQ(s.first[3].addr[0], kBase + 4);  // _fict_[1]
  const uint64_t hz = kBase + 256 + 2 * 16 * 32 * 4;
  EXPECT_EQ(s.first[1].active_mask, 0xfffffffeu);
  EXPECT_EQ(s.first[1].addr[1], hz);  // hz[0][j - 1]
  EXPECT_EQ(s.first[2].active_mask, 0x7fffffffu);
  EXPECT_EQ(s.first[2].addr[0], kBase + 256);  // ex[0][j]
}

TEST(Polybench2Ports, GramschmidtComputesAndStreams) {
  expect_checks("polybench/gramschmidt", "{n: 40, diag: 1}");
  expect_checks("polybench/gramschmidt", "{n: 264, diag: 3}");  // 2 CTAs in kernels 2 and 3
  expect_checks("polybench/gramschmidt", "{n: 40}");  // the benchmark's A: NaN from k = 0, as on the GPU
  expect_deterministic("polybench/gramschmidt", "{n: 48}");
  // n = 32: per k, kernel1's lane 0 loads column k (32) and stores R[k][k]; kernel2's warp 0 loads R[k][k],
  // A[i][k] and stores Q[i][k]; kernel3's warp 0 (lanes j > k; none at k = 31) stores R[k][j] = 0, then
  // 32 x (load, load, store) and 32 x (load, load, load, store). The other 7 warps of each CTA have no
  // element.
  const auto s = pull_all(*make_port("polybench/gramschmidt", "{n: 32}"));
  ASSERT_EQ(s.kernels, 3u * 32);
  EXPECT_EQ(s.insts_per_kernel[0], 33u);
  EXPECT_EQ(s.insts_per_kernel[1], 3u);
  EXPECT_EQ(s.insts_per_kernel[2], 1u + 3 * 32 + 4 * 32);
  EXPECT_EQ(s.insts_per_kernel[3 * 31 + 2], 0u);
  EXPECT_EQ(s.insts, 32u * (33 + 3) + 31u * 225);
  ASSERT_EQ(s.first.size(), 3u * 31 + 2);  // kernel3 at k = 31 emits nothing
  const uint64_t r = kBase + 32 * 32 * 4;  // A, R, Q
  EXPECT_EQ(s.first[0].active_mask, 0x1u);
  EXPECT_EQ(s.first[0].addr[0], kBase);  // A[0][0]
  EXPECT_EQ(s.first[1].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[1].addr[31], r);  // R[0][0], every lane
  EXPECT_EQ(s.first[2].kind, MemKind::Store);
  EXPECT_EQ(s.first[2].active_mask, 0xfffffffeu);
  EXPECT_EQ(s.first[2].addr[1], r + 4);  // R[0][1]
}

// The default inputs' warp instruction counts (memory and barriers, as pulled), for PortInfo::input:
// --gtest_also_run_disabled_tests --gtest_filter='*DefaultSizes*'.
TEST(Polybench2Ports, DISABLED_DefaultSizes) {
  for (const char* name : {"polybench/2dconv", "polybench/3dconv", "polybench/syr2k", "polybench/fdtd-2d",
                           "polybench/gramschmidt"}) {
    auto p = make_port(name);
    const auto s = pull_all(*p);
    std::printf("%s: %llu kernels, %llu warp instructions, check '%s'\n", name, (unsigned long long)s.kernels,
                (unsigned long long)s.insts, p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
