// The CUDA SDK ports (matrixMul, mergeSort, binomialOptions, fastWalshTransform, histogram): each computes
// its sample's result (checked against a sequential reference), emits a stream whose shape is computed by
// hand on a tiny input, and emits the same stream twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_checks;
using test::expect_deterministic;
using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

TEST(SdkPorts, MatrixMulComputesAndStreams) {
  expect_checks("sdk/matrixmul", "{wa: 96, ha: 64, wb: 128, seed: 3}");
  expect_checks("sdk/matrixmul", "{wa: 64, ha: 32, wb: 32, launches: 1}");  // the sample's constants
  expect_checks("sdk/matrixmul", "{block: 16, wa: 48, ha: 32, wb: 64, seed: 2}");
  expect_deterministic("sdk/matrixmul", "{wa: 64, ha: 64, wb: 96, seed: 5}");
  {
    // block = 16, wA = hA = 16, wB = 32: 2 CTAs of 8 warps (a warp: two rows of the tile), 5 each.
    const auto s = pull_all(*make_port("sdk/matrixmul", "{block: 16, wa: 16, ha: 16, wb: 32, launches: 1}"));
    EXPECT_EQ(s.kernel_names[0], "MatrixMulCUDA<16>");
    EXPECT_EQ(s.insts, 2u * 8 * 5);
    EXPECT_EQ(s.first[0].addr[15], kBase + 15 * 4);
    EXPECT_EQ(s.first[0].addr[16], kBase + 16 * 4);  // A[1][0]: row 1 of the 16-wide A
  }
  // wA = hA = 32, wB = 64: 2 CTAs of 32 warps (warp = one row of the tile), one tile step each: load A,
  // load B, two barriers, store C.
  const auto s = pull_all(*make_port("sdk/matrixmul", "{wa: 32, ha: 32, wb: 64, launches: 3}"));
  EXPECT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.ctas, 3u * 2);
  EXPECT_EQ(s.insts, 3u * 2 * 32 * 5);
  EXPECT_EQ(s.loads, 3u * 2 * 32 * 2);
  EXPECT_EQ(s.stores, 3u * 2 * 32);
  ASSERT_EQ(s.first.size(), 3u);
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], kBase);  // A[0]
  EXPECT_EQ(s.first[0].addr[31], kBase + 31 * 4);
}

TEST(SdkPorts, MergeSortComputesAndStreams) {
  expect_checks("sdk/mergesort", "{n: 8192}");
  expect_checks("sdk/mergesort", "{n: 3072, num_values: 16, seed: 4}");  // a last segment with no B half
  expect_checks("sdk/mergesort", "{n: 5120, num_values: 100000, seed: 9}");
  expect_deterministic("sdk/mergesort", "{n: 4096, num_values: 64}");
  {
    // N = 1024: no merge stage; one CTA of 16 warps: 4 loads, 10 steps of 2 barriers, a barrier, 4 stores.
    const auto s = pull_all(*make_port("sdk/mergesort", "{n: 1024}"));
    EXPECT_EQ(s.kernels, 1u);
    EXPECT_EQ(s.insts, 16u * 29);
    EXPECT_EQ(s.loads, 16u * 4);
    EXPECT_EQ(s.stores, 16u * 4);
    ASSERT_EQ(s.first.size(), 1u);
    const uint64_t src_key = kBase + 4 * 4096;  // after DstKey, DstVal, BufKey, BufVal
    EXPECT_EQ(s.first[0].addr[0], src_key);
    EXPECT_EQ(s.first[0].addr[31], src_key + 31 * 4);
  }
  {
    // N = 2048: one stage: sample ranks, limits for A and B, then 16 interval CTAs.
    const auto s = pull_all(*make_port("sdk/mergesort", "{n: 2048}"));
    ASSERT_EQ(s.kernels, 5u);
    EXPECT_EQ(s.kernel_names[1], "generateSampleRanksKernel<1>");
    EXPECT_EQ(s.kernel_names[4], "mergeElementaryIntervalsKernel<1>");
    EXPECT_EQ(s.ctas, 2u + 1 + 1 + 1 + 16);
    // The sample-rank kernel: lanes 0..7 of warp 0 (8 samples in A) store RanksA[i] = 128 i first.
    EXPECT_EQ(s.first[1].kind, MemKind::Store);
    EXPECT_EQ(s.first[1].active_mask, 0xffu);
    EXPECT_EQ(s.first[1].addr[7], kBase + 6 * 8192 + 7 * 4);  // d_RanksA after the six 8 KB arrays
  }
}

TEST(SdkPorts, BinomialOptionsComputesAndStreams) {
  expect_checks("sdk/binomialoptions", "{options: 3, steps: 512}");
  expect_checks("sdk/binomialoptions", "{options: 2, seed: 7}");  // NUM_STEPS = 2048
  expect_deterministic("sdk/binomialoptions", "{options: 3, steps: 256}");
  // 2 options, 128 steps: 2 CTAs of 4 warps, 2 barriers a step; thread 0 stores the price at the end.
  const auto s = pull_all(*make_port("sdk/binomialoptions", "{options: 2, steps: 128}"));
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.ctas, 2u);
  EXPECT_EQ(s.insts, 2u * (4 * 2 * 128 + 1));
  EXPECT_EQ(s.barriers, 2u * 4 * 2 * 128);
  EXPECT_EQ(s.stores, 2u);
  EXPECT_EQ(s.first[0].kind, MemKind::Barrier);
  uint64_t store_addr = 0;
  pull_all(*make_port("sdk/binomialoptions", "{options: 2, steps: 128}"),
           [&](uint64_t, const std::string&, const WarpInst& i) {
             if (i.kind == MemKind::Store && i.active_mask == 1u)
               store_addr = std::max(store_addr, i.addr[0]);
           });
  EXPECT_EQ(store_addr, kBase + 4);  // d_CallValue[1]
}

TEST(SdkPorts, FastWalshComputesAndStreams) {
  expect_checks("sdk/fastwalsh", "{log2_data: 15}");                  // two global passes, odd elementary
  expect_checks("sdk/fastwalsh", "{log2_data: 14, log2_kernel: 5}");  // one pass, 2^12 blocks -> 2^10
  expect_checks("sdk/fastwalsh", "{log2_data: 11, seed: 3}");         // elementary only
  expect_deterministic("sdk/fastwalsh", "{log2_data: 13}");
  // 2^10 elements: each FWT is one fwtBatch1Kernel CTA of 8 warps (4 loads, 5 radix-4 barriers, the last
  // barrier, 4 stores); modulateKernel: 128 CTAs of 8 warps, only the first 4 CTAs have elements (load,
  // load, store).
  const auto s = pull_all(*make_port("sdk/fastwalsh", "{log2_data: 10, log2_kernel: 3}"));
  ASSERT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.kernel_names[2], "modulateKernel");
  EXPECT_EQ(s.insts_per_kernel[0], 8u * 14);
  EXPECT_EQ(s.insts_per_kernel[2], 4u * 8 * 3);
  EXPECT_EQ(s.insts, 3u * 8 * 14 + 4 * 8 * 3);
  EXPECT_EQ(s.first[0].addr[0], kBase + 4096);  // d_Data after d_Kernel
  EXPECT_EQ(s.first[1].addr[0], kBase);
}

TEST(SdkPorts, HistogramComputesAndStreams) {
  expect_checks("sdk/histogram", "{bytes: 200000, calls: 1}");  // 13 partial 64-bin histograms
  expect_checks("sdk/histogram", "{bytes: 65536, calls: 2, seed: 5}");
  expect_deterministic("sdk/histogram", "{bytes: 40000, calls: 1}");
  // 16,128 bytes (64 threads x 252): one histogram64 CTA of 2 warps, 16 uint4 loads each (the second warp's
  // last one for 16 lanes), 2 barriers, a store; merge64: 64 CTAs of 8 warps, 8 barriers each, warp 0 of
  // each one load and one store; histogram256: 240 CTAs of 6 warps, the first 21 CTAs one load a warp,
  // 2 barriers each, 8 partial-histogram stores a CTA; merge256: 256 CTAs, 8 warps each one load and 8
  // barriers, one store.
  WarpInst first_load;
  bool seen = false;
  const auto s = pull_all(*make_port("sdk/histogram", "{bytes: 16128, calls: 1}"),
                          [&](uint64_t k, const std::string&, const WarpInst& i) {
                            if (k == 0 && i.kind == MemKind::Load && !seen) first_load = i, seen = true;
                          });
  ASSERT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.kernel_names[0], "histogram64Kernel");
  EXPECT_EQ(s.kernel_names[3], "mergeHistogram256Kernel");
  EXPECT_EQ(s.insts_per_kernel[0], 32u + 4 + 2);
  EXPECT_EQ(s.insts_per_kernel[1], 64u * (8 * 8 + 2));
  EXPECT_EQ(s.insts_per_kernel[2], 21u * 6 + 240 * 6 * 2 + 240 * 8);
  EXPECT_EQ(s.insts_per_kernel[3], 256u * (8 + 64 + 1));
  ASSERT_TRUE(seen);
  EXPECT_EQ(first_load.width, 16u);
  EXPECT_EQ(first_load.addr[0], kBase);
  EXPECT_EQ(first_load.addr[1], kBase + 16);
}

// The default inputs' stream sizes (a minute): --gtest_also_run_disabled_tests
// --gtest_filter='*SdkDefaultInputs*'.
TEST(SdkPorts, DISABLED_SdkDefaultInputs) {
  // The default inputs, then the small sizes proposed for the every-port system test.
  const std::pair<const char*, const char*> runs[] = {
      {"sdk/matrixmul", "{}"},
      {"sdk/mergesort", "{}"},
      {"sdk/binomialoptions", "{}"},
      {"sdk/fastwalsh", "{}"},
      {"sdk/histogram", "{}"},
      {"sdk/matrixmul", "{block: 16, wa: 32, ha: 32, wb: 32, launches: 1}"},
      {"sdk/mergesort", "{n: 3072}"},
      {"sdk/binomialoptions", "{options: 2, steps: 128}"},
      {"sdk/fastwalsh", "{log2_data: 13, log2_kernel: 3}"},
      {"sdk/histogram", "{bytes: 16128, calls: 1}"},
  };
  for (const auto& [name, size] : runs) {
    auto p = make_port(name, size);
    uint64_t compute = 0;  // the gaps: compute instructions before each memory instruction or barrier
    const auto s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) { compute += i.gap; });
    std::printf(
        "%-20s %-38s kernels %3llu  CTAs %6llu  warps %7llu  warp insts %9llu (loads %llu, stores %llu; "
        "with compute %llu)  check '%s'\n",
        name, size, (unsigned long long)s.kernels, (unsigned long long)s.ctas, (unsigned long long)s.warps,
        (unsigned long long)s.insts, (unsigned long long)s.loads, (unsigned long long)s.stores,
        (unsigned long long)(s.insts + compute), p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
