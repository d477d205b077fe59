// streaming and strided against their definitions (docs/workloads.md).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

class TbStreaming : public testing::TestWithParam<unsigned> {};

// 3 CTAs of 100 threads: 4 warps each, the last with 4 lanes; W = 12 warps; 6 loads + 2 stores per warp.
TEST_P(TbStreaming, ExactAddressesFullyCoalescedNoReuse) {
  const unsigned width = GetParam();
  auto wl = load_text(one_kernel("pattern: streaming\ngrid: 3\nblock: 100\ninsts_per_warp: 8\nwidth: " +
                                 std::to_string(width) + "\nstore_fraction: 0.25\ngap: 5\nbase: 0x1000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t W = 12, base = 0x1000;
  const uint64_t out_base = base + (6 * W * 32 * width + 127) / 128 * 128;
  EXPECT_EQ(spec.out_base, out_base);
  EXPECT_EQ(spec.pattern->load_region_bytes(), 6 * W * 32 * width);
  EXPECT_EQ(spec.pattern->store_region_bytes(), 2 * W * 32 * width);

  auto k = wl->next_kernel();
  const auto insts = generate(*k);
  ASSERT_EQ(insts.size(), W * 8);
  std::set<uint64_t> load_bytes, store_bytes;
  std::map<uint64_t, int> line_users;  // line -> instructions touching it
  for (const auto& g : insts) {
    const WarpInst& i = g.inst;
    const bool store = g.index == 3 || g.index == 7;
    ASSERT_EQ(i.kind, store ? MemKind::Store : MemKind::Load);
    EXPECT_EQ(i.pc, store ? kStorePc : kLoadPc);
    EXPECT_EQ(i.width, width);
    EXPECT_EQ(i.gap, 5u);
    const uint32_t mask = g.warp_uid % 4 == 3 ? 0xfu : 0xffffffffu;
    ASSERT_EQ(i.active_mask, mask);
    const uint64_t n = store ? (g.index == 3 ? 0 : 1) : g.index - (g.index > 3);
    std::set<uint64_t> lines;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!lane_active(i, l)) {
        EXPECT_EQ(i.addr[l], 0u);
        continue;
      }
      ASSERT_EQ(i.addr[l], (store ? out_base : base) + ((n * W + g.warp_uid) * 32 + l) * width);
      for (unsigned b = 0; b < width; ++b)
        EXPECT_TRUE((store ? store_bytes : load_bytes).insert(i.addr[l] + b).second) << "byte reused";
      lines.insert(line_of(i.addr[l]));
    }
    // Fully coalesced: the active lanes fill the fewest lines possible.
    const unsigned active = __builtin_popcount(mask);
    EXPECT_EQ(lines.size(), (active * width + 127) / 128);
    for (uint64_t line : lines) ++line_users[line];
  }
  EXPECT_EQ(load_bytes.size(), W * 6 * 32 * width - 3 * 6 * 28 * width);  // 3 partial warps x 6 loads
  if (width >= 4) {
    for (const auto& [line, users] : line_users) EXPECT_EQ(users, 1) << "line " << line << " reused";
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, TbStreaming, testing::Values(1u, 2u, 4u, 8u, 16u));

TEST(TbStrided, ExactAddressesAndUncoalesced) {
  auto insts = generate_first_kernel(one_kernel(
      "pattern: strided\ngrid: 2\nblock: 64\ninsts_per_warp: 4\nwidth: 4\nstride: 64\nstore_fraction: 0.5\n"
      "base: 0x80000\nout_base: 0x100000"));
  const uint64_t W = 4;
  ASSERT_EQ(insts.size(), W * 4);
  for (const auto& g : insts) {
    const bool store = g.index % 2 == 1;  // floor((i+1)/2) > floor(i/2) at i = 1, 3
    ASSERT_EQ(g.inst.kind, store ? MemKind::Store : MemKind::Load);
    const uint64_t n = g.index / 2;
    std::set<uint64_t> lines, chunks;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      ASSERT_EQ(g.inst.addr[l], (store ? 0x100000u : 0x80000u) + ((n * W + g.warp_uid) * 32 + l) * 64);
      lines.insert(line_of(g.inst.addr[l]));
      chunks.insert(g.inst.addr[l] / kChunkBytes);
    }
    EXPECT_EQ(lines.size(), 16u);   // 32 lanes x 64 B / 128 B
    EXPECT_EQ(chunks.size(), 32u);  // one chunk per lane: stride >= 32 is uncoalesced
  }
}

TEST(TbStrided, StrideEqualToWidthIsStreaming) {
  // stride == width is streaming's layout exactly.
  const std::string common =
      "grid: 2\nblock: 96\ninsts_per_warp: 6\nwidth: 8\nstore_fraction: 0.5\nbase: 0x4000";
  auto strided = generate_first_kernel(one_kernel("pattern: strided\nstride: 8\n" + common));
  auto streaming = generate_first_kernel(one_kernel("pattern: streaming\n" + common));
  ASSERT_EQ(strided.size(), streaming.size());
  for (size_t i = 0; i < strided.size(); ++i) EXPECT_EQ(strided[i].inst.addr, streaming[i].inst.addr);
}

}  // namespace
}  // namespace gms::test
