// Rodinia ports (group d): each runs functionally to the benchmark's result on a small input, emits an
// exactly known stream on a tiny one, and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_all;

void expect_deterministic(const std::string& name, const std::string& size) {
  auto a = make_port(name, size), b = make_port(name, size);
  const test::StreamSummary sa = pull_all(*a), sb = pull_all(*b);
  EXPECT_EQ(sa.kernels, sb.kernels);
  EXPECT_EQ(sa.insts, sb.insts);
  EXPECT_EQ(sa.hash, sb.hash);
  EXPECT_EQ(a->check(), "");  // the simulated pull computes the result too
}

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

// The default inputs' streams (slow; run with --gtest_also_run_disabled_tests to print the counts).
TEST(RodiniaD, DISABLED_DefaultInputCounts) {
  for (const char* name : {"rodinia/srad_v1"}) {
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
