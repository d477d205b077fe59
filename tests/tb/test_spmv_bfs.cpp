// The generated CSR structure, spmv_csr (G-Cache's SpMV: the matrix streams, the vector is reused) and bfs
// (random gathers on a generated graph) against their definitions (docs/workloads.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "tb/workloads/csr_graph.h"
#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

CsrShape shape(uint64_t rows, uint64_t cols, uint64_t avg, bool powerlaw, uint64_t seed = 1) {
  CsrShape s;
  s.rows = rows;
  s.cols = cols;
  s.avg_len = avg;
  s.powerlaw = powerlaw;
  s.max_len = std::min<uint64_t>(cols, 64 * avg);  // the default max_row / max_degree
  s.seed = seed;
  return s;
}

void expect_valid(const CsrGraph& g, uint64_t cols) {
  ASSERT_EQ(g.row_ptr.front(), 0u);
  ASSERT_EQ(g.row_ptr.back(), g.nnz());
  for (uint64_t r = 0; r < g.rows(); ++r) {
    ASSERT_LE(g.row_ptr[r], g.row_ptr[r + 1]);
    for (uint32_t k = g.row_ptr[r]; k < g.row_ptr[r + 1]; ++k) {
      ASSERT_LT(g.col[k], cols);
      if (k > g.row_ptr[r]) {
        ASSERT_LT(g.col[k - 1], g.col[k]) << "row " << r << " not sorted / distinct";
      }
    }
  }
}

TEST(TbCsrGraph, PowerLawRowsHeavyTailedUniformRowsEven) {
  const CsrGraph p = CsrGraph::generate(shape(20000, 5000, 8, true));
  expect_valid(p, 5000);
  std::vector<uint32_t> lens;
  for (uint64_t r = 0; r < p.rows(); ++r) lens.push_back(p.len(r));
  std::sort(lens.begin(), lens.end());
  const double mean = double(p.nnz()) / 20000;
  EXPECT_NEAR(mean, 8.0, 1.2);   // the cap at 64*8 and rounding cost a few percent
  EXPECT_LE(lens[10000], 5u);    // median well below the mean: most rows are short
  EXPECT_GE(lens.back(), 100u);  // and a few are very long
  EXPECT_LE(lens.back(), 512u);  // max_len
  const CsrGraph u = CsrGraph::generate(shape(20000, 5000, 8, false));
  expect_valid(u, 5000);
  EXPECT_NEAR(double(u.nnz()) / 20000, 8.0, 0.15);  // uniform in [0, 16]: sd of the mean 0.035
  for (uint64_t r = 0; r < u.rows(); ++r) ASSERT_LE(u.len(r), 16u);
  // Deterministic in the seed.
  EXPECT_EQ(CsrGraph::generate(shape(500, 300, 4, true, 7)).col,
            CsrGraph::generate(shape(500, 300, 4, true, 7)).col);
  EXPECT_NE(CsrGraph::generate(shape(500, 300, 4, true, 7)).col,
            CsrGraph::generate(shape(500, 300, 4, true, 8)).col);
}

// 4 CTAs of 80 threads (3 warps, the last with 16 lanes), 300 rows of a 300 x 500 matrix.
TEST(TbSpmvCsr, ExactProgramOfEveryWarp) {
  auto wl = load_text(one_kernel(
      "pattern: spmv_csr\ngrid: 4\nblock: 80\nrows: 300\ncols: 500\nnnz_per_row: 6\nwidth: 8\nbase: "
      "0x100000"));
  const KernelSpec& spec = *wl->kernels()[0];
  const CsrGraph g = CsrGraph::generate(shape(300, 500, 6, true));
  const uint64_t base = 0x100000, col_at = base + (301 * 4 + 127) / 128 * 128;
  const uint64_t val_at = base + (col_at - base + g.nnz() * 4 + 127) / 128 * 128;
  const uint64_t x_at = base + (val_at - base + g.nnz() * 8 + 127) / 128 * 128;
  EXPECT_EQ(spec.pattern->load_region_bytes(), x_at - base + 500 * 8);
  const auto insts = generate(*wl->next_kernel());
  std::map<uint64_t, std::vector<WarpInst>> by_warp;
  for (const auto& gi : insts) by_warp[gi.warp_uid].push_back(gi.inst);
  uint64_t expected_total = 0;
  std::map<uint64_t, int> matrix_reads, x_reads;
  for (uint64_t w = 0; w < 12; ++w) {
    const uint64_t first = w / 3 * 80 + w % 3 * 32;
    const unsigned lanes = unsigned(std::min<uint64_t>(w % 3 == 2 ? 16 : 32, first < 300 ? 300 - first : 0));
    if (!lanes) {
      EXPECT_EQ(by_warp.count(w), 0u);
      continue;
    }
    uint32_t maxlen = 0;
    for (unsigned l = 0; l < lanes; ++l) maxlen = std::max(maxlen, g.len(first + l));
    const auto& got = by_warp[w];
    ASSERT_EQ(got.size(), 3 + 3 * maxlen) << "warp " << w;
    expected_total += got.size();
    const uint32_t all = lanes == 32 ? ~0u : (1u << lanes) - 1;
    for (unsigned s = 0; s < got.size(); ++s) {
      const WarpInst& i = got[s];
      if (s < 2 || s + 1 == got.size()) {
        const bool store = s + 1 == got.size();
        ASSERT_EQ(i.kind, store ? MemKind::Store : MemKind::Load);
        EXPECT_EQ(i.pc, store ? 0x200u : 0x100u + 8 * s);
        EXPECT_EQ(i.width, store ? 8 : 4);
        ASSERT_EQ(i.active_mask, all);
        for (unsigned l = 0; l < lanes; ++l)  // row_ptr[r], row_ptr[r+1]; y[r]
          ASSERT_EQ(i.addr[l], store ? spec.out_base + (first + l) * 8 : base + (first + l + s) * 4);
        continue;
      }
      const unsigned e = (s - 2) / 3, which = (s - 2) % 3;
      ASSERT_EQ(i.kind, MemKind::Load);
      EXPECT_EQ(i.pc, 0x110u + 8 * which);
      EXPECT_EQ(i.width, which == 0 ? 4 : 8);
      uint32_t mask = 0;
      for (unsigned l = 0; l < lanes; ++l) {
        if (e >= g.len(first + l)) continue;
        mask |= 1u << l;
        const uint64_t k = g.row_ptr[first + l] + e;
        const uint64_t want = which == 0 ? col_at + k * 4 : which == 1 ? val_at + k * 8 : x_at + g.col[k] * 8;
        ASSERT_EQ(i.addr[l], want);
        ++(which == 2 ? x_reads : matrix_reads)[want];
      }
      ASSERT_EQ(i.active_mask, mask);
    }
  }
  EXPECT_EQ(insts.size(), expected_total);
  // The matrix streams: each col / val element is read exactly once; the vector is reused.
  EXPECT_EQ(matrix_reads.size(), 2 * g.nnz());
  for (const auto& [a, n] : matrix_reads) EXPECT_EQ(n, 1);
  size_t x_total = 0;
  for (const auto& [a, n] : x_reads) x_total += n;
  EXPECT_EQ(x_total, g.nnz());
  EXPECT_LT(x_reads.size() * 2, x_total);  // about 1800 reads of at most 500 elements
}

bool in_frontier(uint64_t seed, uint64_t v, double fraction) {
  return double(mix64(seed ^ mix64(v)) >> 11) * 0x1.0p-53 < fraction;
}

TEST(TbBfs, GathersTheNeighboursOfTheFrontierNodes) {
  // 10 CTAs of 64 threads, 600 nodes (the last 40 threads idle), 30% frontier.
  auto wl = load_text(one_kernel(
      "pattern: bfs\ngrid: 10\nblock: 64\nnodes: 600\navg_degree: 4\nfrontier_fraction: 0.3\ngraph_seed: 5"));
  const KernelSpec& spec = *wl->kernels()[0];
  const CsrGraph g = CsrGraph::generate(shape(600, 600, 4, true, 5));
  const uint64_t row_ptr_at = 640, edges_at = row_ptr_at + (601 * 4 + 127) / 128 * 128;
  const uint64_t visited_at = edges_at + (g.nnz() * 4 + 127) / 128 * 128;
  EXPECT_EQ(spec.pattern->load_region_bytes(), visited_at + 600);
  const auto insts = generate(*wl->next_kernel());
  std::map<uint64_t, std::vector<WarpInst>> by_warp;
  for (const auto& gi : insts) by_warp[gi.warp_uid].push_back(gi.inst);
  size_t frontier_nodes = 0;
  std::multiset<uint64_t> gathered, expected_gathers;
  for (uint64_t w = 0; w < 20; ++w) {
    const uint64_t first = w * 32;
    if (first >= 600) {
      EXPECT_EQ(by_warp.count(w), 0u);
      continue;
    }
    const unsigned lanes = unsigned(std::min<uint64_t>(32, 600 - first));
    uint32_t frontier = 0, maxdeg = 0;
    for (unsigned l = 0; l < lanes; ++l)
      if (in_frontier(5, first + l, 0.3)) {
        frontier |= 1u << l;
        maxdeg = std::max(maxdeg, g.len(first + l));
        for (uint32_t k = g.row_ptr[first + l]; k < g.row_ptr[first + l + 1]; ++k)
          expected_gathers.insert(g.col[k]);
      }
    frontier_nodes += __builtin_popcount(frontier);
    const auto& got = by_warp[w];
    ASSERT_EQ(got.size(), frontier ? 4 + 2 * maxdeg : 1u) << "warp " << w;
    EXPECT_EQ(got[0].pc, 0x100u);
    EXPECT_EQ(got[0].width, 1);
    for (unsigned l = 0; l < lanes; ++l) EXPECT_EQ(got[0].addr[l], first + l);  // frontier flags
    for (unsigned s = 1; s < got.size(); ++s) {
      const WarpInst& i = got[s];
      const bool store = s + 1 == got.size();
      EXPECT_EQ(i.kind, store ? MemKind::Store : MemKind::Load);
      if (s < 3 || store) {
        ASSERT_EQ(i.active_mask, frontier);
        for (uint32_t m = frontier; m; m &= m - 1) {
          const unsigned l = unsigned(__builtin_ctz(m));
          EXPECT_EQ(i.addr[l],
                    store ? spec.out_base + (first + l) * 4 : row_ptr_at + (first + l + s - 1) * 4);
        }
        continue;
      }
      const unsigned e = (s - 3) / 2;
      const bool gather = (s - 3) % 2;
      EXPECT_EQ(i.pc, gather ? 0x120u : 0x118u);
      uint32_t mask = 0;
      for (uint32_t m = frontier; m; m &= m - 1) {
        const unsigned l = unsigned(__builtin_ctz(m));
        if (e >= g.len(first + l)) continue;
        mask |= 1u << l;
        const uint64_t k = g.row_ptr[first + l] + e;
        ASSERT_EQ(i.addr[l], gather ? visited_at + g.col[k] : edges_at + k * 4);
        if (gather) gathered.insert(i.addr[l] - visited_at);
      }
      ASSERT_EQ(i.active_mask, mask);
    }
  }
  EXPECT_EQ(gathered, expected_gathers);                 // exactly the frontier's neighbours
  EXPECT_NEAR(double(frontier_nodes) / 600, 0.3, 0.06);  // sd 0.019
}

}  // namespace
}  // namespace gms::test
