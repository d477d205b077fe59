// Paper 004's directions for the LLC organisations, through the CLI (one process per run), on the fermi
// preset with an H-Xbar and two-level round-robin CTA scheduling (tests/data/llc_adaptive/):
// - sharing (every CTA reads one 256 KiB table): faster under a private LLC; the adaptive controller
//   picks private (Rule 1: its ATD predicts a private miss rate close to the shared one);
// - footprint (every CTA reads random words of a 512 KiB table: fits the LLC, not a cluster's half):
//   private misses far more; the ATD predicts that within 5 points of a real private run, the adaptive
//   controller stays shared, and shared runs faster (with 2 VCs per H-Xbar port; see the test);
// - nosharing (each warp streams its own data): neutral, adaptive goes private by Rule 1 and the NoC
//   spends less energy (MC-routers gated).
// Each run prints its numbers beside the paper's expectation.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

using Stats = std::map<std::string, double>;

Stats run(const std::string& workload, const std::string& mode, const std::string& config = "fermi",
          const std::string& noc = "hxbar", std::string* timeline = nullptr, const std::string& extra = "") {
  const std::string dir =
      temp_dir("llc_direction_" + workload + "_" + mode + "_" + noc + (extra.empty() ? "" : "_x"));
  // Windows short enough for these runs (the paper's are 50K cycles in 1M-cycle epochs).
  CliResult r =
      run_cli("run -q -c " + gms_src("configs/" + config + ".yaml") + " -w " +
              gms_src("tests/data/llc_adaptive/" + workload + ".yaml") + " -o " + dir +
              " --set noc.type=" + noc + " --set system.cta_order=clusters --set llc.mode=" + mode +
              " --set llc.adaptive.profile_cycles=10000 --set llc.adaptive.epoch_cycles=60000 " + extra);
  EXPECT_EQ(r.status, 0) << r.out;
  Stats s = read_stats_csv(dir);
  EXPECT_EQ(s.at("system.data_mismatches"), 0.0);
  if (timeline) *timeline = read_file(dir + "/llc_timeline.txt");
  return s;
}

// The ATD's predicted private miss rates of the windows that switched to private (llc_timeline.txt lines
// "... shared->private ruleN: miss private X shared Y ...").
std::vector<double> switching_predictions(const std::string& timeline) {
  std::vector<double> v;
  std::istringstream in(timeline);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find("shared->private rule");
    const size_t m = line.find("miss private ", at);
    if (at != std::string::npos && m != std::string::npos) v.push_back(std::stod(line.substr(m + 13)));
  }
  return v;
}

double llc_miss_rate(const Stats& s) {
  double acc = 0, hits = 0;
  for (int i = 0; i < 12; ++i) {
    acc += s.at("llc" + std::to_string(i) + ".accesses");
    hits += s.at("llc" + std::to_string(i) + ".hits");
  }
  return 1.0 - hits / acc;
}

}  // namespace

TEST(LlcDirection, SharingRunsFasterPrivateAndAdaptivePicksPrivate) {
  std::string timeline;
  const Stats sh = run("sharing", "shared"), pr = run("sharing", "private"),
              ad = run("sharing", "adaptive", "fermi", "hxbar", &timeline);
  const double cs = sh.at("system.sm_cycles"), cp = pr.at("system.sm_cycles"), ca = ad.at("system.sm_cycles");
  std::cout << "sharing: SM cycles shared " << cs << ", private " << cp << ", adaptive " << ca
            << "; adaptive rule 1/2 " << ad.at("llc_adaptive.rule1") << "/" << ad.at("llc_adaptive.rule2")
            << ", ATD private miss " << ad.at("llc_adaptive.predicted_private_miss_rate")
            << " vs private run " << llc_miss_rate(pr) << "\n";
  EXPECT_LT(cp, 0.9 * cs);
  EXPECT_GE(ad.at("llc_mode.to_private"), 1);
  EXPECT_LT(ca, cs);
  // The windows that decided were warm: their prediction is within 5 points of the private run. (Windows
  // right after a P->S switch see a just-invalidated LLC and predict high; they keep the LLC shared.)
  const std::vector<double> pred = switching_predictions(timeline);
  ASSERT_FALSE(pred.empty()) << timeline;
  for (double p : pred) EXPECT_NEAR(p, llc_miss_rate(pr), 0.05) << timeline;
}

TEST(LlcDirection, ALargeSharedFootprintStaysShared) {
  const Stats sh = run("footprint", "shared"), pr = run("footprint", "private"),
              ad = run("footprint", "adaptive");
  const double ms = llc_miss_rate(sh), mp = llc_miss_rate(pr);
  std::cout << "footprint: LLC miss rate shared " << ms << ", private " << mp << "; ATD predicted "
            << ad.at("llc_adaptive.predicted_private_miss_rate") << "; SM cycles shared "
            << sh.at("system.sm_cycles") << ", private " << pr.at("system.sm_cycles") << "\n";
  EXPECT_GT(mp, ms + 0.2);
  EXPECT_NEAR(ad.at("llc_adaptive.predicted_private_miss_rate"), mp, 0.05);
  EXPECT_GE(ad.at("llc_adaptive.windows"), 1);
  EXPECT_EQ(ad.at("llc_mode.to_private"), 0);
  // Shared runs faster where the NoC lets it: with one VC per port the H-Xbar's two router stages
  // head-of-line block in shared mode (the bypass does not), which costs more than private's misses here
  // (docs/results/paper004_adaptive_llc.md); with 2 VCs, or on the one-hop crossbar, shared wins.
  const std::string vc2 = "--set noc.router.vcs=2";
  const Stats s2 = run("footprint", "shared", "fermi", "hxbar", nullptr, vc2),
              p2 = run("footprint", "private", "fermi", "hxbar", nullptr, vc2),
              a2 = run("footprint", "adaptive", "fermi", "hxbar", nullptr, vc2);
  const Stats fs = run("footprint", "shared", "fermi", "full"),
              fp = run("footprint", "private", "fermi", "full");
  std::cout << "footprint, SM cycles shared / private: hxbar 1 VC " << sh.at("system.sm_cycles") << " / "
            << pr.at("system.sm_cycles") << ", hxbar 2 VCs " << s2.at("system.sm_cycles") << " / "
            << p2.at("system.sm_cycles") << ", full crossbar " << fs.at("system.sm_cycles") << " / "
            << fp.at("system.sm_cycles") << "\n";
  EXPECT_LT(s2.at("system.sm_cycles"), p2.at("system.sm_cycles"));
  EXPECT_EQ(a2.at("llc_mode.to_private"), 0);
  EXPECT_LE(fs.at("system.sm_cycles"), fp.at("system.sm_cycles"));
}

TEST(LlcDirection, NoSharingIsNeutralAdaptiveGoesPrivateAndSavesNocEnergy) {
  const Stats sh = run("nosharing", "shared"), pr = run("nosharing", "private"),
              ad = run("nosharing", "adaptive");
  const double cs = sh.at("system.sm_cycles"), cp = pr.at("system.sm_cycles");
  std::cout << "nosharing: SM cycles shared " << cs << ", private " << cp << "; NoC energy shared "
            << sh.at("xbar.energy_nj") << " nJ, adaptive " << ad.at("xbar.energy_nj") << " nJ\n";
  EXPECT_NEAR(cp / cs, 1.0, 0.05);
  EXPECT_GE(ad.at("llc_adaptive.rule1"), 1);
  EXPECT_LT(ad.at("xbar.energy_nj"), sh.at("xbar.energy_nj"));
  EXPECT_LT(pr.at("xbar.energy_nj"), sh.at("xbar.energy_nj"));
  EXPECT_GT(pr.at("xbar.req.mc_router0.gated_cycles"), 0);
}
