// The Parboil ports built on global atomics (histo, ...): each computes its benchmark's result (checked
// against a sequential reference), emits a stream whose shape is computed by hand on a tiny input, and
// emits the same stream twice.
#include <gtest/gtest.h>

#include <map>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_checks;
using test::expect_deterministic;
using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

// ---- histo ----

// Instructions of histo_main_kernel by PC, and its CTAs.
struct MainCounts {
  std::map<uint32_t, uint64_t> by_pc;
  uint64_t ctas = 0;
  std::string check;
};
MainCounts histo_main_counts(const std::string& size) {
  auto p = make_port("parboil/histo", size);
  MainCounts c;
  pull_all(*p, [&](uint64_t k, const std::string&, const WarpInst& i) {
    if (k == 2) ++c.by_pc[i.pc];
  });
  c.check = p->check();
  return c;
}

TEST(ParboilAtomicPorts, HistoComputes) {
  // 512 x 512 pixels: the prescan's threads each sample one pixel, so the range is narrow.
  expect_checks("parboil/histo",
                "{img_width: 512, img_height: 512, histo_width: 256, histo_height: 1024, "
                "iterations: 2}");
  {
    // Wider spread (two samples a prescan thread) and 1 % outliers: a range of several blocks, and
    // pixels outside it counted by the global 16-bit counters (a load, then an atomicAdd).
    const auto c = histo_main_counts(
        "{img_width: 1024, img_height: 512, histo_width: 256, histo_height: 1024, "
        "sigma_row: 30, sigma_col: 60, outliers: 1000, seed: 3, iterations: 1}");
    EXPECT_EQ(c.check, "");
    EXPECT_GT(c.by_pc.count(0x60) ? c.by_pc.at(0x60) : 0, 0u);
    EXPECT_GT(c.by_pc.count(0x70) ? c.by_pc.at(0x70) : 0, 0u);
    EXPECT_GT(c.by_pc.at(0x80), 14u * 24 * 8);  // copies of more than one range row
  }
  {
    // Every pixel in one bin (offset 0 in its word): its byte wraps in every sub-histogram (atomics on
    // global_overflow for the bin and the carry into bin + 1), the saturated count is 255, the neighbours 0.
    const auto c = histo_main_counts(
        "{img_width: 512, img_height: 512, histo_width: 256, histo_height: 1024, "
        "sigma_row: 0, sigma_col: 0, outliers: 0, iterations: 1}");
    EXPECT_EQ(c.check, "");
    EXPECT_GT(c.by_pc.count(0x20) ? c.by_pc.at(0x20) : 0, 0u);  // overflow of the bin
    EXPECT_GT(c.by_pc.count(0x30) ? c.by_pc.at(0x30) : 0, 0u);  // carry into bin + 1
    EXPECT_EQ(c.by_pc.count(0x60), 0u);                         // nothing outside the range
  }
  // A tight peak: many bins over 255 next to each other.
  expect_checks("parboil/histo",
                "{img_width: 512, img_height: 512, histo_width: 256, histo_height: 1024, "
                "sigma_row: 1, sigma_col: 2, outliers: 20, iterations: 1}");
  // util.h's KB = 16: 512 threads and 16 Ki-bin blocks in histo_main.
  expect_checks("parboil/histo",
                "{kb: 16, img_width: 1024, img_height: 512, histo_width: 256, "
                "histo_height: 1024, sigma_row: 30, sigma_col: 60, outliers: 1000, iterations: 1}");
  // Odd width: the last thread of intermediates skips its second pixel; padded input rows.
  expect_checks("parboil/histo",
                "{img_width: 301, img_height: 48, histo_width: 128, histo_height: 256, "
                "iterations: 1}");
}

TEST(ParboilAtomicPorts, HistoStreams) {
  expect_deterministic("parboil/histo",
                       "{img_width: 512, img_height: 512, histo_width: 256, histo_height: 1024, "
                       "sigma_row: 40, sigma_col: 30, outliers: 2000}");
  // 64 x 16 pixels, a 64 x 512 histogram (32 Ki bins), one iteration. Prescan: stride 16, each CTA samples
  // 2 pixels (lanes 0 and 1 of warp 0: a load per pass); the other threads count nothing, so the mean is
  // NaN and the range [0, 0]. Per CTA: warp 0 loads twice, 4 barriers, atomicMin and atomicMax; 15 warps
  // 4 barriers: 64 x (8 + 60). Intermediates: one CTA of one warp, 16 rows x (load, store, store).
  // Main: 14 x 1 CTAs of 24 warps, each clears, 2 barriers, copies 8 words a thread; the 1024 pixels are
  // read by CTA 0's 24 warps and CTA 1's first 8, all in range 0 (no global counters). Final: 42 x 16 warps;
  // the middle region (6144 words) is the first 12 CTAs, one pass each (load, zero, 14 loads, store); the
  // upper one (8192 - 6144 words) the first 64 warps (load, zero, store).
  auto p = make_port("parboil/histo",
                     "{img_width: 64, img_height: 16, histo_width: 64, histo_height: 512, "
                     "sigma_row: 4, outliers: 0, iterations: 1}");
  const auto s = pull_all(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.kernel_names[0], "histo_prescan_kernel");
  EXPECT_EQ(s.kernel_names[3], "histo_final_kernel");
  EXPECT_EQ(s.insts_per_kernel[0], 64u * (8 + 60));
  EXPECT_EQ(s.insts_per_kernel[1], 16u * 3);
  EXPECT_EQ(s.insts_per_kernel[2], 14u * 24 * (2 + 8) + 32);
  EXPECT_EQ(s.insts_per_kernel[3], 12u * 16 * 17 + 64 * 3);
  EXPECT_EQ(s.atomics, 2u * 64);
  ASSERT_EQ(s.first.size(), 4u);
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  EXPECT_EQ(s.first[0].active_mask, 0x3u);
  EXPECT_EQ(s.first[0].addr[0], kBase);  // input[0]
  EXPECT_EQ(s.first[0].addr[1], kBase + 4);
  EXPECT_EQ(s.first[1].addr[1], kBase + 8);  // input as uint2
  EXPECT_EQ(s.first[1].active_mask, 0xffffffffu);
}

// ---- mri-gridding ----

TEST(ParboilAtomicPorts, MriGriddingComputes) {
  expect_checks("parboil/mri-gridding", "{grid: 16, samples: 3000}");
  {
    // A small binsize: crowded cells spill into the CPU bin (atomicAdd then atomicSub); 4 sort digits (24^3 +
    // 1 keys).
    auto p = make_port("parboil/mri-gridding", "{grid: 24, samples: 20000, binsize: 4, seed: 5}");
    uint64_t subs = 0;
    const auto s = pull_all(*p, [&](uint64_t k, const std::string&, const WarpInst& i) {
      subs += k == 0 && i.pc == 0x60 && i.kind == MemKind::Atomic;
    });
    EXPECT_EQ(p->check(), "");
    EXPECT_GT(subs, 0u);
    EXPECT_EQ(s.kernels, 1u + 4 * 6 + 1 + 4 + 1);
  }
  // Samples not a multiple of 4 or 64: the sort's padded last uint4, the structure of arrays' padding.
  expect_checks("parboil/mri-gridding", "{grid: 8, samples: 1027, binsize: 8}");
}

TEST(ParboilAtomicPorts, MriGriddingStreams) {
  expect_deterministic("parboil/mri-gridding", "{grid: 16, samples: 3000, binsize: 8}");
  // One sample on an 8^3 grid (513 keys: 3 digits). binning: one CTA of 16 warps, lane 0 of warp 0 loads
  // kZ, kY, kX and the cell's count, adds to it atomically, stores key and value. Each sort digit:
  // splitSort (8 warps: 89 barriers each; warp 0 loads a key and a value uint4, stores 4 keys, 4 values,
  // and the 16 digit counts), scanLargeArray of 16 counts (4 kernels), splitRearrange; then reorder, the
  // scan of the 513 cell counts (4 kernels) and gridding_GPU (2 CTAs of 2 warps; 56 cell rows each, two
  // loads of binStartAddr per row and warp; 8 stores per warp).
  auto p = make_port("parboil/mri-gridding", "{grid: 8, samples: 1}");
  const auto s = pull_all(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels, 1u + 3 * 6 + 1 + 4 + 1);
  EXPECT_EQ(s.kernel_names[0], "binning_kernel");
  EXPECT_EQ(s.kernel_names[1], "splitSort");
  EXPECT_EQ(s.kernel_names[6], "splitRearrange");
  EXPECT_EQ(s.kernel_names.back(), "gridding_GPU");
  EXPECT_EQ(s.insts_per_kernel[0], 7u);
  EXPECT_EQ(s.insts_per_kernel[1], 8u * 89 + 2 + 8 + 1);
  ASSERT_FALSE(s.first.empty());
  // sortedSample_d (64 x 24 B), binStartAddr_d (513 x 4 B, to 3840), then sample_d: kZ of sample 0.
  EXPECT_EQ(s.first[0].active_mask, 0x1u);
  EXPECT_EQ(s.first[0].addr[0], kBase + 3840 + 16);
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  uint64_t grid_row_loads = 0, grid_stores = 0;
  pull_all(*make_port("parboil/mri-gridding", "{grid: 8, samples: 1}"),
           [&](uint64_t k, const std::string&, const WarpInst& i) {
             if (k + 1 != s.kernels) return;
             grid_row_loads += i.pc == 0x10;
             grid_stores += i.kind == MemKind::Store;
           });
  EXPECT_EQ(grid_row_loads, 2u * 2 * 56);
  EXPECT_EQ(grid_stores, 4u * 8);
}

}  // namespace
}  // namespace gms::kernels
