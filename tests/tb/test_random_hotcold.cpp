// random and hotcold against their definitions (docs/workloads.md).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

const char* kRandom =
    "pattern: random\ngrid: 4\nblock: 128\ninsts_per_warp: 32\nwidth: 8\nfootprint: 65536\n"
    "store_fraction: 0.25\nbase: 0x200000";

std::vector<uint64_t> load_addresses(const std::vector<GeneratedInst>& insts) {
  std::vector<uint64_t> out;
  for (const auto& g : insts)
    if (g.inst.kind == MemKind::Load)
      for (unsigned l = 0; l < kWarpSize; ++l) out.push_back(g.inst.addr[l]);
  return out;
}

TEST(TbRandom, StaysInFootprintAlignedAndUniform) {
  const auto insts = generate_first_kernel(one_kernel(kRandom));
  const auto addrs = load_addresses(insts);
  ASSERT_EQ(addrs.size(), 16u * 24 * 32);  // 16 warps x 24 loads x 32 lanes
  std::map<uint64_t, int> per_quarter;
  for (uint64_t a : addrs) {
    ASSERT_GE(a, 0x200000u);
    ASSERT_LE(a + 8, 0x200000u + 65536);
    ASSERT_EQ(a % 8, 0u);
    ++per_quarter[(a - 0x200000) / 16384];
  }
  // 12288 samples over 4 quarters: 3072 expected each, sd ~48; 6 sd bounds.
  ASSERT_EQ(per_quarter.size(), 4u);
  for (const auto& [q, n] : per_quarter) EXPECT_NEAR(n, 3072, 290) << "quarter " << q;
}

TEST(TbRandom, ReproducibleForASeedDifferentForAnother) {
  const auto a = load_addresses(generate_first_kernel(one_kernel(kRandom, 5)));
  const auto b = load_addresses(generate_first_kernel(one_kernel(kRandom, 5)));
  const auto c = load_addresses(generate_first_kernel(one_kernel(kRandom, 6)));
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), c.size());
  size_t same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i] == c[i];
  EXPECT_LT(same, a.size() / 100);  // 8192 elements: a chance match is 1 in 8192
}

TEST(TbRandom, WarpStreamDependsOnlyOnSeedKernelAndWarp) {
  auto wl = load_text(one_kernel(kRandom, 9));
  const auto in_order = generate(*wl->next_kernel());
  const auto& spec = wl->kernels()[0];
  // Pull warp 13's stream alone, before any other: same instructions as in dispatch order.
  SyntheticWarpStream alone(spec, 9, 0, 13);
  WarpInst inst;
  size_t n = 0;
  for (const auto& g : in_order) {
    if (g.warp_uid != 13) continue;
    ASSERT_TRUE(alone.next(inst));
    EXPECT_EQ(inst.addr, g.inst.addr);
    ++n;
  }
  EXPECT_EQ(n, 32u);
  EXPECT_FALSE(alone.next(inst));
  // Another kernel index gives another stream.
  SyntheticWarpStream other_kernel(spec, 9, 1, 13);
  ASSERT_TRUE(other_kernel.next(inst));
  EXPECT_NE(inst.addr, in_order[13 * 32].inst.addr);
}

// 20 CTAs x 8 warps x 200 loads = 32000 loads, 30% to 16 hot lines.
TEST(TbHotCold, HitsExactlyTheHotSetWithTheConfiguredShare) {
  auto wl =
      load_text(one_kernel("pattern: hotcold\ngrid: 20\nblock: 256\ninsts_per_warp: 200\nwidth: "
                           "4\nhot_lines: 16\nhot_fraction: 0.3\n"
                           "base: 0x40000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t W = 160, hot_end = 0x40000 + 16 * 128;
  EXPECT_EQ(spec.pattern->load_region_bytes(), (16 + 200 * W) * 128);
  const auto insts = generate(*wl->next_kernel());
  ASSERT_EQ(insts.size(), W * 200);
  std::map<uint64_t, int> hot_hits;
  std::set<uint64_t> cold_lines;
  std::map<uint64_t, uint64_t> cold_seen;  // warp -> cold loads so far
  uint64_t hot = 0;
  for (const auto& g : insts) {
    const uint64_t line = line_of(g.inst.addr[0]);
    for (unsigned l = 0; l < kWarpSize; ++l) ASSERT_EQ(g.inst.addr[l], line + l * 4);  // one whole line
    if (line < hot_end) {
      ASSERT_GE(line, 0x40000u);
      EXPECT_EQ(g.inst.pc, kLoadPc);
      ++hot_hits[line];
      ++hot;
    } else {
      EXPECT_EQ(g.inst.pc, kSecondLoadPc);
      const uint64_t c = cold_seen[g.warp_uid]++;
      EXPECT_EQ(line, hot_end + (c * W + g.warp_uid) * 128);  // the warp's next streaming line
      EXPECT_TRUE(cold_lines.insert(line).second) << "cold line reused";
    }
  }
  EXPECT_EQ(hot_hits.size(), 16u);
  // sd of the share = sqrt(0.3 * 0.7 / 32000) = 0.0026.
  EXPECT_NEAR(double(hot) / double(insts.size()), 0.3, 0.011);
  for (const auto& [line, n] : hot_hits) EXPECT_NEAR(n, hot / 16.0, 150) << "hot line " << line;
}

TEST(TbHotCold, FootprintWrapsTheColdLines) {
  const auto insts =
      generate_first_kernel(one_kernel("pattern: hotcold\ngrid: 2\nblock: 64\ninsts_per_warp: 50\nhot_lines: "
                                       "2\nhot_fraction: 0\nfootprint: 1024"));
  std::set<uint64_t> lines;
  for (const auto& g : insts) lines.insert(g.inst.addr[0]);
  ASSERT_EQ(lines.size(), 8u);  // 1024 B = 8 cold lines after the 2 hot ones, none hot at fraction 0
  EXPECT_EQ(*lines.begin(), 256u);
  EXPECT_EQ(*lines.rbegin(), 256u + 7 * 128);
}

}  // namespace
}  // namespace gms::test
