// Paper 004's directions for the LLC organisations, through the CLI (one process per run): the
// sharing-intensive workload (many SMs read the same lines) runs faster under a private LLC, whose slices
// serve the shared lines in parallel; with the H-Xbar, private mode gates the MC-routers and the NoC's
// dynamic energy drops.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "tests/cli/cli_runner.h"

namespace {

std::map<std::string, double> run(const std::string& workload, const std::string& sets) {
  const std::string dir = temp_dir("llc_direction_" + workload);
  CliResult r = run_cli("run -q -c " + gms_src("configs/fermi.yaml") + " -w " +
                        gms_src("configs/workloads/" + workload + ".yaml") + " -o " + dir + " " + sets);
  EXPECT_EQ(r.status, 0) << r.out;
  auto s = read_stats_csv(dir);
  EXPECT_EQ(s.at("system.data_mismatches"), 0.0);
  return s;
}

}  // namespace

TEST(LlcDirection, SharingRunsFasterUnderAPrivateLlc) {
  const auto shared = run("sharing", ""), priv = run("sharing", "--set llc.mode=private");
  const double cs = shared.at("system.sm_cycles"), cp = priv.at("system.sm_cycles");
  std::cout << "sharing, full crossbar: shared " << cs << " cycles, private " << cp << "\n";
  EXPECT_LT(cp, 0.95 * cs);
}

TEST(LlcDirection, APrivateLlcGatesTheMcRoutersAndSavesNocEnergy) {
  const auto shared = run("small", "--set noc.type=hxbar"),
             priv = run("small", "--set noc.type=hxbar --set llc.mode=private");
  const double es = shared.at("xbar.energy_dynamic_nj"), ep = priv.at("xbar.energy_dynamic_nj");
  std::cout << "small, hxbar: NoC dynamic energy shared " << es << " nJ, private " << ep << " nJ\n";
  EXPECT_LT(ep / priv.at("xbar.req.packets"), es / shared.at("xbar.req.packets")) << "per packet";
  EXPECT_EQ(priv.at("xbar.req.mc_router0.crossbar_traversals"), 0);
  EXPECT_GT(priv.at("xbar.req.mc_router0.gated_cycles"), 0);
}
