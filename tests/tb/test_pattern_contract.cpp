// What every added pattern (kmeans, spmv_csr, bfs, stencil2d, matmul, sharing, colmajor_copy) must keep:
// single writer, loads in the load region and stores in the store region, width-aligned addresses,
// non-empty active masks inside the warp's thread mask, one (kind, width) per pc, the counted instructions,
// and warp streams that depend only on (seed, kernel index, warp uid).
#include <gtest/gtest.h>

#include <map>
#include <unordered_map>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

struct Case {
  std::string name;
  std::string keys;  // grid / block and the pattern's keys
};

// Blocks of 80 threads (the last warp of a CTA has 16 lanes) wherever the pattern allows it.
const std::vector<Case> kCases = {
    {"kmeans", "pattern: kmeans\ngrid: 5\nblock: 80\nnfeatures: 7\nnpoints: 390\nwidth: 8"},
    {"colmajor_copy", "pattern: colmajor_copy\ngrid: 3\nblock: 80\ncolumns: 40\nrows: 230"},
    {"spmv_csr", "pattern: spmv_csr\ngrid: 4\nblock: 80\nnnz_per_row: 6\ncols: 500\nrows: 300\nwidth: 8"},
    {"spmv_uniform", "pattern: spmv_csr\ngrid: 4\nblock: 80\nnnz_per_row: 3\nrow_dist: uniform"},
    {"bfs", "pattern: bfs\ngrid: 4\nblock: 80\navg_degree: 5\nfrontier_fraction: 0.3\nnodes: 310"},
    {"stencil2d", "pattern: stencil2d\ngrid: 3\nblock: 80\nnx: 37\nny: 19\nradius: 2\nwidth: 2"},
    {"matmul", "pattern: matmul\ngrid: 5\nblock: 80\nm: 20\nn: 19\nk: 6"},
    {"matmul_tiled", "pattern: matmul\ngrid: 7\nblock: 64\nm: 16\nn: 24\nk: 16\ntile: 8"},
    {"sharing",
     "pattern: sharing\ngrid: 5\nblock: 80\ninsts_per_warp: 30\nstore_fraction: 0.2\ntable_bytes: "
     "4096\nwidth: 16"},
    {"sharing_random",
     "pattern: sharing\ngrid: 5\nblock: 80\ninsts_per_warp: 30\nstore_fraction: 0.5\n"
     "table_bytes: 8192\naccess: random"},
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

class TbPatternContract : public testing::TestWithParam<Case> {};

TEST_P(TbPatternContract, RegionsSingleWriterMasksPcsAndCounts) {
  auto wl = load_text(one_kernel(GetParam().keys + "\ngap: 3\nbase: 0x10000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t load_end = spec.base + spec.pattern->load_region_bytes();
  const uint64_t store_end = spec.out_base + spec.pattern->store_region_bytes();
  EXPECT_GE(spec.out_base, load_end);
  const auto insts = generate(*wl->next_kernel());
  EXPECT_EQ(insts.size(), wl->total_warp_insts());
  std::unordered_map<uint64_t, uint64_t> writer;             // byte -> warp uid
  std::map<uint64_t, std::pair<MemKind, unsigned>> pc_kind;  // pc -> (kind, width)
  size_t stores = 0;
  for (const auto& g : insts) {
    const WarpInst& i = g.inst;
    const uint32_t threads = spec.geom.active_mask(g.warp_uid);
    ASSERT_NE(i.active_mask, 0u) << "warp " << g.warp_uid << " inst " << g.index;
    ASSERT_EQ(i.active_mask & ~threads, 0u);
    EXPECT_EQ(i.gap, 3u);
    auto [pk, fresh_pc] = pc_kind.emplace(i.pc, std::make_pair(i.kind, unsigned(i.width)));
    EXPECT_TRUE(fresh_pc || (pk->second.first == i.kind && pk->second.second == i.width)) << "pc " << i.pc;
    const bool store = i.kind == MemKind::Store;
    stores += store;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!lane_active(i, l)) {
        EXPECT_EQ(i.addr[l], 0u);
        continue;
      }
      const uint64_t a = i.addr[l];
      ASSERT_EQ(a % i.width, 0u);
      ASSERT_GE(a, store ? spec.out_base : spec.base);
      ASSERT_LE(a + i.width, store ? store_end : load_end);
      if (!store) continue;
      for (uint64_t b = a; b < a + i.width; ++b) {
        auto [it, fresh] = writer.emplace(b, g.warp_uid);
        ASSERT_TRUE(fresh || it->second == g.warp_uid) << "byte " << b << " has two writer warps";
      }
    }
  }
  EXPECT_GT(stores, 0u);
}

TEST_P(TbPatternContract, WarpStreamDependsOnlyOnSeedKernelAndWarp) {
  auto wl = load_text(one_kernel(GetParam().keys, 4));
  const auto in_order = generate(*wl->next_kernel());
  const auto& spec = wl->kernels()[0];
  const uint64_t warps = spec->geom.num_warps;
  for (uint64_t uid : {warps - 1, uint64_t(1), warps / 2}) {  // pulled alone, out of dispatch order
    SyntheticWarpStream alone(spec, 4, 0, uid);
    WarpInst inst;
    for (const auto& g : in_order) {
      if (g.warp_uid != uid) continue;
      ASSERT_TRUE(alone.next(inst));
      EXPECT_EQ(inst.addr, g.inst.addr);
      EXPECT_EQ(inst.pc, g.inst.pc);
      EXPECT_EQ(inst.active_mask, g.inst.active_mask);
    }
    EXPECT_FALSE(alone.next(inst));
  }
}

INSTANTIATE_TEST_SUITE_P(Patterns, TbPatternContract, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& p) { return p.param.name; });

}  // namespace
}  // namespace gms::test
