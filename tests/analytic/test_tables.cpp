// Paper 003's worked examples (Tables 1-5) as exact tests of the model's time stamps, distances,
// latencies, effect times and MSHR put-back.
#include <gtest/gtest.h>

#include "models/analytic/rd_model.h"
#include "tests/analytic/vector_workload.h"

using namespace gms;
using namespace gms::test;

namespace {

constexpr uint32_t I = kInfDistance;

std::vector<RdAccess> run(const RdParams& p, std::vector<VKernel> ks, RdResult* out = nullptr) {
  return run_recorded(p, std::move(ks), out);
}

// One thread per warp; thread i's instructions load the given elements in order.
VKernel threads(const std::vector<std::vector<uint64_t>>& elems) {
  VKernel k;
  k.threads_per_cta = uint32_t(32 * elems.size());
  VCta c;
  for (const auto& t : elems) {
    VWarp w;
    for (uint64_t e : t) w.push_back({{elem(e)}});
    c.warps.push_back(w);
  }
  k.ctas.push_back(c);
  return k;
}

std::vector<uint32_t> distances(const std::vector<RdAccess>& r) {
  std::vector<uint32_t> d;
  for (const auto& a : r) d.push_back(a.set_distance);
  return d;
}

// The paper's Table 2-4 kernel: 4 threads, each loading x[2*tid] then x[2*tid+1].
VKernel table2_kernel() {
  return threads({{0, 1}, {2, 3}, {4, 5}, {6, 7}});
}

}  // namespace

TEST(PaperTables, Table1AddressAndLineDistances) {
  const std::vector<uint64_t> trace = {0, 5, 3, 9, 3, 3, 5};
  // Address granularity: one element per 32 B line.
  auto addr = run(RdParams::ideal(64 * 32, 0, 32), {threads({trace})});
  EXPECT_EQ(distances(addr), (std::vector<uint32_t>{I, I, I, I, 1, 0, 2}));
  // Line granularity (4 elements per line), fully associative LRU of 2 lines.
  RdResult r;
  auto line = run(RdParams::ideal(2 * 128, 0, 128), {threads({trace})}, &r);
  EXPECT_EQ(distances(line), (std::vector<uint32_t>{I, I, 1, I, 1, 0, 2}));
  std::vector<uint64_t> lines;
  for (const auto& a : line) lines.push_back(a.line / 128);
  EXPECT_EQ(lines, (std::vector<uint64_t>{0, 1, 0, 2, 0, 0, 1}));
  EXPECT_EQ(r.total.compulsory, 3u);  // 42 %
  EXPECT_EQ(r.total.capacity, 1u);    // 14 %
  EXPECT_EQ(r.total.hits, 3u);
  EXPECT_EQ(r.total.histogram_inf, 3u);
  EXPECT_EQ(r.total.histogram, (std::vector<uint64_t>{1, 2, 1}));  // Figure 1
}

TEST(PaperTables, Table2RoundRobinThreadOrder) {
  auto rec = run(RdParams::ideal(2 * 128, 0, 128), {table2_kernel()});
  ASSERT_EQ(rec.size(), 8u);
  std::vector<uint32_t> tid;
  std::vector<uint64_t> addr;
  for (const auto& a : rec) {
    tid.push_back(a.warp);
    addr.push_back(a.line / 128);
  }
  EXPECT_EQ(tid, (std::vector<uint32_t>{0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(addr, (std::vector<uint64_t>{0, 0, 1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(distances(rec), (std::vector<uint32_t>{I, 0, I, 0, 1, 0, 1, 0}));
  for (size_t i = 0; i < rec.size(); ++i) EXPECT_EQ(rec[i].time, i);
}

TEST(PaperTables, Table3FixedLatency) {
  RdParams p = RdParams::ideal(2 * 128, 0, 128);
  p.hit_latency = p.miss_latency = 2;
  auto rec = run(p, {table2_kernel()});
  ASSERT_EQ(rec.size(), 8u);
  EXPECT_EQ(distances(rec), (std::vector<uint32_t>{I, I, I, I, 0, 1, 0, 1}));
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(rec[i].time, i);
    EXPECT_EQ(rec[i].latency, 2u);
    EXPECT_EQ(rec[i].effect_at, i + 2);
    EXPECT_EQ(rec[i].outcome == RdOutcome::Hit, i >= 4) << i;
  }
  // The misses of time stamps 1 and 3 find their line in flight: latency misses.
  EXPECT_EQ(rec[1].outcome, RdOutcome::Latency);
  EXPECT_EQ(rec[3].outcome, RdOutcome::Latency);
  EXPECT_EQ(rec[0].outcome, RdOutcome::Compulsory);
}

TEST(PaperTables, Table4ConditionalLatencies) {
  RdParams p = RdParams::ideal(2 * 128, 0, 128);
  p.hit_latency = 0;
  p.miss_latency = 2;
  auto rec = run(p, {table2_kernel()});
  ASSERT_EQ(rec.size(), 8u);
  EXPECT_EQ(distances(rec), (std::vector<uint32_t>{I, I, I, I, 0, 0, 1, 0}));
  std::vector<uint32_t> lat;
  std::vector<uint64_t> eff;
  for (const auto& a : rec) {
    lat.push_back(a.latency);
    eff.push_back(a.effect_at);
  }
  EXPECT_EQ(lat, (std::vector<uint32_t>{2, 2, 2, 2, 0, 0, 0, 0}));
  EXPECT_EQ(eff, (std::vector<uint64_t>{2, 3, 4, 5, 4, 5, 6, 7}));
  for (size_t i = 4; i < 8; ++i) EXPECT_EQ(rec[i].outcome, RdOutcome::Hit);
  // Clipping: the request of time stamp 1 takes effect with the in-flight one of time stamp 0.
  p.clip = true;
  auto clipped = run(p, {table2_kernel()});
  EXPECT_EQ(clipped[1].effect_at, 2u);
  EXPECT_EQ(clipped[3].effect_at, 4u);
  EXPECT_EQ(clipped[1].outcome, RdOutcome::Latency);
}

TEST(PaperTables, Table5OneMshrCancelAndReissue) {
  RdParams p = RdParams::ideal(2 * 128, 0, 128);
  p.hit_latency = 0;
  p.miss_latency = 2;
  p.mshr_entries = 1;
  RdResult r;
  auto rec = run(p, {threads({{0, 1}, {4, 5}})}, &r);  // threads 0 and 2 of Table 4
  ASSERT_EQ(rec.size(), 5u);
  const uint32_t tid[] = {0, 1, 0, 1, 1};  // warp 1 = thread 2
  const uint64_t line[] = {0, 1, 0, 1, 1};
  const uint32_t dist[] = {I, I, 0, I, I};
  const RdOutcome st[] = {RdOutcome::Compulsory, RdOutcome::Cancelled, RdOutcome::Hit, RdOutcome::Compulsory,
                          RdOutcome::Latency};
  const uint32_t before[] = {0, 1, 0, 0, 1}, after[] = {1, 1, 0, 1, 1};
  const uint32_t lat[] = {2, 0, 0, 2, 2};
  const uint64_t eff[] = {2, kNever, 2, 5, 6};
  for (size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rec[i].time, i);
    EXPECT_EQ(rec[i].warp, tid[i]);
    EXPECT_EQ(rec[i].line / 128, line[i]);
    EXPECT_EQ(rec[i].set_distance, dist[i]);
    EXPECT_EQ(rec[i].outcome, st[i]);
    EXPECT_EQ(rec[i].mshr_before, before[i]);
    EXPECT_EQ(rec[i].mshr_after, after[i]);
    EXPECT_EQ(rec[i].latency, lat[i]);
    EXPECT_EQ(rec[i].effect_at, eff[i]);
  }
  EXPECT_EQ(r.total.cancelled, 1u);
  EXPECT_EQ(r.total.loads, 4u);
}
