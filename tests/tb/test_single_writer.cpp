// The correctness contract's single-writer rule: in every pattern, no byte is stored by two warps of a
// kernel, and the stores stay in the store region, apart from the load region.
#include <gtest/gtest.h>

#include <unordered_map>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

class TbSingleWriter : public testing::TestWithParam<std::string> {};

TEST_P(TbSingleWriter, NoByteHasTwoWriterWarps) {
  // 5 CTAs of 80 threads (3 warps, the last with 16 lanes), half of the 40 instructions stores, 16 B wide.
  std::string keys =
      "pattern: " + GetParam() +
      "\ngrid: 5\nblock: 80\ninsts_per_warp: 40\nwidth: 16\nstore_fraction: 0.5\nbase: 0x10000";
  if (GetParam() == "strided") keys += "\nstride: 48";
  if (GetParam() == "random") keys += "\nfootprint: 262144";
  if (GetParam() == "hotcold") keys += "\nhot_lines: 4\nhot_fraction: 0.5";
  auto wl = load_text(one_kernel(keys));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t load_end = spec.base + spec.pattern->load_region_bytes();
  const uint64_t store_end = spec.out_base + spec.pattern->store_region_bytes();
  EXPECT_GE(spec.out_base, load_end);
  const auto insts = generate(*wl->next_kernel());
  ASSERT_EQ(insts.size(), 15u * 40);
  std::unordered_map<uint64_t, uint64_t> writer;  // byte -> warp uid
  size_t stores = 0, loads = 0;
  for (const auto& g : insts) {
    const bool store = g.inst.kind == MemKind::Store;
    store ? ++stores : ++loads;
    std::unordered_map<uint64_t, unsigned> lane_of;  // distinct bytes within one store instruction
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!lane_active(g.inst, l)) continue;
      const uint64_t a = g.inst.addr[l];
      ASSERT_EQ(a % 16, 0u);
      if (!store) {
        ASSERT_GE(a, spec.base);
        ASSERT_LE(a + 16, load_end);
        continue;
      }
      ASSERT_GE(a, spec.out_base);
      ASSERT_LE(a + 16, store_end);
      for (uint64_t b = a; b < a + 16; ++b) {
        auto [it, fresh] = writer.emplace(b, g.warp_uid);
        ASSERT_TRUE(fresh || it->second == g.warp_uid)
            << "byte " << b << " written by warps " << it->second << " and " << g.warp_uid;
        auto [lt, lane_fresh] = lane_of.emplace(b, l);
        ASSERT_TRUE(lane_fresh) << "lanes " << lt->second << " and " << l << " of one store write byte " << b;
      }
    }
  }
  EXPECT_EQ(stores, 15u * 20);
  EXPECT_EQ(loads, 15u * 20);
  EXPECT_GT(writer.size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Patterns, TbSingleWriter,
                         testing::Values("streaming", "strided", "random", "hotcold"),
                         [](const testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace gms::test
