// LonestarGPU ports: each runs functionally to the benchmark's result on a small input, emits an exactly
// known stream on a tiny one, and emits the same stream twice.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_deterministic;
using test::make_port;
using test::pull_all;

unsigned lanes(const WarpInst& i) {
  return unsigned(__builtin_popcount(i.active_mask));
}

// ---- sssp ----

TEST(Lonestar, SsspComputesShortestDistances) {
  for (const char* size : {"{scale: 10, block: 256}", "{scale: 9, edge_factor: 8, block: 1024, seed: 3}",
                           "{scale: 8, max_weight: 1, block: 64}"}) {
    auto p = make_port("lonestar/sssp", size);
    p->run_functionally();
    EXPECT_GE(p->kernels_launched(), 4u) << size;  // initialize, >= 2 sweeps, verify
    EXPECT_EQ(p->check(), "") << size;
  }
}

TEST(Lonestar, SsspStreamOnATinyGraph) {
  // 2^6 = 64 nodes, 2 x 64 = 128 edges, blocks of 32: 1024 / 32 = 32 nodes per thread, so thread t
  // relaxes nodes 32t .. 32t + 31 and only threads 0 and 1 of block 0 have nodes.
  auto p = make_port("lonestar/sssp", "{scale: 6, edge_factor: 2, block: 32}");
  std::map<std::string, uint64_t> dst_lanes, verify_dst_lanes;
  uint64_t sweeps = 0, verify_insts = 0, atomic_lanes = 0;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string& k, const WarpInst& i) {
    if (k == "drelax" && i.pc == 0x140) dst_lanes[k] += lanes(i);
    if (k == "drelax" && i.kind == MemKind::Atomic) atomic_lanes += lanes(i);
    if (k == "dverifysolution") {
      ++verify_insts;
      if (i.pc == 0x240) verify_dst_lanes[k] += lanes(i);
    }
  });
  // initialize: 2 blocks of 32 threads, one store each; then the sweeps, then the verifier.
  ASSERT_GE(s.kernels, 4u);
  EXPECT_EQ(s.kernel_names.front(), "initialize");
  EXPECT_EQ(s.kernel_names.back(), "dverifysolution");
  for (size_t k = 1; k + 1 < s.kernel_names.size(); ++k) {
    EXPECT_EQ(s.kernel_names[k], "drelax");
    ++sweeps;
  }
  EXPECT_EQ(s.insts_per_kernel[0], 2u);
  EXPECT_EQ(s.first[0].kind, MemKind::Store);
  EXPECT_EQ(s.first[0].pc, 0x10u);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  // drelax: threads 0 and 1 (of 64) have nodes: the first instruction is their first node's degree.
  EXPECT_EQ(s.first[1].pc, 0x100u);
  EXPECT_EQ(s.first[1].active_mask, 0x3u);
  EXPECT_EQ(s.first[1].addr[1] - s.first[1].addr[0], 32u * 4);
  // Every sweep reads every edge's destination once (one lane each): 128 per sweep; the verifier too.
  EXPECT_EQ(dst_lanes["drelax"], 128u * sweeps);
  EXPECT_EQ(verify_dst_lanes["dverifysolution"], 128u);
  // Every node reached from 0 had its distance lowered at least once.
  EXPECT_GT(atomic_lanes, 0u);
  EXPECT_GT(s.atomics, 0u);
  EXPECT_EQ(p->check(), "");
}

TEST(Lonestar, SsspIsDeterministic) {
  expect_deterministic("lonestar/sssp", "{scale: 9, block: 128}");
}

// ---- sp ----

TEST(Lonestar, SpConvergesAsTheSequentialReference) {
  // Formulas at M/N = 4.2 this small do not converge (nsp would stop after MAXITERATION); these do.
  for (const char* size : {"{clauses: 300, vars: 100, seed: 7, sms: 3, max_iteration: 1000}",
                           "{clauses: 200, vars: 40, k: 4, sms: 1, sm_threads: 512}"}) {
    auto p = make_port("lonestar/sp", size);
    p->run_functionally();
    EXPECT_GE(p->kernels_launched(), 2u) << size;
    EXPECT_EQ(p->kernels_launched() % 2, 0u) << size;  // calc_pi_values, update_eta per iteration
    EXPECT_EQ(p->check(), "") << size;
  }
  // 150 x 50 converges in 9 iterations; with the default max_iteration (7) it stops after 8; a formula that
  // does not converge runs max_iteration + 1.
  auto a = make_port("lonestar/sp", "{clauses: 150, vars: 50, sms: 2, max_iteration: 1000}");
  a->run_functionally();
  EXPECT_EQ(a->kernels_launched(), 18u);
  EXPECT_EQ(a->check(), "");
  auto b = make_port("lonestar/sp", "{clauses: 150, vars: 50, sms: 2}");
  b->run_functionally();
  EXPECT_EQ(b->kernels_launched(), 16u);
  EXPECT_EQ(b->check(), "");
  auto c = make_port("lonestar/sp", "{clauses: 420, vars: 100, sms: 2, max_iteration: 20}");
  c->run_functionally();
  EXPECT_EQ(c->kernels_launched(), 42u);
  EXPECT_EQ(c->check(), "");
}

TEST(Lonestar, SpStreamOnATinyFormula) {
  // 8 clauses x 3 literals = 24 edges; one SM with room for one 384-thread CTA: grids of 1 block, and only
  // warp 0 (lanes 0..23) has edges.
  auto p = make_port("lonestar/sp", "{clauses: 8, vars: 6, sms: 1, sm_threads: 384}");
  std::map<uint32_t, uint64_t> lanes_at;
  uint64_t atomics = 0;
  const test::StreamSummary s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) {
    lanes_at[i.pc] += lanes(i);
    if (i.kind == MemKind::Atomic) {
      ++atomics;
      EXPECT_EQ(i.active_mask & ~0x00ffffffu, 0u);  // the lanes of warp 0 whose lmaxeps != 0
    }
  });
  ASSERT_GE(s.kernels, 2u);
  const uint64_t iterations = s.kernels / 2;
  for (size_t k = 0; k < s.kernels; ++k)
    EXPECT_EQ(s.kernel_names[k], k % 2 ? "update_eta" : "calc_pi_values");
  // calc_pi_values: each edge's dst, src, sat flags and variable bounds once, its three pi stores once.
  const WarpInst& f = s.first[0];
  EXPECT_EQ(f.kind, MemKind::Load);
  EXPECT_EQ(f.pc, 0x10u);
  EXPECT_EQ(f.active_mask, 0x00ffffffu);
  EXPECT_EQ(f.addr[23] - f.addr[0], 23u * 4);
  for (uint32_t pc : {0x10u, 0x20u, 0x30u, 0x40u, 0x50u, 0x60u, 0xd0u, 0xe0u, 0xf0u})
    EXPECT_EQ(lanes_at[pc], 24 * iterations) << std::hex << pc;
  // update_eta: every edge walks its clause's 3 literals (no clause satisfied, no pi sum is 0).
  EXPECT_EQ(lanes_at[0x170], 3 * 24 * iterations);
  EXPECT_EQ(lanes_at[0x180], 3 * 24 * iterations);
  EXPECT_EQ(lanes_at[0x1e0], 24 * iterations);
  EXPECT_EQ(atomics, iterations);
  EXPECT_EQ(p->check(), "");
}

TEST(Lonestar, SpIsDeterministic) {
  expect_deterministic("lonestar/sp", "{clauses: 300, vars: 100, seed: 7, sms: 2}");
}

}  // namespace
}  // namespace gms::kernels
