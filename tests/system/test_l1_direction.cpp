// Direction tests of the L1 designs on the synthetic library (issue 11): what the papers report must hold
// in sign on CI-sized runs of the fermi preset. Each design runs in its own child process (one SystemC
// kernel per process) and reports totals over all L1s.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <stdexcept>

#include "models/common/config.h"
#include "tb/checker/golden_memory.h"
#include "tb/system/gpu_system.h"
#include "tb/workloads/workload_loader.h"
#include "tests/l1/child_process.h"

namespace {

using Totals = std::map<std::string, double>;

double value_or_zero(const gms::StatGroup& g, const std::string& path) {
  try {
    return g.value(path);
  } catch (const std::out_of_range&) {
    return 0;  // a counter only some designs have
  }
}

// Sums of the L1 counters over every SM, plus the simulated time, for one run.
Totals run(const std::string& workload, const std::vector<std::string>& overrides,
           const std::string& preset = "configs/fermi.yaml") {
  const std::string text = gms::test::in_child_process([&] {
    auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/" + preset);
    for (const auto& o : overrides) doc.apply_override(o);
    auto cfg = gms::SystemConfig::from(doc);
    auto wl = gms::load_workload_file(std::string(GMS_SOURCE_DIR) + "/" + workload);
    gms::RunOptions ro;
    ro.progress = false;
    gms::GpuSystem sys(cfg, *wl, ro);
    gms::RunResult r = sys.run();
    std::ostringstream out;
    out << "finished " << r.finished << "\n";
    out << "mismatches " << (sys.checker() ? sys.checker()->mismatches() : 0) << "\n";
    out << "sim_ns " << sys.stats().value("system.sim_time_ns") << "\n";
    for (const char* k : {"loads", "fill_bypasses", "switch_opens", "load_insts", "load_insts_missed",
                          "misses", "partial_hits", "hits", "to_l2_packets", "from_l2_packets", "to_l2_bytes",
                          "from_l2_bytes", "coarse_misses", "reservation_fails"}) {
      double sum = 0;
      for (unsigned i = 0; i < cfg.sm.count; ++i) {
        sum += value_or_zero(sys.stats(), "l1_" + std::to_string(i) + "." + k);
      }
      out << k << " " << sum << "\n";
    }
    out << "l1_1.coarse_misses " << value_or_zero(sys.stats(), "l1_1.coarse_misses") << "\n";
    return out.str();
  });
  Totals t;
  std::istringstream in(text);
  std::string k;
  double v;
  while (in >> k >> v) t[k] = v;
  EXPECT_EQ(t["finished"], 1) << workload << " did not finish";
  EXPECT_EQ(t["mismatches"], 0) << workload;
  return t;
}

double inst_miss_rate(Totals& t) {
  return t["load_insts_missed"] / t["load_insts"];
}
double l1_l2_bytes(Totals& t) {
  return t["to_l2_packets"] * 32 + t["from_l2_bytes"];
}

const char* kKmeans = "tests/data/l1/kmeans_contention.yaml";
const std::vector<std::string> kContention = {"sm.scheduler=lrr", "sm.max_ctas=1"};

// Paper 000 sec. 5.2-5.3: on poor spatial locality TSC has fewer misses and less L1<->L2 traffic than the
// 128 B baseline and the sector cache (which fetches little but cannot reuse the space it leaves empty).
TEST(L1Direction, TscHasFewerMissesAndLessTrafficThanBaselineAndSectorOnKmeans) {
  auto with = [](const std::string& d) {
    auto o = kContention;
    o.push_back("l1.design=" + d);
    return run(kKmeans, o);
  };
  Totals base = with("baseline"), sector = with("sector"), tsc = with("tsc");
  EXPECT_LT(inst_miss_rate(tsc), inst_miss_rate(base));
  EXPECT_LT(inst_miss_rate(tsc), inst_miss_rate(sector));
  EXPECT_LT(l1_l2_bytes(tsc), l1_l2_bytes(base));
  EXPECT_LT(l1_l2_bytes(tsc), l1_l2_bytes(sector));
  EXPECT_LT(tsc["sim_ns"], base["sim_ns"]);
  std::printf("kmeans inst miss rate: baseline %.3f sector %.3f tsc %.3f; L1<->L2 bytes %.0f %.0f %.0f\n",
              inst_miss_rate(base), inst_miss_rate(sector), inst_miss_rate(tsc), l1_l2_bytes(base),
              l1_l2_bytes(sector), l1_l2_bytes(tsc));
}

// Paper 000 sec. 3.5: a stream that uses whole lines, one chunk per instruction, makes TSC+ choose coarse
// storage for every SM (followers of SM 1 fetch whole lines) and so fewer requests than TSC.
TEST(L1Direction, TscPlusPicksCoarseModeOnFullLineStreaming) {
  Totals tsc = run("tests/data/l1/chunk_streaming.yaml", {"l1.design=tsc"});
  Totals plus = run("tests/data/l1/chunk_streaming.yaml", {"l1.design=tsc_plus"});
  EXPECT_GT(plus["l1_1.coarse_misses"], 0);
  EXPECT_LT(plus["to_l2_packets"], 0.5 * tsc["to_l2_packets"]);
  EXPECT_LT(inst_miss_rate(plus), inst_miss_rate(tsc));
  std::printf("chunk streaming requests to L2: tsc %.0f tsc_plus %.0f\n", tsc["to_l2_packets"],
              plus["to_l2_packets"]);
}

// Paper 000 sec. 2.2, figures 4 and 5: smaller lines store more of a poorly local stream (kmeans misses
// less with 32 B lines) but coalescing to the line size multiplies the requests of a coalesced stream.
TEST(L1Direction, SmallLinesMissLessOnKmeansButSendMoreRequestsOnCoalescedStreams) {
  auto with = [](const std::string& workload, unsigned line_bytes, std::vector<std::string> o) {
    o.push_back("l1.line_bytes=" + std::to_string(line_bytes));
    o.push_back("l1.set_index=linear");
    return run(workload, o);
  };
  Totals k128 = with(kKmeans, 128, kContention), k32 = with(kKmeans, 32, kContention);
  EXPECT_LT(inst_miss_rate(k32), inst_miss_rate(k128));
  Totals s128 = with("configs/workloads/mix.yaml", 128, {}), s32 = with("configs/workloads/mix.yaml", 32, {});
  EXPECT_GT(s32["to_l2_packets"], 1.3 * s128["to_l2_packets"]);
  std::printf("kmeans inst miss rate 128 B %.3f 32 B %.3f; mix requests to L2 128 B %.0f 32 B %.0f\n",
              inst_miss_rate(k128), inst_miss_rate(k32), s128["to_l2_packets"], s32["to_l2_packets"]);
}

// Paper 001 sec. 5: on a hot/cold mix (hot lines reused among streaming ones, SpMV's vector among its
// matrix) G-Cache's bypass-on-fill lowers the L1 miss rate; 3-bit SRRIP alone does not get there.
TEST(L1Direction, GCacheLowersTheMissRateOfAHotColdMix) {
  const std::string wl = "tests/data/gcache_hotcold.yaml", tiny = "configs/tiny.yaml";
  Totals lru = run(wl, {"l1.design=baseline"}, tiny);
  Totals srrip = run(wl, {"l1.design=baseline", "l1.replacement=srrip"}, tiny);
  Totals gc = run(wl, {"l1.design=gcache"}, tiny);
  auto miss_rate = [](Totals& t) { return t["misses"] / t["loads"]; };
  for (Totals* t : {&lru, &srrip, &gc}) EXPECT_EQ((*t)["loads"], 4096);
  std::printf("L1 miss rate: lru %.4f  srrip %.4f  gcache %.4f (fill_bypasses %.0f, switch_opens %.0f)\n",
              miss_rate(lru), miss_rate(srrip), miss_rate(gc), gc["fill_bypasses"], gc["switch_opens"]);
  EXPECT_GT(gc["fill_bypasses"], 0);
  EXPECT_GT(gc["switch_opens"], 0);
  EXPECT_LT(miss_rate(gc), miss_rate(lru) - 0.03);  // measured: 0.5081 vs 0.5623
  EXPECT_LT(miss_rate(gc), miss_rate(srrip));
}

}  // namespace
