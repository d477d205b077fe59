// stencil2d, matmul (naive and tiled) and sharing against their definitions (docs/workloads.md).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

// 3 CTAs of 80 threads (T = 240) over a 37 x 19 interior with radius 2: 703 points, 3 iterations.
TEST(TbStencil2d, ExactNeighboursEveryPointOnceInterWarpReuse) {
  auto wl = load_text(one_kernel(
      "pattern: stencil2d\ngrid: 3\nblock: 80\nnx: 37\nny: 19\nradius: 2\nwidth: 2\nbase: 0x2000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t nx = 37, ny = 19, r = 2, P = nx + 2 * r, base = 0x2000;
  EXPECT_EQ(spec.pattern->load_region_bytes(), P * (ny + 2 * r) * 2);
  const int64_t dx[] = {0, -1, 1, 0, 0, -2, 2, 0, 0}, dy[] = {0, 0, 0, -1, 1, 0, 0, -2, 2};
  const auto insts = generate(*wl->next_kernel());
  std::map<uint64_t, int> stored, loaded;
  std::map<uint64_t, std::set<uint64_t>> centre_warps;     // line -> warps whose centre load read it
  std::vector<std::pair<uint64_t, uint64_t>> north_south;  // (line, warp)
  for (const auto& g : insts) {
    const WarpInst& i = g.inst;
    const uint64_t it = g.index / 10, k = g.index % 10;
    const bool store = k == 9;
    ASSERT_EQ(i.kind, store ? MemKind::Store : MemKind::Load);
    EXPECT_EQ(i.pc, store ? 0x200u : 0x100u + 8 * k);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const uint64_t tid = g.warp_uid % 3 * 32 + l, p = g.warp_uid / 3 * 80 + tid + it * 240;
      ASSERT_EQ(lane_active(i, l), tid < 80 && p < nx * ny);
      if (!lane_active(i, l)) continue;
      const uint64_t x = p % nx, y = p / nx;
      if (store) {
        ASSERT_EQ(i.addr[l], spec.out_base + p * 2);
        ++stored[p];
        continue;
      }
      const uint64_t e = uint64_t(int64_t(y + r) + dy[k]) * P + uint64_t(int64_t(x + r) + dx[k]);
      ASSERT_EQ(i.addr[l], base + e * 2);
      ++loaded[e];
      if (k == 0) centre_warps[line_of(i.addr[l])].insert(g.warp_uid);
      if (k == 3 || k == 4) north_south.push_back({line_of(i.addr[l]), g.warp_uid});
    }
  }
  EXPECT_EQ(stored.size(), nx * ny);
  for (const auto& [p, n] : stored) EXPECT_EQ(n, 1);
  // Each input element is read by every point whose stencil covers it: 9 times inside, fewer near the halo.
  EXPECT_EQ(loaded.at((r + 5) * P + r + 5), 9);
  EXPECT_EQ(loaded.at(r * P + r), 5);  // a corner of the interior: centre, E, E2, S, S2
  EXPECT_EQ(loaded.count(0), 0u);      // the halo's corners are never read
  // Inter-warp reuse: most north/south loads hit lines another warp reads as its centre row.
  size_t shared = 0;
  for (const auto& [line, w] : north_south) {
    auto it = centre_warps.find(line);
    shared += it != centre_warps.end() && (it->second.size() > 1 || !it->second.count(w));
  }
  EXPECT_GT(shared * 10, north_south.size() * 9);
}

struct MatmulCheck {
  std::map<uint64_t, int> a, b, c;
};

MatmulCheck run_matmul(const std::string& keys, uint64_t m, uint64_t n, uint64_t k) {
  auto wl = load_text(one_kernel(keys + "\nbase: 0x10000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const uint64_t b_at = 0x10000 + (m * k * 4 + 127) / 128 * 128;
  EXPECT_EQ(spec.pattern->load_region_bytes(), b_at - 0x10000 + k * n * 4);
  MatmulCheck out;
  const auto insts = generate(*wl->next_kernel());
  EXPECT_EQ(insts.size(), wl->total_warp_insts());
  for (const auto& g : insts) {
    const WarpInst& i = g.inst;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!lane_active(i, l)) continue;
      const uint64_t a = i.addr[l];
      if (i.kind == MemKind::Store) {
        EXPECT_EQ(i.pc, 0x200u);
        ++out.c[(a - spec.out_base) / 4];
      } else if (a < b_at) {
        EXPECT_EQ(i.pc, kLoadPc);
        ++out.a[(a - 0x10000) / 4];
      } else {
        EXPECT_EQ(i.pc, kSecondLoadPc);
        ++out.b[(a - b_at) / 4];
      }
    }
  }
  return out;
}

TEST(TbMatmul, NaiveThreadPerElement) {
  // 5 x 80 threads, 20 x 19 = 380 elements of C, k = 6: thread t computes C[t / 19][t mod 19].
  auto wl = load_text(one_kernel("pattern: matmul\ngrid: 5\nblock: 80\nm: 20\nn: 19\nk: 6"));
  const auto insts = generate(*wl->next_kernel());
  for (const auto& g : insts) {
    ASSERT_LT(g.index, 13u);  // 2k + 1
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const uint64_t tid = g.warp_uid % 3 * 32 + l, t = g.warp_uid / 3 * 80 + tid;
      ASSERT_EQ(lane_active(g.inst, l), tid < 80 && t < 380);
      if (!lane_active(g.inst, l) || g.index == 12) continue;
      const uint64_t i = t / 19, j = t % 19, kk = g.index / 2;
      ASSERT_EQ(g.inst.addr[l],
                g.index % 2 ? (20 * 6 * 4 + 127) / 128 * 128 + (kk * 19 + j) * 4 : (i * 6 + kk) * 4);
    }
  }
  const MatmulCheck c = run_matmul("pattern: matmul\ngrid: 5\nblock: 80\nm: 20\nn: 19\nk: 6", 20, 19, 6);
  EXPECT_EQ(c.c.size(), 380u);
  for (const auto& [e, n] : c.c) EXPECT_EQ(n, 1);
  EXPECT_EQ(c.a.size(), 120u);
  for (const auto& [e, n] : c.a) EXPECT_EQ(n, 19);  // A[i][kk]: once per column of C
  EXPECT_EQ(c.b.size(), 114u);
  for (const auto& [e, n] : c.b) EXPECT_EQ(n, 20);  // B[kk][j]: once per row of C
}

TEST(TbMatmul, TiledEveryElementItsShareCoalescedTileRows) {
  const std::string keys = "pattern: matmul\ngrid: 7\nblock: 64\nm: 16\nn: 24\nk: 16\ntile: 8";
  const MatmulCheck c = run_matmul(keys, 16, 24, 16);
  EXPECT_EQ(c.c.size(), 16u * 24);
  for (const auto& [e, n] : c.c) EXPECT_EQ(n, 1);
  EXPECT_EQ(c.a.size(), 16u * 16);
  for (const auto& [e, n] : c.a) EXPECT_EQ(n, 3);  // one load per tile column of C (24 / 8)
  EXPECT_EQ(c.b.size(), 16u * 24);
  for (const auto& [e, n] : c.b) EXPECT_EQ(n, 2);  // one per tile row (16 / 8)
  const auto insts = generate_first_kernel(one_kernel(keys));
  EXPECT_EQ(insts.size(), 6u * 2 * (2 * 2 + 1));  // 6 tiles x 2 warps; CTA 6 idle
  for (const auto& g : insts) {
    std::set<uint64_t> segments;  // 8 consecutive elements per tile row: 4 rows per warp
    for (unsigned l = 0; l < kWarpSize; ++l) segments.insert(g.inst.addr[l] / 32);
    EXPECT_EQ(segments.size(), 4u);
    for (unsigned l = 1; l < kWarpSize; ++l)
      if (l % 8) {
        EXPECT_EQ(g.inst.addr[l], g.inst.addr[l - 1] + 4);
      }
  }
}

TEST(TbSharing, EveryCtaReadsTheSameTable) {
  // 6 CTAs of 128 threads, 16 loads per warp x 4 warps x 128 B chunks = 8 KiB = the table, in every CTA.
  auto wl =
      load_text(one_kernel("pattern: sharing\ngrid: 6\nblock: 128\ninsts_per_warp: 20\nstore_fraction: "
                           "0.2\ntable_bytes: 8192\nbase: "
                           "0x40000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const auto insts = generate(*wl->next_kernel());
  std::map<uint64_t, std::multiset<uint64_t>> per_cta;  // CTA -> loaded lines (with repeats)
  std::map<uint64_t, uint32_t> loads_seen, stores_seen;
  for (const auto& g : insts) {
    const WarpInst& i = g.inst;
    if (i.kind == MemKind::Store) {
      const uint64_t j = stores_seen[g.warp_uid]++;
      for (unsigned l = 0; l < kWarpSize; ++l)
        ASSERT_EQ(i.addr[l], spec.out_base + ((j * 24 + g.warp_uid) * 32 + l) * 4);
      continue;
    }
    const uint64_t n = loads_seen[g.warp_uid]++, chunk = (n * 4 + g.warp_uid % 4) % 64;
    for (unsigned l = 0; l < kWarpSize; ++l) ASSERT_EQ(i.addr[l], 0x40000 + chunk * 128 + l * 4);
    per_cta[g.warp_uid / 4].insert(line_of(i.addr[0]));
  }
  ASSERT_EQ(per_cta.size(), 6u);
  for (const auto& [cta, lines] : per_cta) {
    EXPECT_EQ(lines, per_cta[0]) << "CTA " << cta;
    EXPECT_EQ(std::set<uint64_t>(lines.begin(), lines.end()).size(), 64u);  // the whole table
  }
}

TEST(TbSharing, RandomAccessStaysInTheTableAndCoversIt) {
  const auto insts =
      generate_first_kernel(one_kernel("pattern: sharing\ngrid: 8\nblock: 64\ninsts_per_warp: "
                                       "40\ntable_bytes: 4096\naccess: random\nwidth: 8"));
  std::map<uint64_t, std::set<uint64_t>> per_cta;
  for (const auto& g : insts)
    for (unsigned l = 0; l < kWarpSize; ++l) {
      ASSERT_LT(g.inst.addr[l], 4096u);
      ASSERT_EQ(g.inst.addr[l] % 8, 0u);
      per_cta[g.warp_uid / 2].insert(line_of(g.inst.addr[l]));
    }
  for (const auto& [cta, lines] : per_cta) EXPECT_EQ(lines.size(), 32u);  // 2560 draws over 32 lines
}

}  // namespace
}  // namespace gms::test
