// The volta80-hxbar preset (paper 004's Table 1 baseline; docs/presets.md): its shape as the paper gives
// it (80 SMs, 8 MCs x 8 slices of 48 sets, 6 MB of LLC, an H-Xbar of 8 SM-routers and 8 MC-routers, 900
// GB/s), and the short workloads under a shared and a private LLC with 0 mismatches and every request
// answered. One process per case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/common/sm_clusters.h"
#include "models/noc/router/topology.h"
#include "tests/system/system_case.h"

namespace {

using gms::test::Case;
using gms::test::make_case;

TEST(VoltaPreset, ShapeIsPaper004sTable1) {
  const gms::SystemConfig cfg = gms::test::load_config("volta80-hxbar", {});
  EXPECT_EQ(cfg.sm.count, 80u);
  EXPECT_EQ(cfg.sm.max_threads, 2048u);
  EXPECT_EQ(cfg.sm.schedulers, 2u);
  EXPECT_EQ(cfg.l1.size_bytes, 48u * 1024);
  EXPECT_EQ(cfg.l1.ways, 6u);
  EXPECT_EQ(cfg.l1.sets(), 64u);
  EXPECT_EQ(cfg.llc.slices, 64u);
  EXPECT_EQ(cfg.dram.channels, 8u);
  EXPECT_EQ(cfg.llc.slices / cfg.dram.channels, 8u) << "8 slices per memory controller";
  EXPECT_EQ(cfg.llc.size_bytes, 96u * 1024);
  EXPECT_EQ(cfg.llc.ways, 16u);
  EXPECT_EQ(cfg.llc.sets(), 48u);
  EXPECT_EQ(uint64_t(cfg.llc.slices) * cfg.llc.size_bytes, 6ull << 20) << "6 MB of LLC";
  EXPECT_EQ(cfg.llc.latency, 120u);
  EXPECT_EQ(cfg.llc.mode, "shared");
  EXPECT_EQ(cfg.dram.banks, 16u);
  EXPECT_NEAR(cfg.dram.channels * cfg.dram.peak_gbps(), 900.0, 1.0) << "Table 1: 900 GB/s";

  // The H-Xbar: 8 SM-routers (one per cluster of 10 SMs) and 8 MC-routers, built from the preset.
  EXPECT_EQ(cfg.noc.type, "hxbar");
  EXPECT_EQ(cfg.noc.hxbar.clusters, 8u);
  EXPECT_EQ(cfg.noc.flit_bytes, 32u);
  EXPECT_EQ(cfg.noc.router.pipeline, 4u);
  EXPECT_EQ(cfg.noc.router.vcs, 1u);
  EXPECT_EQ(cfg.noc.router.vc_buffer_flits, 8u);
  const gms::Topology t =
      gms::build_topology(cfg.noc, cfg.sm.count, cfg.llc.slices, false, cfg.llc.slices / cfg.dram.channels);
  unsigned sm_routers = 0, mc_routers = 0;
  for (const auto& r : t.routers) {
    if (r.name.rfind("sm_router", 0) == 0) ++sm_routers;
    if (r.name.rfind("mc_router", 0) == 0) ++mc_routers;
  }
  EXPECT_EQ(sm_routers, 8u);
  EXPECT_EQ(mc_routers, 8u);
  for (unsigned sm = 0; sm < cfg.sm.count; ++sm)
    EXPECT_EQ(gms::sm_cluster(sm, cfg.sm.count, 8), sm / 10) << "clusters of 10 SMs, SM " << sm;
}

std::vector<Case> volta_cases() {
  std::vector<Case> v;
  for (const char* w : {"small", "sharing", "mix"}) {
    v.push_back(make_case("volta80-hxbar", "shared", w, {"llc.mode=shared"}));
    v.push_back(make_case("volta80-hxbar", "private", w, {"llc.mode=private"}));
  }
  return v;
}

class VoltaPresetRuns : public ::testing::TestWithParam<Case> {};

TEST_P(VoltaPresetRuns, EveryByteCheckedAndEveryRequestAnswered) {
  const Case& c = GetParam();
  auto sys = gms::test::run_checked(c);
  ASSERT_TRUE(sys);
  const gms::StatGroup& s = sys->stats();
  if (c.name.find("private") != std::string::npos) {
    // Private: the MC-routers are bypassed, so request flits cross only the SM-routers' switches.
    EXPECT_GT(s.value("xbar.req.bypassed_flits"), 0);
    EXPECT_GE(s.value("llc_mode.kernel_flushes"), 1) << "the private slices are flushed at kernel ends";
  } else {
    EXPECT_EQ(s.value("xbar.req.bypassed_flits"), 0);
  }
}

// Names like volta80-hxbar_shared_small: gtest allows only alphanumerics and '_'.
std::string volta_name(const ::testing::TestParamInfo<Case>& i) {
  std::string n = i.param.name;
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(SharedAndPrivate, VoltaPresetRuns, ::testing::ValuesIn(volta_cases()), volta_name);

}  // namespace
