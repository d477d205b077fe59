// Ordering, determinism and options: CTA placement (round-robin, then first-done first-served), seeded
// latencies, bad rd options.
#include <gtest/gtest.h>

#include "models/analytic/cta_ordering.h"
#include "models/analytic/rd_model.h"
#include "models/analytic/rd_sweep.h"
#include "models/common/config.h"
#include "tests/analytic/vector_workload.h"

using namespace gms;
using namespace gms::test;

namespace {

VKernel many_ctas(uint32_t ctas, uint32_t insts) {
  VKernel k;
  k.threads_per_cta = 64;
  for (uint32_t c = 0; c < ctas; ++c) {
    VCta cta;
    for (uint32_t w = 0; w < 2; ++w) {
      VWarp wp;
      for (uint32_t i = 0; i < insts; ++i) {
        std::vector<uint64_t> a;
        for (uint32_t l = 0; l < 32; ++l)
          a.push_back(((c * 7 + i * 3 + w) % 97) * 128 * 4 + l * 4 * (1 + i % 3));
        wp.push_back({a});
      }
      cta.warps.push_back(wp);
    }
    k.ctas.push_back(cta);
  }
  return k;
}

}  // namespace

TEST(RdOrdering, RoundRobinThenFirstDoneFirstServed) {
  RdParams p = RdParams::ideal(16384, 4, 128);
  p.cores = 3;
  p.max_ctas = 2;
  std::vector<uint32_t> core_of(20, 99);
  RdModel m(p);
  m.set_observer([&](const RdAccess& a) { core_of[a.cta] = a.core; });
  VKernel k = many_ctas(20, 3);
  // CTA 5 is short: its core gets the next CTA (6) first.
  k.ctas[4].warps[0].resize(1);
  k.ctas[4].warps[1].resize(1);
  VectorWorkload w({k});
  m.run(w);
  for (uint32_t c = 0; c < 6; ++c) EXPECT_EQ(core_of[c], c % 3) << c;
  EXPECT_EQ(core_of[6], core_of[4]);
}

TEST(RdOrdering, OccupancyLimits) {
  RdParams p;
  KernelInfo k;
  k.threads_per_cta = 512;
  EXPECT_EQ(ctas_per_core(k, p), 3u);  // 1536 threads
  k.threads_per_cta = 64;
  EXPECT_EQ(ctas_per_core(k, p), 8u);  // 8 CTAs
  k.regs_per_thread = 64;
  EXPECT_EQ(ctas_per_core(k, p), 8u);
  k.regs_per_thread = 128;
  EXPECT_EQ(ctas_per_core(k, p), 4u);
  k.shmem_per_cta = 20000;
  EXPECT_EQ(ctas_per_core(k, p), 2u);
}

TEST(RdOrdering, SeededAndDeterministic) {
  RdParams p;
  p.cores = 2;
  p.sigma = 30;
  auto run = [&](uint64_t seed) {
    p.seed = seed;
    VectorWorkload w({many_ctas(40, 6)});
    return RdModel(p).run(w).total;
  };
  RdCounts a = run(1), b = run(1), c = run(2);
  EXPECT_EQ(a.misses(), b.misses());
  EXPECT_EQ(a.latency, b.latency);
  EXPECT_EQ(a.histogram, b.histogram);
  EXPECT_EQ(a.loads, c.loads);
  EXPECT_EQ(a.loads, a.hits + a.misses() + a.latency);
}

TEST(RdOptions, BadOptionsAreConfigErrors) {
  RdParams p;
  EXPECT_THROW(p.set("nonsense=1"), ConfigError);
  EXPECT_THROW(p.set("ways"), ConfigError);
  EXPECT_THROW(p.set("sigma=abc"), ConfigError);
  EXPECT_THROW(p.set("mshr_entries=-3"), ConfigError);
  EXPECT_THROW(p.set("set_index=modulo"), ConfigError);
  p.set("line_bytes=64");  // the Fermi hash needs 128 B lines
  EXPECT_THROW(RdModel{p}, ConfigError);
  p.set("set_index=linear");
  EXPECT_NO_THROW(RdModel{p});
}

TEST(RdSweep, PointsPerParameter) {
  RdParams p;
  p.cores = 1;
  auto pts =
      rd_sweep(p, [] { return std::make_unique<VectorWorkload>(std::vector<VKernel>{many_ctas(8, 4)}); });
  size_t n[4] = {0, 0, 0, 0};
  for (const auto& pt : pts) {
    const char* names[] = {"ways", "size_bytes", "line_bytes", "mshr_entries"};
    for (int i = 0; i < 4; ++i) n[i] += pt.parameter == names[i];
    EXPECT_GT(pt.total.loads, 0u);
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(n[i], 5u) << i;
}
