// Rodinia ports (group b): each runs functionally to the benchmark's result on a small input, emits an
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

// ---- srad_v2 ----

TEST(RodiniaB, SradV2ComputesTheBenchmarksResult) {
  auto p = make_port("rodinia/srad_v2", "{rows: 64, cols: 48, iterations: 3}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 6u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, SradV2StreamOnATinyImage) {
  // 32 x 32: 2 x 2 CTAs of 8 warps (two 16-thread rows each). srad_cuda_1: every warp loads north, south,
  // west, east and the centre and stores five arrays (10); the first block row adds the clamped north, the
  // last the clamped south, the first block column the clamped west, the last the clamped east: each CTA
  // has one of each pair, so 12 per warp. srad_cuda_2: J, south C, east C, C, N, S, W, E, store J (9),
  // plus the clamped south on the last block row and the clamped east on the last block column.
  auto p = make_port("rodinia/srad_v2", "{rows: 32, cols: 32}");
  std::map<std::string, uint64_t> per_kernel;
  bool first = true;
  const uint64_t J = 0x7f0000000000;  // J_cuda: the first allocation; the image starts one guard row in
  pull_all(*p, [&](uint64_t, const std::string& k, const WarpInst& i) {
    if (i.kind != MemKind::Load && i.kind != MemKind::Store) return;
    ++per_kernel[k];
    if (first) {  // CTA (0, 0), warp 0: the north halo, row -1 (index_n does not depend on ty)
      first = false;
      EXPECT_EQ(i.pc, 0x10u);
      EXPECT_EQ(i.active_mask, 0xffffffffu);
      EXPECT_EQ(i.addr[0], J + 4 * (32 - 32));
      EXPECT_EQ(i.addr[16], J);
      EXPECT_EQ(i.addr[5], J + 4 * 5);
    }
  });
  EXPECT_EQ(per_kernel["srad_cuda_1"], 4u * 8 * 12);
  EXPECT_EQ(per_kernel["srad_cuda_2"], 4u * 8 * 9 + 2 * 8 + 2 * 8);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, SradV2IsDeterministic) {
  expect_deterministic("rodinia/srad_v2", "{rows: 64, cols: 64}");
}

// ---- gaussian ----

TEST(RodiniaB, GaussianComputesTheBenchmarksResult) {
  auto p = make_port("rodinia/gaussian", "{n: 37}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 2u * 36);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, GaussianStreamOnATinySystem) {
  // n = 8: per pivot t, Fan1's first warp loads the pivot and a[i][t] and stores m[i][t] for the 7 - t rows
  // below; Fan2's 2 x 2 CTAs (one 16-thread warp each) with a thread in range (x < 7 - t, y < 8 - t) make 4
  // instructions, those of the first block column (y = 0 in their threads) 4 more for b.
  auto p = make_port("rodinia/gaussian", "{n: 8}");
  uint64_t want = 0;
  for (int t = 0; t < 7; ++t) {
    want += 3;
    for (int bx = 0; bx < 2; ++bx)
      for (int by = 0; by < 2; ++by)
        if (4 * bx < 7 - t && 4 * by < 8 - t) want += by == 0 ? 8 : 4;
  }
  const uint64_t m = 0x7f0000000000, a = m + 256;
  uint64_t n = 0, fan2_a = 0;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t k, const std::string& name, const WarpInst& i) {
    if (n++ == 0) {  // Fan1, t = 0: the pivot a[0][0] for rows 1..7
      EXPECT_EQ(name, "Fan1");
      EXPECT_EQ(i.active_mask, 0x7fu);
      EXPECT_EQ(i.addr[6], a);
    }
    if (k == 1 && i.pc == 0x60 && fan2_a++ == 0) {  // Fan2 t = 0, CTA (0, 0): thread (0, 0) updates a[1][0]
      EXPECT_EQ(i.active_mask, 0xffffu);
      EXPECT_EQ(i.addr[0], a + 4 * 8);
      EXPECT_EQ(i.addr[5], a + 4 * (2 * 8 + 1));  // thread (1, 1): a[2][1]
    }
  });
  EXPECT_EQ(s.kernels, 14u);
  EXPECT_EQ(s.insts, want);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, GaussianIsDeterministic) {
  expect_deterministic("rodinia/gaussian", "{n: 40}");
}

// ---- backprop ----

TEST(RodiniaB, BackpropComputesTheBenchmarksResult) {
  auto p = make_port("rodinia/backprop", "{in: 1024}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 2u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, BackpropStreamOnATinyNet) {
  // in = 16: one 16 x 16 block, 8 warps of two rows. Forward: the input unit (threads tx = 0: lanes 0 and
  // 16), the weight, the reduced weight, the partial sum (tx = 0): 4 per warp. Adjust: delta, ly, oldw, w,
  // store w, delta, ly, oldw, store oldw (9 per warp), and the bias row by the threads ty = 0 (warp 0, lanes
  // 0..15): delta, oldw, w, store w, delta, oldw, store oldw.
  auto p = make_port("rodinia/backprop", "{in: 16}");
  std::map<std::string, uint64_t> per_kernel;
  bool first = true;
  const uint64_t input = 0x7f0000000000;
  pull_all(*p, [&](uint64_t, const std::string& k, const WarpInst& i) {
    if (i.kind != MemKind::Load && i.kind != MemKind::Store) return;
    ++per_kernel[k];
    if (first) {
      first = false;
      EXPECT_EQ(i.active_mask, 0x10001u);
      EXPECT_EQ(i.addr[0], input + 4);
      EXPECT_EQ(i.addr[16], input + 8);
    }
  });
  EXPECT_EQ(per_kernel["bpnn_layerforward_CUDA"], 8u * 4);
  EXPECT_EQ(per_kernel["bpnn_adjust_weights_cuda"], 8u * 9 + 7);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, BackpropIsDeterministic) {
  expect_deterministic("rodinia/backprop", "{in: 512}");
}

// ---- b+tree ----

TEST(RodiniaB, BTreeComputesTheBenchmarksResult) {
  auto p = make_port("rodinia/b+tree", "{keys: 20000, k_count: 300, j_count: 200, j_range: 500}");
  p->run_functionally();
  EXPECT_EQ(p->kernels_launched(), 2u);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, BTreeStreamOnATinyTree) {
  // 300 keys: a root with one key over two leaves (height 1); one findK search, 8 warps. The level: every
  // warp loads currKnode, its key slots and the key (24); only threads 0-1 can have slot <= key (warp 0:
  // the next slot), one of them brackets it (offset, child index, store); thread 0 moves the node (load,
  // store). Then every warp loads currKnode, its slots and the key (24), and the matching thread's warp
  // loads the record index and the record and stores the answer (3).
  auto p = make_port("rodinia/b+tree", "{keys: 300, k_count: 1, j_count: 0}");
  uint64_t mem = 0;
  bool first = true;
  pull_all(*p, [&](uint64_t, const std::string& k, const WarpInst& i) {
    EXPECT_EQ(k, "findK");
    if (i.kind != MemKind::Load && i.kind != MemKind::Store) return;
    ++mem;
    if (first) {  // currKnodeD[0], 8 bytes, every lane
      first = false;
      EXPECT_EQ(i.width, 8u);
      EXPECT_EQ(i.active_mask, 0xffffffffu);
      EXPECT_EQ(i.addr[31], i.addr[0]);
    }
  });
  EXPECT_EQ(mem, 28u + 2 + 27);
  EXPECT_EQ(p->check(), "");
}

TEST(RodiniaB, BTreeIsDeterministic) {
  expect_deterministic("rodinia/b+tree", "{keys: 3000, k_count: 50, j_count: 40, j_range: 100}");
}

}  // namespace
}  // namespace gms::kernels

namespace gms::kernels {
namespace {

// The default inputs' streams (slow; run with --gtest_also_run_disabled_tests to print the counts).
TEST(RodiniaB, DISABLED_DefaultInputCounts) {
  for (const char* name : {"rodinia/srad_v2", "rodinia/gaussian", "rodinia/backprop", "rodinia/b+tree"}) {
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
