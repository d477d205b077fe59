// The run always ends, at the right simulated time, and fits in memory: far-away events are reached,
// system.max_time_us and system.watchdog_us fire at their exact simulated time, a huge in-flight limit costs
// nothing, a system that cannot fit is refused before it is built, and the summary reports both wall times.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>

#include "tests/cli/cli_runner.h"

namespace {

// An sc_time as SystemC prints it ("1288056 ps", "5 us", "0 s") in picoseconds; -1 if not one.
double ps_of(const std::string& text) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex("([0-9.]+) (fs|ps|ns|us|ms|s)"))) return -1;
  const std::string u = m[2].str();
  const double scale = u == "fs"   ? 1e-3
                       : u == "ps" ? 1
                       : u == "ns" ? 1e3
                       : u == "us" ? 1e6
                       : u == "ms" ? 1e9
                                   : 1e12;
  return std::stod(m[1].str()) * scale;
}

// configs/workloads/small.yaml with the gap of its first kernel (`first`) and of its second (`second`).
std::string small_with_gaps(const std::string& first, const std::string& second) {
  std::string w = read_file(gms_src("configs/workloads/small.yaml"));
  const auto a = w.find("gap: 1\n");
  w.replace(a, 7, "gap: " + first + "\n");
  const auto b = w.find("gap: 1\n", a + 5 + first.size());
  w.replace(b, 7, "gap: " + second + "\n");
  return w;
}

class HardeningRun : public ::testing::Test {
 protected:
  void SetUp() override { dir = temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name()); }
  CliResult run_tiny(const std::string& workload_path, const std::string& extra) {
    return run_bounded("run -q -c " + gms_src("configs/tiny.yaml") + " -w " + workload_path + " -o " + dir +
                       "/out " + extra);
  }
  std::string write_workload(const std::string& text) {
    write_file(dir + "/w.yaml", text);
    return dir + "/w.yaml";
  }
  std::string dir;
};

void expect_clean_finish(const CliResult& r) {
  EXPECT_EQ(r.status, 0) << r.out.substr(0, 2000);
  EXPECT_EQ(r.out.find("W571"), std::string::npos) << r.out.substr(0, 2000);
  EXPECT_EQ(summary_value(r.out, "data mismatches"), 0) << r.out.substr(0, 2000);
  EXPECT_EQ(summary_value(r.out, "warp memory instructions"), 512) << r.out.substr(0, 2000);
}

}  // namespace

// Every warp instruction waits 50,000 SM cycles (35.7 us at 1400 MHz), far more than one run slice: the
// run reaches each of them and takes 2 kernels x 8 instructions x 50,000 cycles, plus the memory's time.
TEST_F(HardeningRun, FarGapBetweenInstructionsFinishes) {
  CliResult r = run_tiny(write_workload(small_with_gaps("50000", "50000")), "");
  expect_clean_finish(r);
  const double ns = summary_value(r.out, "simulated time");
  EXPECT_GE(ns, 2 * 8 * 50000 / 1.4) << r.out;
  EXPECT_LT(ns, 2 * 8 * 50000 / 1.4 + 20000) << r.out;
}

// A 1 MHz DRAM: each access is microseconds away from the last event.
TEST_F(HardeningRun, VerySlowDramFinishes) {
  CliResult r = run_tiny(gms_src("configs/workloads/small.yaml"), "--set dram.clock_mhz=1");
  expect_clean_finish(r);
  // The default DRAM (924 MHz) finishes in a few microseconds; at 1 MHz the DRAM dominates: milliseconds.
  EXPECT_GT(summary_value(r.out, "simulated time"), 1e6) << r.out;
  EXPECT_LT(summary_value(r.out, "simulated time"), 1e8) << r.out;
}

// An LLC latency of 10,000 cycles (14.3 us at 700 MHz): every miss waits longer than a run slice.
TEST_F(HardeningRun, VeryLongLlcLatencyFinishes) {
  CliResult r = run_tiny(gms_src("configs/workloads/small.yaml"), "--set llc.latency=10000");
  expect_clean_finish(r);
  EXPECT_GT(summary_value(r.out, "simulated time"), 10000 / 0.7) << r.out;
  EXPECT_LT(summary_value(r.out, "simulated time"), 1e7) << r.out;
}

TEST_F(HardeningRun, MaxTimeStopsAtExactlyThatTime) {
  CliResult r = run_tiny(gms_src("configs/workloads/small.yaml"), "--set system.max_time_us=10");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("reached system.max_time_us (10 us) before the workload finished, at 10 us"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(summary_value(r.out, "simulated time"), 10000.0) << r.out;
}

// The limit falls between two far-apart events: time moves to it exactly, not to the next event.
TEST_F(HardeningRun, MaxTimeStopsExactlyBetweenFarEvents) {
  CliResult r = run_tiny(write_workload(small_with_gaps("50000", "50000")), "--set system.max_time_us=100");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("reached system.max_time_us (100 us) before the workload finished, at 100 us"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(summary_value(r.out, "simulated time"), 100000.0) << r.out;
}

// Loads wait for a 1 MHz DRAM (microseconds per command) after the LLC has acknowledged the stores: with a
// 5 us watchdog the run stops exactly 5 us after the last completed request, not at a slice boundary, and
// says what it waited for.
TEST_F(HardeningRun, WatchdogFiresExactlyAfterTheLastCompletion) {
  CliResult r =
      run_tiny(gms_src("configs/workloads/small.yaml"), "--set dram.clock_mhz=1 --set system.watchdog_us=5");
  EXPECT_EQ(r.status, 3) << r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m,
                                std::regex("no request completed for 5 us of simulated time \\(livelock, "
                                           "system.watchdog_us\\): the last completed at ([^,]+), stopped at "
                                           "([^;]+); waiting for: ([^\n]+)\n")))
      << r.out;
  const double last = ps_of(m[1].str()), stopped = ps_of(m[2].str());
  EXPECT_GT(last, 0) << r.out;
  EXPECT_EQ(stopped - last, 5e6) << r.out;
  EXPECT_NEAR(summary_value(r.out, "simulated time"), stopped / 1e3, 0.05) << r.out;
  // The SM, its L1 and the LLC still hold requests without responses (the loads waiting for the DRAM).
  EXPECT_TRUE(std::regex_search(m[3].str(), std::regex("sm0: [0-9]+ requests, [0-9]+ responses"))) << r.out;
}

// No request completes before the watchdog: loads only, each waiting for a 1 MHz DRAM, the first sent after
// 1,000 compute cycles. The watchdog counts from that first request, not from the start of the run.
TEST_F(HardeningRun, WatchdogCountsFromTheFirstRequestWhenNothingCompleted) {
  const std::string loads =
      "workload:\n  name: loads\n  kernels:\n    - name: read\n      pattern: streaming\n      grid: 2\n"
      "      block: 64\n      insts_per_warp: 2\n      width: 4\n      gap: 1000\n      base: 0x100000\n";
  CliResult r = run_tiny(write_workload(loads), "--set dram.clock_mhz=1 --set system.watchdog_us=5");
  EXPECT_EQ(r.status, 3) << r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m,
                                std::regex("no request completed for 5 us of simulated time \\(livelock, "
                                           "system.watchdog_us\\): none since a request was sent at ([^,]+), "
                                           "stopped at ([^;]+); waiting for: ")))
      << r.out;
  const double sent = ps_of(m[1].str()), stopped = ps_of(m[2].str());
  EXPECT_GE(sent, 1000 * 714.0) << r.out;  // after the first gap (an SM cycle is 714 ps)
  EXPECT_EQ(stopped - sent, 5e6) << r.out;
}

// A compute gap is a timer, not a livelock: nothing waits for a response while the warps compute. Between the
// kernels (the first completes its requests) every warp computes 35.7 us before its first instruction, and a
// 5 us watchdog does not fire; nor does the default one during gaps of 2^32 - 1 cycles (3.07 s each).
TEST_F(HardeningRun, ComputeGapLongerThanTheWatchdogIsNoLivelock) {
  CliResult r = run_tiny(write_workload(small_with_gaps("1", "50000")), "--set system.watchdog_us=5");
  expect_clean_finish(r);
  EXPECT_GE(summary_value(r.out, "simulated time"), 8 * 50000 * 0.714) << r.out;
}

TEST_F(HardeningRun, ComputeGapOfTwoToThe32CyclesFinishes) {
  CliResult r = run_tiny(write_workload(small_with_gaps("4294967295", "1")), "");
  expect_clean_finish(r);
  EXPECT_GE(summary_value(r.out, "simulated time"), 8 * 4294967295.0 * 0.714) << r.out;  // 714 ps cycles
  EXPECT_EQ(r.out.find("livelock"), std::string::npos) << r.out;
}

// Controller timers far beyond the last request are not traffic: the run ends when the traffic has drained.
// A forced LLC switch every 10^9 cycles (1.4 s) and an adaptive LLC whose first window closes after 10^11
// cycles used to end in "in-flight traffic did not drain" (exit 3) after the workload finished.
TEST_F(HardeningRun, FarForcedSwitchIsNotUndrainedTraffic) {
  CliResult r = run_tiny(gms_src("configs/workloads/small.yaml"), "--set llc.force_switch_cycles=1000000000");
  expect_clean_finish(r);
  EXPECT_LT(summary_value(r.out, "simulated time"), 1e6) << r.out;
}

TEST_F(HardeningRun, FarAdaptiveWindowIsNotUndrainedTraffic) {
  CliResult r = run_tiny(gms_src("configs/workloads/small.yaml"),
                         "--set llc.mode=adaptive --set llc.adaptive.epoch_cycles=1000000000000 "
                         "--set llc.adaptive.profile_cycles=100000000000");
  expect_clean_finish(r);
  EXPECT_LT(summary_value(r.out, "simulated time"), 1e6) << r.out;
}

// 128 SMs with the largest in-flight limit: each SM used to fill 65,535 instruction records (~22 MB) up
// front, 2.8 GB in all, std::bad_alloc under a 2 GB limit. The tables now grow with what is in flight: 1 GiB
// of address space is plenty.
TEST_F(HardeningRun, LargestInFlightLimitOnManySmsFitsInLittleMemory) {
  CliResult r = run_bounded("run -q -c " + gms_src("configs/tiny.yaml") + " -w " +
                                gms_src("configs/workloads/small.yaml") + " -o " + dir +
                                " --set sm.count=128 --set sm.max_outstanding_per_sm=65535",
                            1 << 20);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(summary_value(r.out, "data mismatches"), 0) << r.out;
  EXPECT_EQ(summary_value(r.out, "warp memory instructions"), 512) << r.out;
}

// 4,096 SMs with 1 GiB L1s each (5.1 TiB with tags and heap overhead) is refused before anything is built:
// exit 2, one line naming the keys and the estimate against the limit, never std::bad_alloc.
TEST_F(HardeningRun, SystemThatCannotFitIsRefusedUpFront) {
  CliResult r = run_bounded("run -q -c " + gms_src("configs/tiny.yaml") + " -w " +
                                gms_src("configs/workloads/small.yaml") + " -o " + dir +
                                " --set sm.count=4096 --set l1.size_bytes=1073741824",
                            4 << 20);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(
      r.out.find("gpumemsys: error: the configured system needs about 5.1 TiB of memory, more than the "),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("L1 caches 4.9 TiB (sm.count 4096 x (l1.size_bytes 1073741824"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

// system.memory_limit_mb sets the limit: a 64 MiB LLC slice (about 94 MiB with its tags) exceeds 32 MiB.
TEST_F(HardeningRun, MemoryLimitKeyRefusesALargeLlc) {
  const std::string base = "run -q -c " + gms_src("configs/tiny.yaml") + " -w " +
                           gms_src("configs/workloads/small.yaml") + " -o " + dir +
                           " --set llc.size_bytes=67108864 --set system.memory_limit_mb=";
  CliResult r = run_bounded(base + "32");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(
      r.out.find("more than the 32.0 MiB limit (system.memory_limit_mb): LLC slices 94.0 MiB (llc.slices 1 x "
                 "(llc.size_bytes 67108864"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  // The same system runs under a limit it fits.
  CliResult ok = run_bounded(base + "1024");
  EXPECT_EQ(ok.status, 0) << ok.out;
}

// Setting up 512 SMs (inputs read, system built) takes a noticeable share of the wall time: the summary shows
// it beside the simulation's (it used to show the simulation alone), and stats.json stays free of wall-clock
// figures.
TEST_F(HardeningRun, SummaryShowsSetUpAndSimulationWallTime) {
  CliResult r = run_tiny(gms_src("configs/workloads/small.yaml"), "--set sm.count=512");
  ASSERT_EQ(r.status, 0) << r.out;
  const double building = summary_value(r.out, "wall-clock time, set-up");
  const double simulation = summary_value(r.out, "wall-clock time, simulation");
  EXPECT_GT(building, 0) << r.out;  // 512 SMs and L1s take far more than the 5 ms that print as 0.01
  EXPECT_GE(simulation, 0) << r.out;
  EXPECT_EQ(r.out.find("  wall-clock time  "), std::string::npos) << r.out;  // no ambiguous single figure
  // The simulation's CPU time, split: user and system (page faults), both present and not negative.
  EXPECT_GE(summary_value(r.out, "CPU time, simulation, user"), 0) << r.out;
  EXPECT_GE(summary_value(r.out, "CPU time, simulation, system"), 0) << r.out;
  const std::string json = read_file(dir + "/out/stats.json");
  ASSERT_GT(json.size(), 1000u);
  EXPECT_EQ(json.find("wall"), std::string::npos);
  EXPECT_EQ(json.find("CPU time"), std::string::npos);
}
