// Rodinia ports (group d): each runs functionally to the benchmark's result on a small input, emits an
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

// ---- srad_v1 ----

TEST(RodiniaD, SradV1ComputesTheBenchmarksResult) {
  // 3 blocks of 512: the first reduce has a partial last block with a remainder, the second one block.
  auto p = make_port("rodinia/srad_v1", "{rows: 50, cols: 27, iterations: 3}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 1u + 3 * 5 + 1);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaD, SradV1StreamOnATinyImage) {
  // 16 x 40 = 640 elements: 2 blocks of 512 threads, 20 warps with elements. extract, compress: a load and
  // a store per warp; prepare 2 + 2; srad 9 loads + 5 stores; srad2 10 loads + 1 store. reduce over 640
  // sums: block 0 full (2 loads in every warp, 10 barriers, the last thread's 2 stores), block 1 partial
  // (nf = 128 = df: loads in its first 4 warps, 1 + 7 barriers, 2 stores, no remainder); then reduce over the
  // 2 block sums (nf = df = 2: warp 0's 2 loads, 1 + 1 barriers, 2 stores).
  auto p = make_port("rodinia/srad_v1", "{rows: 16, cols: 40, iterations: 1}");
  const test::StreamSummary s = pull_all(*p);
  ASSERT_EQ(s.kernels, 7u);
  EXPECT_EQ(s.kernel_names[0], "extract");
  EXPECT_EQ(s.kernel_names[2], "reduce");
  EXPECT_EQ(s.kernel_names[3], "reduce");
  EXPECT_EQ(s.kernel_names[6], "compress");
  const std::vector<uint64_t> expected = {40,  80, 16 * 12 + 2 + 4 * 2 + 16 * 8 + 2, 2 + 16 * 2 + 2, 280,
                                          220, 40};
  EXPECT_EQ(s.insts_per_kernel, expected);
  const WarpInst& f = s.first[0];  // extract: d_I[0..31]
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.pc, 0x10u);
  EXPECT_EQ(f.active_mask, 0xffffffffu);
  EXPECT_EQ(f.addr[0], DeviceMemory::kDefaultBase);
  EXPECT_EQ(f.addr[31], DeviceMemory::kDefaultBase + 4 * 31);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaD, SradV1ReduceRemainder) {
  // 20 x 30 = 600 elements: the first reduce's last block has nf = 88, df = 64; thread 63 adds the 24
  // remaining sums one by one from d_sums[512 + 64 ...] (a single lane).
  auto p = make_port("rodinia/srad_v1", "{rows: 20, cols: 30, iterations: 1}");
  std::map<uint32_t, uint64_t> per_pc;
  uint64_t sums = 0;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
    ++per_pc[i.pc];
    if (i.pc == 0x250) {
      EXPECT_EQ(i.active_mask, 1u << 31);
      if (sums == 0) sums = i.addr[31];
      EXPECT_EQ(i.addr[31], sums + 4 * (per_pc[0x250] - 1));
    }
  });
  EXPECT_EQ(s.kernels, 7u);
  EXPECT_EQ(per_pc[0x250], 24u);
  EXPECT_EQ(per_pc[0x260], 24u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaD, SradV1IsDeterministic) {
  expect_deterministic("rodinia/srad_v1", "{rows: 40, cols: 30, iterations: 2}");
}

// ---- particlefilter ----

TEST(RodiniaD, ParticlefilterComputesTheBenchmarksResult) {
  // 1500 particles: 3 blocks (normalize's CDF reads the other blocks' weights), 4 frames.
  auto p = make_port("rodinia/particlefilter", "{x: 64, y: 64, frames: 4, particles: 1500}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 3u * 4);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaD, ParticlefilterStreamOnATinyInput) {
  // 40 particles, 2 frames: one frame's 4 launches of one 512-thread block; warps 0 and 1 hold particles (32
  // and 8). The disk has 69 pixels. likelihood: per particle warp 13 accesses before the barrier, 69 x 5
  // for the offsets, 69 x 2 for the pixels, likelihood and weight (3), the weight into shared memory, 11
  // more barriers and block 0's partial sum (warp 0); the 14 empty warps meet the 13 barriers. sum: thread
  // 0's load and store. normalize: warp 0 loads the block sum, divides, builds the CDF (weights[0], 36
  // unrolled steps of 2, 3 remainder steps of 3), the seed and u[0] (3), reloads u[0], stores u; warp 1 2 +
  // 1; 4 barriers in every warp.
  auto p = make_port("rodinia/particlefilter", "{x: 16, y: 16, frames: 2, particles: 40}");
  std::map<uint32_t, uint64_t> per_pc;
  const test::StreamSummary s =
      pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) { ++per_pc[i.pc]; });
  ASSERT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.kernel_names[0], "likelihood_kernel");
  EXPECT_EQ(s.kernel_names[3], "find_index_kernel");
  EXPECT_EQ(s.insts_per_kernel[0], 2u * (30 + 7 * 69) + 1 + 14u * 13);
  EXPECT_EQ(s.insts_per_kernel[1], 2u);
  EXPECT_EQ(s.insts_per_kernel[2], (1 + 2 + 2 + 72 + 9 + 3 + 1 + 1) + (2 + 1) + 16u * 4);
  // find_index: u[i], the two gathers and stores and the barrier per particle warp, a CDF load per scan
  // step, the barrier in the other 14 warps.
  EXPECT_EQ(per_pc[0x410], 2u);
  EXPECT_EQ(per_pc[0x460], 2u);
  EXPECT_EQ(s.insts_per_kernel[3], 2u * 6 + per_pc[0x420] + 14);
  EXPECT_GE(per_pc[0x420], 2u);
  const WarpInst& f = s.first[0];  // likelihood: xj[0..31] (arrayX and arrayY of 320 B before it)
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.pc, 0x10u);
  EXPECT_EQ(f.active_mask, 0xffffffffu);
  EXPECT_EQ(f.addr[0], DeviceMemory::kDefaultBase + 1024);
  EXPECT_EQ(f.addr[31], DeviceMemory::kDefaultBase + 1024 + 8 * 31);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaD, ParticlefilterIsDeterministic) {
  expect_deterministic("rodinia/particlefilter", "{x: 32, y: 32, frames: 3, particles: 700}");
}

// The default inputs' streams (slow; run with --gtest_also_run_disabled_tests to print the counts).
TEST(RodiniaD, DISABLED_DefaultInputCounts) {
  for (const char* name : {"rodinia/srad_v1", "rodinia/particlefilter"}) {
    auto p = make_port(name);
    uint64_t mem = 0;
    const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
      mem += i.kind == MemKind::Load || i.kind == MemKind::Store;
    });
    std::printf("%s: %llu kernels, %llu warp instructions (%llu loads/stores), check '%s'\n", name,
                (unsigned long long)s.kernels, (unsigned long long)s.insts, (unsigned long long)mem,
                p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
