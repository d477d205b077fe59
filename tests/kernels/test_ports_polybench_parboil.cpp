// The PolyBench-ACC, Parboil and CUDA SDK ports: each computes its benchmark's result (checked against a
// sequential reference), emits a stream whose shape is computed by hand on a tiny input, and emits the same
// stream twice.
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

// ---- PolyBench ----

TEST(PolybenchPorts, GemmComputesAndStreams) {
  expect_checks("polybench/gemm", "{n: 48}");
  expect_deterministic("polybench/gemm", "{n: 40}");
  // n = 32: grid 1 x 4 CTAs of 8 warps; each warp loads C, stores C, then 32 x (load A, load B, store C).
  auto p = make_port("polybench/gemm", "{n: 32}");
  const auto s = pull_all(*p);
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.ctas, 4u);
  EXPECT_EQ(s.warps, 32u);
  EXPECT_EQ(s.insts, 32u * (2 + 3 * 32));
  EXPECT_EQ(s.stores, 32u * (1 + 32));
  ASSERT_EQ(s.first.size(), 1u);
  const uint64_t c_base = kBase + 2 * 32 * 32 * 4;  // A, B then C, 256 B aligned
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], c_base);
  EXPECT_EQ(s.first[0].addr[31], c_base + 31 * 4);
}

TEST(PolybenchPorts, SyrkComputesAndStreams) {
  expect_checks("polybench/syrk", "{n: 48}");
  expect_deterministic("polybench/syrk", "{n: 40}");
  // n = 32: 4 CTAs of 8 warps, each: load C, store C, 32 x (load A[i][k], load A[j][k], store C).
  const auto s = pull_all(*make_port("polybench/syrk", "{n: 32}"));
  EXPECT_EQ(s.ctas, 4u);
  EXPECT_EQ(s.insts, 32u * (2 + 3 * 32));
  ASSERT_EQ(s.first.size(), 1u);
  EXPECT_EQ(s.first[0].addr[0], kBase + 32 * 32 * 4);  // C after A
  EXPECT_EQ(s.first[0].addr[31], kBase + 32 * 32 * 4 + 31 * 4);
}

TEST(PolybenchPorts, AtaxComputesAndStreams) {
  expect_checks("polybench/atax", "{n: 80}");
  expect_deterministic("polybench/atax", "{n: 40}");
  // n = 32: each kernel one CTA of 8 warps, all on the same 32 elements: store 0, 32 x (load, load, store).
  const auto s = pull_all(*make_port("polybench/atax", "{n: 32}"));
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.insts_per_kernel[0], 8u * (1 + 3 * 32));
  EXPECT_EQ(s.insts_per_kernel[1], 8u * (1 + 3 * 32));
  ASSERT_EQ(s.first.size(), 2u);
  const uint64_t tmp = kBase + 4096 + 256 + 256;  // A, x, y (256 B aligned), tmp
  EXPECT_EQ(s.first[0].kind, MemKind::Store);
  EXPECT_EQ(s.first[0].addr[0], tmp);
  EXPECT_EQ(s.first[1].addr[5], kBase + 4096 + 256 + 5 * 4);  // y[5]
}

TEST(PolybenchPorts, BicgComputesAndStreams) {
  expect_checks("polybench/bicg", "{n: 300}");
  expect_deterministic("polybench/bicg", "{n: 72}");
  // n = 64: one CTA of 256 threads; only its first 2 warps have elements: store 0, 64 x (load, load, store).
  const auto s = pull_all(*make_port("polybench/bicg", "{n: 64}"));
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.warps, 16u);
  EXPECT_EQ(s.insts_per_kernel[0], 2u * (1 + 3 * 64));
  EXPECT_EQ(s.insts_per_kernel[1], 2u * (1 + 3 * 64));
  ASSERT_EQ(s.first.size(), 2u);
  EXPECT_EQ(s.first[0].addr[0], kBase + 64 * 64 * 4 + 256);  // s, after A and r
}

TEST(PolybenchPorts, MvtComputesAndStreams) {
  expect_checks("polybench/mvt", "{n: 72}");
  expect_deterministic("polybench/mvt", "{n: 40}");
  // n = 32: each kernel one CTA of 8 warps on the same elements: load x, 32 x (load A, load y, store x).
  const auto s = pull_all(*make_port("polybench/mvt", "{n: 32}"));
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.insts_per_kernel[0], 8u * (1 + 3 * 32));
  EXPECT_EQ(s.insts_per_kernel[1], 8u * (1 + 3 * 32));
  ASSERT_EQ(s.first.size(), 2u);
  EXPECT_EQ(s.first[0].addr[0], kBase + 4096);        // x1
  EXPECT_EQ(s.first[1].addr[0], kBase + 4096 + 256);  // x2
}

TEST(PolybenchPorts, GesummvComputesAndStreams) {
  expect_checks("polybench/gesummv", "{n: 300}");
  expect_deterministic("polybench/gesummv", "{n: 72}");
  // n = 64: 2 warps with rows: 64 x 8 accesses, then load tmp, load y, store y. The first load walks a
  // column of A: lane l at row l.
  const auto s = pull_all(*make_port("polybench/gesummv", "{n: 64}"));
  EXPECT_EQ(s.insts, 2u * (8 * 64 + 3));
  ASSERT_EQ(s.first.size(), 1u);
  EXPECT_EQ(s.first[0].addr[0], kBase);
  EXPECT_EQ(s.first[0].addr[3], kBase + 3 * 64 * 4);
}

TEST(PolybenchPorts, TwoMmComputesAndStreams) {
  expect_checks("polybench/2mm", "{n: 48}");
  expect_deterministic("polybench/2mm", "{n: 40}");
  // n = 32: two kernels of 4 CTAs x 8 warps: store 0 (kernel 1) or load and store D (kernel 2), then 32 x 3.
  const auto s = pull_all(*make_port("polybench/2mm", "{n: 32}"));
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.insts_per_kernel[0], 32u * (1 + 3 * 32));
  EXPECT_EQ(s.insts_per_kernel[1], 32u * (2 + 3 * 32));
  ASSERT_EQ(s.first.size(), 2u);
  EXPECT_EQ(s.first[0].addr[0], kBase);                    // tmp
  EXPECT_EQ(s.first[1].addr[0], kBase + 4 * 32 * 32 * 4);  // D
}

TEST(PolybenchPorts, ThreeMmComputesAndStreams) {
  expect_checks("polybench/3mm", "{n: 48}");
  expect_deterministic("polybench/3mm", "{n: 40}");
  const auto s = pull_all(*make_port("polybench/3mm", "{n: 32}"));
  ASSERT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.insts, 3u * 32 * (1 + 3 * 32));
  ASSERT_EQ(s.first.size(), 3u);
  EXPECT_EQ(s.first[2].addr[0], kBase + 6 * 32 * 32 * 4);  // G
}

TEST(PolybenchPorts, CovarianceComputesAndStreams) {
  expect_deterministic("polybench/covariance", "{n: 256}");
  // n = 256: mean_kernel, one CTA of 8 warps: store 0, 256 x (load, store), store the mean. reduce_kernel:
  // 8 x 8 CTAs of 8 warps (the first 64 rows): load, load, store. covar_kernel: warp w runs 256 - 32w
  // j2 steps of (store 0, 256 x (load, load, store), mirror store).
  auto p = make_port("polybench/covariance", "{n: 256}");
  const auto s = pull_all(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.insts_per_kernel[0], 8u * (2 + 2 * 256));
  EXPECT_EQ(s.insts_per_kernel[1], 64u * 8 * 3);
  EXPECT_EQ(s.insts_per_kernel[2], (8u * 256 - 32 * 28) * (2 + 3 * 256));
}

TEST(PolybenchPorts, CorrelationComputesAndStreams) {
  expect_deterministic("polybench/correlation", "{n: 256}");
  // n = 256: reduce_kernel covers every row (8 x 32 CTAs of 8 warps: load, load, store, load, store);
  // corr_kernel: j1 < 255, warp w runs 255 - 32w j2 steps of (store 0, 256 x 3, mirror) after the
  // diagonal store.
  auto p = make_port("polybench/correlation", "{n: 256}");
  const auto s = pull_all(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.insts_per_kernel[0], 8u * (2 + 2 * 256));
  EXPECT_EQ(s.insts_per_kernel[2], 256u * 8 * 5);
  EXPECT_EQ(s.insts_per_kernel[3], 8u + (8u * 255 - 32 * 28) * (2 + 3 * 256));
}

// ---- Parboil ----

TEST(ParboilPorts, SpmvComputesAndStreams) {
  expect_checks("parboil/spmv", "{rows: 1000, nnz_lower: 6000, band: 50, iterations: 2}");
  expect_checks("parboil/spmv", "{rows: 4000, nnz_lower: 30000, band: 400, seed: 7, iterations: 1}");
  expect_deterministic("parboil/spmv", "{rows: 1000, nnz_lower: 6000, band: 50, iterations: 2}");
  {
    // Diagonal only: every group's bound is 1; a warp loads value, column, x, perm and stores: 5
    // instructions. 40 rows: 64 padded, 2 one-warp CTAs, the second with 8 rows. Two launches.
    const auto s = pull_all(*make_port("parboil/spmv", "{rows: 40, nnz_lower: 40, iterations: 2}"));
    ASSERT_EQ(s.kernels, 2u);
    EXPECT_EQ(s.ctas, 4u);
    EXPECT_EQ(s.insts, 2u * 2 * 5);
    EXPECT_EQ(s.first[0].addr[0], kBase);  // d_data[jds_ptr[0] + 0]
    EXPECT_EQ(s.first[0].addr[31], kBase + 31 * 4);
  }
  {
    // Tridiagonal, 64 rows: both groups start with a 3-entry row: 3 loads, the second column, one loop
    // step (3 loads), the last value and x, perm, store: 11 per warp.
    const auto s = pull_all(*make_port("parboil/spmv", "{rows: 64, nnz_lower: 127, band: 1, iterations: 1}"));
    EXPECT_EQ(s.kernels, 1u);
    EXPECT_EQ(s.insts, 2u * 11);
    EXPECT_EQ(s.stores, 2u);
  }
}

TEST(ParboilPorts, StencilComputesAndStreams) {
  expect_checks("parboil/stencil", "{nx: 130, ny: 10, nz: 6, iterations: 3}");
  expect_deterministic("parboil/stencil", "{nx: 100, ny: 9, nz: 5}");
  // 64 x 8 x 5, one launch: 2 CTAs (one along x) of 4 warps, a warp per y row; 3 planes. Every warp loads
  // 4 first-plane points, 2 planes above per step and meets 2 + 2 x 3 barriers. Rows 1..6 store both
  // points per step (lanes 1..31 and 0..30: the x borders stay). Row 3 loads the row above from global
  // memory, row 4 the row below (the tiles' edges); lanes 0 and 31 are borders here, so no x neighbours.
  const auto s = pull_all(*make_port("parboil/stencil", "{nx: 64, ny: 8, nz: 5, iterations: 1}"));
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.ctas, 2u);
  EXPECT_EQ(s.barriers, 8u * 8);
  EXPECT_EQ(s.stores, 6u * 2 * 3);
  EXPECT_EQ(s.loads, 8u * (4 + 2 * 3) + 3 * 4);
  EXPECT_EQ(s.first[0].kind, MemKind::Barrier);  // after zeroing the tile
}

TEST(ParboilPorts, SgemmComputesAndStreams) {
  expect_checks("parboil/sgemm", "{m: 256, n: 48, k: 40}");
  expect_deterministic("parboil/sgemm", "{m: 128, n: 32, k: 24}");
  // m = 128, n = 16, k = 16: one CTA of 4 warps; per k step of 8: load B, barrier, 8 loads of A, barrier;
  // then 16 loads and stores of C. A warp's load of A: 32 consecutive rows of one column.
  const auto s = pull_all(*make_port("parboil/sgemm", "{m: 128, n: 16, k: 16}"));
  EXPECT_EQ(s.ctas, 1u);
  EXPECT_EQ(s.warps, 4u);
  EXPECT_EQ(s.barriers, 4u * 2 * 2);
  EXPECT_EQ(s.loads, 4u * (2 * 9 + 16));
  EXPECT_EQ(s.stores, 4u * 16);
  const uint64_t b_base = kBase + 128 * 16 * 4;
  EXPECT_EQ(s.first[0].addr[0], b_base);                  // B[n + ty * ldb], lane 0: n = 0, ty = 0
  EXPECT_EQ(s.first[0].addr[17], b_base + (16 + 1) * 4);  // lane 17: tx = 1, ty = 1
}

TEST(ParboilPorts, MriQComputesAndStreams) {
  expect_checks("parboil/mri-q", "{num_x: 512, num_k: 2500}");
  expect_checks("parboil/mri-q", "{num_x: 256, num_k: 777}");
  expect_deterministic("parboil/mri-q", "{num_x: 512, num_k: 1500}");
  // num_k = 1500: ComputePhiMag_GPU on 3 CTAs of 16 warps (2 loads and a store where k < 1500: 47 warps),
  // then 2 launches of ComputeQ_GPU, each 2 CTAs x 8 warps x (5 loads, 2 stores).
  const auto s = pull_all(*make_port("parboil/mri-q", "{num_x: 512, num_k: 1500}"));
  ASSERT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.insts_per_kernel[0], 47u * 3);
  EXPECT_EQ(s.insts_per_kernel[1], 16u * 7);
  EXPECT_EQ(s.insts_per_kernel[2], 16u * 7);
  EXPECT_EQ(s.kernel_names[1], "ComputeQ_GPU");
  const uint64_t x_base = kBase + 3 * 6144;  // phiR, phiI, phiMag (1500 floats, 256 B aligned each)
  EXPECT_EQ(s.first[1].addr[0], x_base);
}

// ---- CUDA SDK ----

TEST(SdkPorts, BlackScholesComputesAndStreams) {
  expect_checks("sdk/blackscholes", "{options: 10000, iterations: 2}");
  expect_deterministic("sdk/blackscholes", "{options: 3000, iterations: 2}");
  // 1000 options: 500 float2 pairs, 4 CTAs of 4 warps; 16 warps have pairs (the last one 20): each
  // loads three float2 (8 B a lane) and stores two.
  const auto s = pull_all(*make_port("sdk/blackscholes", "{options: 1000, iterations: 3}"));
  EXPECT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.ctas, 3u * 4);
  EXPECT_EQ(s.loads, 3u * 16 * 3);
  EXPECT_EQ(s.stores, 3u * 16 * 2);
  const uint64_t stock = kBase + 2 * 4096;  // after the two 4000 B result arrays, 256 B aligned
  EXPECT_EQ(s.first[0].width, 8u);
  EXPECT_EQ(s.first[0].addr[0], stock);
  EXPECT_EQ(s.first[0].addr[1], stock + 8);
}

// The default inputs' stream sizes (minutes): --gtest_also_run_disabled_tests
// --gtest_filter='*DefaultInputs*'.
TEST(PolybenchParboilPorts, DISABLED_DefaultInputs) {
  for (const PortInfo* info : PortRegistry::builtin().all()) {
    if (info->name.rfind("polybench/", 0) && info->name.rfind("parboil/", 0) && info->name.rfind("sdk/", 0))
      continue;
    auto p = make_port(info->name);
    const auto s = pull_all(*p);
    std::printf("%-24s kernels %3llu  CTAs %7llu  warps %8llu  warp insts %10llu  check '%s'\n",
                info->name.c_str(), (unsigned long long)s.kernels, (unsigned long long)s.ctas,
                (unsigned long long)s.warps, (unsigned long long)s.insts, p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
