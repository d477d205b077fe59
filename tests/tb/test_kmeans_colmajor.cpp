// kmeans (TSC paper, Figure 3) and colmajor_copy (reuse-distance paper, Figure 3) against their formulas.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

// 3 CTAs of 100 threads (4 warps, the last with 4 lanes), 290 points: the last CTA's threads 90..99 idle.
TEST(TbKmeans, TouchesExactlyTheFormulaAddresses) {
  auto wl = load_text(one_kernel(
      "pattern: kmeans\ngrid: 3\nblock: 100\nnfeatures: 34\nnpoints: 290\nbase: 0x100000\nout_base: "
      "0x800000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t P = 290, F = 34, base = 0x100000, out = 0x800000;
  EXPECT_EQ(spec.pattern->load_region_bytes(), P * F * 4);
  const auto insts = generate(*wl->next_kernel());
  std::set<uint64_t> loaded, stored;
  for (const auto& g : insts) {
    const WarpInst& i = g.inst;
    const uint64_t cta = g.warp_uid / 4, wi = g.warp_uid % 4, f = g.index / 2;
    const bool store = g.index % 2;
    ASSERT_EQ(i.kind, store ? MemKind::Store : MemKind::Load);
    EXPECT_EQ(i.pc, store ? kStorePc : kLoadPc);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const uint64_t tid = wi * 32 + l, p = cta * 100 + tid;
      ASSERT_EQ(lane_active(i, l), tid < 100 && p < P) << g.warp_uid << " " << l;
      if (!lane_active(i, l)) continue;
      if (store) {
        ASSERT_EQ(i.addr[l], out + (p + P * f) * 4);  // output[point + npoints*i]
        EXPECT_TRUE(stored.insert(i.addr[l]).second);
      } else {
        ASSERT_EQ(i.addr[l], base + (p * F + f) * 4);  // input[point*nfeatures + i]
        EXPECT_TRUE(loaded.insert(i.addr[l]).second);
      }
    }
  }
  // Every element of both arrays exactly once; every warp with a point runs 2*nfeatures instructions.
  EXPECT_EQ(loaded.size(), P * F);
  EXPECT_EQ(stored.size(), P * F);
  EXPECT_EQ(insts.size(), 11 * 2 * F);  // warp 11 (threads 296..299) holds no point: no instructions
  EXPECT_EQ(wl->total_warp_insts(), insts.size());
}

TEST(TbKmeans, LanesOfALoadAreNfeaturesApartStoresCoalesced) {
  const auto insts = generate_first_kernel(one_kernel("pattern: kmeans\ngrid: 2\nblock: 64\nnfeatures: 40"));
  for (const auto& g : insts) {
    std::set<uint64_t> lines;
    for (unsigned l = 0; l < kWarpSize; ++l) lines.insert(line_of(g.inst.addr[l]));
    EXPECT_EQ(lines.size(), g.inst.kind == MemKind::Load ? 32u : 1u);  // 160 B apart / 128 B together
  }
  EXPECT_EQ(insts.size(), 4u * 80);
}

TEST(TbColMajorCopy, EachThreadCopiesItsRow) {
  // Paper 003's setup scaled down: one CTA, height = threads = 96, width 64 columns of 4 bytes.
  auto wl = load_text(one_kernel("pattern: colmajor_copy\ngrid: 1\nblock: 96\ncolumns: 64\nbase: 0x4000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t R = 96, C = 64, base = 0x4000, out = spec.out_base;
  EXPECT_EQ(out, base + R * C * 4);
  const auto insts = generate(*wl->next_kernel());
  ASSERT_EQ(insts.size(), 3 * 2 * C);
  std::set<uint64_t> loaded, stored;
  for (const auto& g : insts) {
    const WarpInst& i = g.inst;
    const bool store = g.index % 2;
    const uint64_t j = g.index / 2;
    ASSERT_EQ(i.kind, store ? MemKind::Store : MemKind::Load);
    EXPECT_EQ(i.active_mask, 0xffffffffu);
    std::set<uint64_t> lines;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const uint64_t r = g.warp_uid * 32 + l;
      ASSERT_EQ(i.addr[l], (store ? out : base) + (r * C + j) * 4);
      EXPECT_TRUE((store ? stored : loaded).insert(i.addr[l]).second);
      lines.insert(line_of(i.addr[l]));
    }
    EXPECT_EQ(lines.size(), 32u);  // uncoalesced: rows are 256 B apart
  }
  EXPECT_EQ(loaded.size(), R * C);
  EXPECT_EQ(stored.size(), R * C);
}

TEST(TbColMajorCopy, ALineIsReusedOnlyByItsOwnLaneFor32Iterations) {
  const auto insts =
      generate_first_kernel(one_kernel("pattern: colmajor_copy\ngrid: 2\nblock: 64\ncolumns: 96"));
  std::map<uint64_t, std::pair<uint64_t, std::set<uint64_t>>> users;  // line -> (thread, loads)
  for (const auto& g : insts) {
    if (g.inst.kind != MemKind::Load) continue;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      auto& u = users[line_of(g.inst.addr[l])];
      if (u.second.empty()) u.first = g.warp_uid * 32 + l;
      EXPECT_EQ(u.first, g.warp_uid * 32 + l);
      u.second.insert(g.index / 2);
    }
  }
  // Rows of 384 B = 3 lines: each line is 32 consecutive columns of one row, read by 32 loads of its thread.
  EXPECT_EQ(users.size(), 128u * 3);
  for (const auto& [line, u] : users) EXPECT_EQ(u.second.size(), 32u) << "line " << line;
}

}  // namespace
}  // namespace gms::test
