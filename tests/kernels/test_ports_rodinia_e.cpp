// Rodinia ports (group e): each runs functionally to the benchmark's result on a small input, emits an
// exactly known stream on a tiny one, and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_deterministic;
using test::make_port;
using test::pull_all;

// ---- dwt2d ----

TEST(RodiniaE, Dwt2dComputesTheBenchmarksResult) {
  // 200 x 136, 3 levels: windows of 64 at every level; several CTAs across and down, the bottom and right
  // versions, the top row's mirrored start.
  auto p = make_port("rodinia/dwt2d", "{width: 200, height: 136, levels: 3}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 1u + 3 * 3);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, Dwt2dWideLevels) {
  // 1000 x 64, 2 levels: a 192-wide window at level 1, 128 at level 2.
  auto p = make_port("rodinia/dwt2d", "{width: 1000, height: 64, levels: 2}");
  p->run_functionally();
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, Dwt2dStreamOnATinyImage) {
  // 64 x 64, 1 level. c_CopySrcToComponents: 16 CTAs of 8 warps; warps 0-5 load 4-byte words (192
  // threads), every warp meets the barrier and stores 3 components: 16 * (6 + 8 * 4). fdwt53Kernel<64, 8>:
  // steps = 1, a 1 x 8 grid of 2-warp CTAs (checked writes in all: 65 >= 64 at the right edge; checked
  // loads in the last): per warp 3 + 8 loads, 4 barriers, 8 stores; warp 0 also 3 + 8 for its boundary
  // columns.
  auto p = make_port("rodinia/dwt2d", "{width: 64, height: 64, levels: 1}");
  const test::StreamSummary s = pull_all(*p);
  ASSERT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.kernel_names[0], "c_CopySrcToComponents");
  EXPECT_EQ(s.kernel_names[1], "fdwt53Kernel");
  EXPECT_EQ(s.insts_per_kernel[0], 16u * (6 + 8 * 4));
  EXPECT_EQ(s.insts_per_kernel[1], 8u * (2 * (11 + 4 + 8) + 11));
  const WarpInst& f = s.first[0];  // d_src words 0..31, after 7 component buffers of 16 KiB
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.pc, 0x10u);
  EXPECT_EQ(f.active_mask, 0xffffffffu);
  EXPECT_EQ(f.addr[0], DeviceMemory::kDefaultBase + 7 * 16384);
  EXPECT_EQ(f.addr[31], DeviceMemory::kDefaultBase + 7 * 16384 + 4 * 31);
  const WarpInst& g = s.first[1];  // fdwt: CTA (0, 0) top row: row 0 of columns 0..31 of c_r
  EXPECT_EQ(g.kind, MemKind::Load);
  EXPECT_EQ(g.addr[0], DeviceMemory::kDefaultBase + 4 * 16384);
  EXPECT_EQ(g.addr[31], DeviceMemory::kDefaultBase + 4 * 16384 + 4 * 31);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, Dwt2dIsDeterministic) {
  expect_deterministic("rodinia/dwt2d", "{width: 128, height: 96, levels: 2}");
}

// ---- myocyte ----

TEST(RodiniaE, MyocyteComputesTheBenchmarksResult) {
  auto p = make_port("rodinia/myocyte", "{xmax: 2}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 2u * 3 * 13);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, MyocyteStreamOfOneStep) {
  // 1 step, 1 attempt: 13 launches of 2 CTAs x 1 warp. CTA 0: kernel_ecc's 100 accesses (the parameter,
  // 39 state values, 46 rate stores, 14 rates read back); CTA 1: 3 x (the calcium value, 6 parameters, 15
  // state values, 15 rates, the flux). Every access is lane 0's alone.
  auto p = make_port("rodinia/myocyte", "{xmax: 1, attempts: 1}");
  uint64_t loads = 0, stores = 0;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
    EXPECT_EQ(i.active_mask, 1u);
    ++(i.kind == MemKind::Load ? loads : stores);
  });
  ASSERT_EQ(s.kernels, 13u);
  for (uint64_t n : s.insts_per_kernel) EXPECT_EQ(n, 100u + 3 * 38);
  EXPECT_EQ(loads, 13u * (54 + 3 * 22));
  EXPECT_EQ(stores, 13u * (46 + 3 * 16));
  const WarpInst& f = s.first[0];  // d_params[15]: d_initvalu and d_finavalu (364 B each) before it
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.pc, 0x10u);
  EXPECT_EQ(f.addr[0], DeviceMemory::kDefaultBase + 2 * 512 + 4 * 15);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, MyocyteIsDeterministic) {
  expect_deterministic("rodinia/myocyte", "{xmax: 2, attempts: 2}");
}

// ---- heartwall ----

TEST(RodiniaE, HeartwallFrameZeroCopiesTheTemplates) {
  auto p = make_port("rodinia/heartwall", "{frames: 1}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 1u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, HeartwallTracksAFrame) {
  auto p = make_port("rodinia/heartwall", "{frames: 2, points: 3}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 2u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, HeartwallSmallWindowsThroughATemplateUpdate) {
  // 11 x 11 templates, 21 x 21 windows: frame 10 updates the positions and templates, frame 11 tracks from
  // them.
  auto p = make_port("rodinia/heartwall", "{frames: 12, points: 4, s_size: 10, t_size: 5}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 12u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, HeartwallStreamOfFrameZero) {
  // Frame 0, one point: thread 0's two loads and stores, then the 51 x 51 template copy, 2601 elements over
  // 256 threads (10 full rounds and 41 elements): per element a row, a column, a frame load and a store;
  // warps 0 and 1 have an 11th round (lanes up to 40), the others 10.
  auto p = make_port("rodinia/heartwall", "{frames: 1, points: 1}");
  const test::StreamSummary s = pull_all(*p);
  ASSERT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.insts_per_kernel[0], 4u + 4 * (8 * 10 + 2));
  const WarpInst& f =
      s.first[0];  // d_endoRow[0], after the frame (609 x 590 floats, 1437240 B, 256 B aligned)
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.active_mask, 1u);
  EXPECT_EQ(f.addr[0], DeviceMemory::kDefaultBase + 1437440);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, HeartwallIsDeterministic) {
  expect_deterministic("rodinia/heartwall", "{frames: 2, points: 1}");
}

// ---- leukocyte ----

TEST(RodiniaE, LeukocyteComputesTheBenchmarksResult) {
  // A narrow frame with 3 discs: GICOV, dilation, then 2 IMGVF launches (one CTA per detected cell).
  auto p = make_port("rodinia/leukocyte", "{width: 272, frames: 2, discs: 3}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 4u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, LeukocyteSmallBand) {
  // A 96-row band (52 GICOV threads), 112 columns, 2 discs: GICOV, dilation and one IMGVF launch.
  auto p = make_port("rodinia/leukocyte", "{width: 112, band: 96, frames: 1, discs: 2}");
  const test::StreamSummary s = pull_all(*p);
  ASSERT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.kernel_names[2], "IMGVF_kernel");
  EXPECT_GE(s.ctas, 68u + 61 + 1);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, LeukocyteGicovStream) {
  // No discs, no tracking: GICOV_kernel on a 160-wide band (116 CTAs of 175 threads: 6 warps, the last of
  // 15 lanes), 7 circles x 150 points x 2 gradient loads and the store per warp; then dilate_kernel.
  auto p = make_port("rodinia/leukocyte", "{width: 160, frames: 0, discs: 0}");
  const test::StreamSummary s = pull_all(*p);
  ASSERT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.kernel_names[0], "GICOV_kernel");
  EXPECT_EQ(s.insts_per_kernel[0], 116u * 6 * (7 * 150 * 2 + 1));
  const WarpInst& f = s.first[0];  // grad_x at column 22 + 8 (the first circle point), rows 22..53
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.active_mask, 0xffffffffu);
  EXPECT_EQ(f.addr[0], DeviceMemory::kDefaultBase + 4 * (30 * 219 + 22));
  EXPECT_EQ(f.addr[31], DeviceMemory::kDefaultBase + 4 * (30 * 219 + 22 + 31));
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaE, LeukocyteIsDeterministic) {
  expect_deterministic("rodinia/leukocyte", "{width: 160, frames: 1, discs: 2}");
}

// The default inputs' streams (slow; run with --gtest_also_run_disabled_tests to print the counts).
TEST(RodiniaE, DISABLED_DefaultInputCounts) {
  for (const char* name : {"rodinia/dwt2d", "rodinia/myocyte", "rodinia/heartwall", "rodinia/leukocyte"}) {
    auto p = make_port(name);
    uint64_t mem = 0;
    const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
      mem += i.kind == MemKind::Load || i.kind == MemKind::Store;
    });
    std::printf("%s: %llu kernels, %llu warp instructions (%llu loads/stores), check '%s'\n", name,
                (unsigned long long)s.kernels, (unsigned long long)s.insts, (unsigned long long)mem,
                p->check().c_str());
    if (s.kernels <= 10)
      for (uint64_t k = 0; k < s.kernels; ++k)
        std::printf("  %s: %llu\n", s.kernel_names[k].c_str(), (unsigned long long)s.insts_per_kernel[k]);
    std::printf("  CTAs: %llu\n", (unsigned long long)s.ctas);
  }
}

}  // namespace
}  // namespace gms::kernels
