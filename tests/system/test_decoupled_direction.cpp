// Direction of the Decoupled L1D (paper 002 sec. 6.1) on the tiny preset with 4 SMs (SM 0 design, SM 1
// baseline, SMs 2-3 follow the duel): fewer reservation fails and fewer cycles on a cache-unfriendly
// stream, at most 2 % more simulated time on a cache-friendly one, and the duel moving the followers to
// the design or the baseline as the stream asks. Each run is a gpumemsys child process (one SystemC
// elaboration per process), compared through stats.csv.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "tests/cli/cli_runner.h"

namespace {

using Stats = std::map<std::string, double>;

// Runs `workload` (tests/data/decoupled/) with the given L1 design; returns stats.csv as path -> value.
Stats run(const std::string& workload, const std::string& design) {
  const std::string dir = temp_dir("decoupled_" + workload + "_" + design);
  CliResult r = run_cli("run -q -c " + gms_src("configs/tiny.yaml") + " -w " +
                        gms_src("tests/data/decoupled/" + workload + ".yaml") + " -o " + dir +
                        " --set sm.count=4 --set l1.design=" + design);
  EXPECT_EQ(r.status, 0) << r.out;
  Stats s = read_stats_csv(dir);
  EXPECT_EQ(s.at("system.data_mismatches"), 0.0);
  return s;
}

double follower_loads(const Stats& s, const std::string& mode) {
  return s.at("l1_2." + mode + "_loads") + s.at("l1_3." + mode + "_loads");
}

}  // namespace

TEST(DecoupledDirection, CacheUnfriendlyStreamHasFewerReservationFailsAndCycles) {
  Stats base = run("cnf", "baseline"), dec = run("cnf", "decoupled");
  const double rf_b = base.at("system.l1_reservation_fails"), rf_d = dec.at("system.l1_reservation_fails");
  const double t_b = base.at("system.sim_time_ns"), t_d = dec.at("system.sim_time_ns");
  std::cout << "cnf: reservation fails " << rf_b << " -> " << rf_d << ", sim ns " << t_b << " -> " << t_d
            << "\n";
  EXPECT_LT(rf_d, 0.5 * rf_b);
  EXPECT_LT(t_d, 0.95 * t_b);
  EXPECT_GT(follower_loads(dec, "design"), 4 * follower_loads(dec, "baseline"));  // the duel chose the design
}

TEST(DecoupledDirection, CacheFriendlyStreamIsAtMostTwoPercentSlower) {
  Stats base = run("cf", "baseline"), dec = run("cf", "decoupled");
  const double t_b = base.at("system.sim_time_ns"), t_d = dec.at("system.sim_time_ns");
  std::cout << "cf: sim ns " << t_b << " -> " << t_d << "\n";
  EXPECT_LE(t_d, 1.02 * t_b);
}

TEST(DecoupledDirection, DuelKeepsTheFollowersOnTheBaselineForShortReuse) {
  Stats dec = run("stencil", "decoupled");
  const double d = follower_loads(dec, "design"), b = follower_loads(dec, "baseline");
  std::cout << "stencil: follower loads design " << d << ", baseline " << b << "\n";
  EXPECT_GT(b, 4 * d);
  EXPECT_GT(dec.at("l1_0.bypasses"), 0.0);
  EXPECT_EQ(dec.at("l1_1.bypasses"), 0.0);  // SM 1 always runs the baseline
}
