// Configuration errors of issue 29, through the real binary: every one is found before the run (exit 2,
// one line naming the key, never exit 3 from a block's constructor), limits that combine keys name the
// --set that broke them, and keys a mode does not use are not checked against that mode.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/cli/cli_runner.h"

class CliConfigChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = temp_dir(std::string("cc_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    tiny = gms_src("configs/tiny.yaml");
    small = gms_src("configs/workloads/small.yaml");
  }
  CliResult run_tiny(const std::string& sets) {
    return run_cli("run -q -c " + tiny + " -w " + small + " -o " + dir + "/out " + sets);
  }
  CliResult run_config(const std::string& text, const std::string& sets = "") {
    write_file(dir + "/c.yaml", read_file(tiny) + text);
    return run_cli("run -q -c " + dir + "/c.yaml -w " + small + " -o " + dir + "/out " + sets);
  }
  void expect_error(const CliResult& r, const std::string& expect) { EXPECT_INPUT_ERROR(r, expect); }
  std::string dir, tiny, small;
};

// On main: exit 3, "replacement: ways must be in [1, 64]" from the DSC's constructor.
TEST_F(CliConfigChecks, DscTagsBeyond64AreBadInputNamingBothKeys) {
  expect_error(
      run_tiny("--set l1.design=dsc --set l1.ways=32 --set l1.dsc.tags_per_frame=4"),
      "--set l1.dsc.tags_per_frame=4: l1.dsc.tags_per_frame: l1.ways x l1.dsc.tags_per_frame = 32 x 4 = "
      "128 exceeds 64 (the tags of a set)");
  // tags_per_frame left at its default (2): the ways are what the user wrote.
  expect_error(run_tiny("--set l1.design=dsc --set l1.ways=64 --set l1.size_bytes=8192"),
               "--set l1.ways=64: l1.ways: l1.ways x l1.dsc.tags_per_frame = 64 x 2 = 128 exceeds 64");
  // Another design ignores the dsc section: the same values are fine.
  EXPECT_EQ(run_tiny("--set l1.ways=32 --set l1.dsc.tags_per_frame=4").status, 0);
}

// On main: exit 2 "sampled_sets (8) exceeds the slice's sets (3)" for a shared LLC that has no ATD.
TEST_F(CliConfigChecks, AdaptiveOnlyKeysAreNotCheckedAgainstASharedLlc) {
  const std::string three_sets = "--set llc.size_bytes=3072 --set llc.set_index=linear";
  CliResult r = run_tiny(three_sets);
  EXPECT_EQ(r.status, 0) << r.out;
  // Set explicitly but unused by the mode: range-checked, accepted (docs/blocks/llc.md).
  r = run_tiny(three_sets + " --set llc.adaptive.sampled_sets=16");
  EXPECT_EQ(r.status, 0) << r.out;
  expect_error(
      run_tiny(three_sets + " --set llc.adaptive.sampled_sets=0"),
      "--set llc.adaptive.sampled_sets=0: llc.adaptive.sampled_sets: value 0 out of range [1, 1048576]");
  // The adaptive mode uses them: the default 8 against 3 sets is an error naming the --set that made it.
  expect_error(
      run_tiny(three_sets + " --set llc.mode=adaptive"),
      "--set llc.size_bytes=3072: llc.adaptive.sampled_sets: sampled_sets (8) exceeds the slice's sets (3)");
}

// On main: accepted, and the TSC+ L1s never leave their initial mode.
TEST_F(CliConfigChecks, TscPlusLeaderBeyondTheSmsIsBadInput) {
  expect_error(
      run_tiny("--set l1.design=tsc_plus --set l1.tsc_plus.leader_sm=5"),
      "--set l1.tsc_plus.leader_sm=5: l1.tsc_plus.leader_sm: SM 5 does not exist: sm.count is 2 (SMs 0..1)");
  // In the file, and sm.count lowered on the command line: the --set is to blame.
  std::string text = read_file(tiny);
  text.replace(text.find("l1:\n"), 4, "l1:\n  tsc_plus:\n    leader_sm: 1\n");
  write_file(dir + "/c.yaml", text);
  const std::string run =
      "run -q -c " + dir + "/c.yaml -w " + small + " -o " + dir + "/out --set l1.design=tsc_plus";
  CliResult r = run_cli(run);
  EXPECT_EQ(r.status, 0) << r.out;
  expect_error(run_cli(run + " --set sm.count=1"),
               "--set sm.count=1: l1.tsc_plus.leader_sm: SM 1 does not exist: sm.count is 1 (SMs 0..0)");
  expect_error(run_cli(run + " --set l1.tsc_plus.leader_sm=2"),
               "--set l1.tsc_plus.leader_sm=2: l1.tsc_plus.leader_sm: SM 2 does not exist");
  // An explicit sampler set count beyond the L1's sets names the key and the file's line, not a bare path.
  expect_error(
      run_tiny("--set l1.design=tsc_plus --set l1.tsc_plus.sampler_sets=16"),
      "--set l1.tsc_plus.sampler_sets=16: l1.tsc_plus.sampler_sets: l1.tsc_plus.sampler_sets (16) exceeds "
      "the L1's 8 sets");
}

// On main: the error names the file's line of l1.size_bytes, which the user did not touch.
TEST_F(CliConfigChecks, CrossFieldErrorsNameTheSetThatCausedThem) {
  expect_error(run_tiny("--set l1.ways=3"),
               "--set l1.ways=3: l1.size_bytes: 4096 is not a multiple of ways x line_bytes (384)");
  expect_error(run_tiny("--set sm.max_outstanding_per_sm=4"),
               "--set sm.max_outstanding_per_sm=4: sm.max_outstanding_per_warp: value 8 exceeds "
               "max_outstanding_per_sm (4)");
  expect_error(run_tiny("--set llc.slices=3 --set dram.channels=2"),
               "--set llc.slices=3: memory_map: LLC slices (3) must be a multiple of DRAM channels (2)");
}

// On main: "value 1e+06 out of range [0, 1e+06]".
TEST_F(CliConfigChecks, RangeErrorsShowTheExactValue) {
  expect_error(
      run_tiny("--set llc.adaptive.mem_gbps=1000000.0000000001"),
      "--set llc.adaptive.mem_gbps=1000000.0000000001: llc.adaptive.mem_gbps: value 1000000.0000000001 "
      "out of range [0, 1000000]");
}

// On main: "expected an integer, got '18446744073709551615'" for values docs/config.md allows.
TEST_F(CliConfigChecks, DocumentedMaximaAreAccepted) {
  CliResult r =
      run_tiny("--set system.seed=18446744073709551615 --set noc.watchdog_cycles=18446744073709551615");
  EXPECT_EQ(r.status, 0) << r.out;
  expect_error(
      run_tiny("--set system.seed=18446744073709551616"),
      "--set system.seed=18446744073709551616: system.seed: value 18446744073709551616 out of range [0, "
      "18446744073709551615]");
}

// On main: the --set replaced the whole l1 section, whose defaults (16 KiB, fermi_hash) then failed.
TEST_F(CliConfigChecks, SetMapMergesIntoThePresetSection) {
  CliResult r = run_tiny("--set 'l1={ways: 8}'");
  EXPECT_EQ(r.status, 0) << r.out;
  r = run_cli("run -c " + tiny + " -w " + small + " -o " + dir + "/out2 --set 'l1={ways: 8}'");
  EXPECT_EQ(r.status, 0) << r.out;
  expect_error(run_tiny("--set 'l1={wayz: 8}'"), "--set l1={wayz: 8}: l1.wayz: unknown key");
}

// On main: noc.hxbar.clusters's error had neither the file's line nor the --set.
TEST_F(CliConfigChecks, HxbarClusterRuleIsCheckedWithTheConfiguration) {
  expect_error(
      run_tiny("--set noc.type=hxbar --set noc.hxbar.clusters=3"),
      "--set noc.hxbar.clusters=3: noc.hxbar.clusters: 3 SM-routers, but the co-design rule (paper 004 "
      "section 4.1) needs one per LLC slice of a memory controller: llc.slices / dram.channels = 1");
}

// On main: exit 3 from the ATD's constructor ("ATD: clusters must be in [1, 64]").
TEST_F(CliConfigChecks, AdaptiveLlcWithMoreThan64SlicesPerChannelIsBadInput) {
  expect_error(run_tiny("--set llc.mode=adaptive --set llc.slices=65"),
               "--set llc.mode=adaptive: llc.mode: adaptive needs at most 64 LLC slices per DRAM channel "
               "(the ATD's SM "
               "clusters), llc.slices / dram.channels is 65 / 1 = 65");
}

// The compute gap's range is the same in the workload file, docs/workloads.md and the trace formats: 0 ..
// 2^32-1 (passes on main too; the run-time side of a 2^32-cycle gap is the drain's).
TEST_F(CliConfigChecks, ComputeGapRangeIsTheDocumentedOne) {
  const std::string w =
      "workload:\n  kernels:\n    - pattern: streaming\n      grid: 1\n      block: 32\n      "
      "insts_per_warp: 1\n"
      "      gap: 4294967296\n";
  write_file(dir + "/w.yaml", w);
  CliResult r = run_cli("run -q -c " + tiny + " -w " + dir + "/w.yaml -o " + dir + "/out");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("w.yaml:7: workload.kernels[0].gap: value 4294967296 out of range [0, 4294967295]"),
            std::string::npos)
      << r.out;
}
