// Configuration, workload and programs files as a hostile user writes them (issue 8): each is bad input,
// exit 2 with one line naming the file, the line and the key (or the --set argument), never exit 3, a
// crash, a silent default or raw bytes in the terminal.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/cli/cli_runner.h"

namespace {

// Replaces the first occurrence of `from` in `text`.
std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto p = text.find(from);
  EXPECT_NE(p, std::string::npos) << "test setup: '" << from << "' not found";
  if (p != std::string::npos) text.replace(p, from.size(), to);
  return text;
}

const char* kWorkloadA =
    "workload:\n  name: a\n  seed: 1\n  kernels:\n    - name: k\n      pattern: streaming\n      grid: 2\n"
    "      block: 64\n      insts_per_warp: 4\n      width: 4\n      store_fraction: 0.5\n      base: "
    "0x100000\n";

}  // namespace

class HardeningConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = temp_dir(std::string("hc_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    tiny = read_file(gms_src("configs/tiny.yaml"));
    small = gms_src("configs/workloads/small.yaml");
  }
  // Runs with config text `config` (written to c.yaml) and workload path `workload`.
  CliResult run_with(const std::string& config, const std::string& workload, const std::string& extra = "") {
    write_file(dir + "/c.yaml", config);
    return run_cli("run -q -c " + dir + "/c.yaml -w " + workload + " -o " + dir + "/out " + extra);
  }
  void expect_error(const CliResult& r, const std::string& expect) { EXPECT_INPUT_ERROR(r, expect); }
  std::string dir, tiny, small;
};

TEST_F(HardeningConfig, EmptyConfigDevNullAndDirectoryAreBadInput) {
  write_file(dir + "/empty.yaml", "");
  write_file(dir + "/comments.yaml", "# nothing but a comment\n");
  const std::string expect = ": empty configuration: expected a map with sections system, sm, l1";
  for (const std::string& c : {dir + "/empty.yaml", dir + "/comments.yaml", std::string("/dev/null")})
    expect_error(run_cli("run -q -c " + c + " -w " + small + " -o " + dir + "/out"), c + expect);
  expect_error(run_cli("run -q -c " + dir + " -w " + small + " -o " + dir + "/out"),
               dir + ": is a directory");
}

TEST_F(HardeningConfig, ConfigWithoutOptionalSystemSectionRuns) {
  // A missing optional section used to end in yaml-cpp's "invalid node" (exit 3).
  std::string no_system = replace(tiny, "system:\n  name: tiny\n  seed: 1\n", "");
  CliResult r = run_with(no_system, small);
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST_F(HardeningConfig, DuplicateKeysInConfigWorkloadAndProgramsFiles) {
  expect_error(run_with(replace(tiny, "  ways: 4\n", "  ways: 4\n  ways: 8\n"), small),
               dir + "/c.yaml:19: l1.ways: duplicate key (first at line 18)");
  write_file(dir + "/w.yaml", replace(kWorkloadA, "      grid: 2\n", "      grid: 2\n      grid: 4\n"));
  expect_error(run_with(tiny, dir + "/w.yaml"),
               dir + "/w.yaml:8: workload.kernels[0].grid: duplicate key (first at line 7)");
  write_file(dir + "/a.yaml", kWorkloadA);
  write_file(dir + "/p.yaml", "programs:\n  - name: a\n    workload: a.yaml\n    sms: 1\n    sms: 2\n");
  expect_error(run_with(tiny, dir + "/p.yaml"),
               dir + "/p.yaml:5: programs[0].sms: duplicate key (first at line 4)");
}

TEST_F(HardeningConfig, EmptyValueInFileOrSetIsAnError) {
  expect_error(run_with(replace(tiny, "mshr_entries: 8", "mshr_entries:"), small),
               dir + "/c.yaml:21: l1.mshr_entries: empty value");
  expect_error(run_with(tiny, small, "--set l1.mshr_entries="),
               "--set l1.mshr_entries=: l1.mshr_entries: empty value");
  write_file(dir + "/w.yaml", replace(kWorkloadA, "      grid: 2", "      grid:"));
  expect_error(run_with(tiny, dir + "/w.yaml"), dir + "/w.yaml:7: workload.kernels[0].grid: empty value");
}

TEST_F(HardeningConfig, QuotedNumberIsAStringAndRejected) {
  expect_error(run_with(replace(tiny, "  ways: 4", "  ways: \"4\""), small),
               dir + "/c.yaml:18: l1.ways: expected an integer, got a string '4'");
  expect_error(run_with(tiny, small, "--set 'l1.ways=\"4\"'"),
               "--set l1.ways=\"4\": l1.ways: expected an integer, got a string '4'");
}

TEST_F(HardeningConfig, SetErrorsNameTheSetArgument) {
  expect_error(run_with(tiny, small, "--set foo.bar=1"), "--set foo.bar=1: foo: unknown key");
  expect_error(run_with(tiny, small, "--set l1.bogus=1"), "--set l1.bogus=1: l1.bogus: unknown key");
  expect_error(run_with(tiny, small, "--set l1.ways=four"),
               "--set l1.ways=four: l1.ways: expected an integer");
  expect_error(run_with(tiny, small, "--set sm.count=0"),
               "--set sm.count=0: sm.count: value 0 out of range [1, 4096]");
  expect_error(run_with(tiny, small, "--set l1.ways.x=1"),
               "--set l1.ways.x=1: l1.ways: not a map of keys (it holds '4')");
}

TEST_F(HardeningConfig, DeepNestingIsOneLine) {
  expect_error(run_with("system: " + std::string(100000, '[') + std::string(100000, ']') + "\n", small),
               dir + "/c.yaml:1: YAML nesting deeper than 256 levels");
}

TEST_F(HardeningConfig, BinaryFilesAndNulBytesAreQuotedNotDumped) {
  CliResult r = run_cli("run -q -c " + gms_bin() + " -w " + small + " -o " + dir + "/out");
  expect_error(r, gms_bin() + ":1: not a text (YAML) file (byte '\\x7f')");
  EXPECT_LT(r.out.size(), 300u);
  expect_error(run_with(replace(tiny, "  ways: 4", "  ways: \"fo\\0ur\""), small),
               dir + "/c.yaml:18: l1.ways: expected an integer, got a string 'fo\\0ur'");
  expect_error(run_with(replace(tiny, "  ways: 4", std::string("  ways: fo\0ur", 13)), small),
               dir + "/c.yaml:18: not a text (YAML) file (byte '\\0')");
}

TEST_F(HardeningConfig, ProgramsFileIncludingItselfOrAMissingWorkload) {
  write_file(dir + "/p.yaml", "programs:\n  - name: a\n    workload: p.yaml\n    sms: 1\n");
  expect_error(run_with(tiny, dir + "/p.yaml"),
               dir + "/p.yaml:3: programs[0].workload: a programs file cannot include programs files (" +
                   dir + "/p.yaml includes itself)");
  write_file(dir + "/m.yaml", "programs:\n  - name: a\n    workload: x.yaml\n    sms: 1\n");
  expect_error(run_with(tiny, dir + "/m.yaml"), dir + "/m.yaml:3: programs[0].workload: 'x.yaml' not found");
}

TEST_F(HardeningConfig, OverlappingProgramsAreRejectedBeforeTheRun) {
  write_file(dir + "/a.yaml", kWorkloadA);
  write_file(dir + "/b.yaml", replace(replace(kWorkloadA, "name: a", "name: b"), "0x100000", "0x100200"));
  write_file(
      dir + "/p.yaml",
      "programs:\n  - name: first\n    workload: a.yaml\n    sms: 1\n  - name: second\n    workload: b.yaml\n"
      "    sms: 1\n");
  // Program a loads [0x100000, 0x100400) and stores to [0x100400, 0x100800): b's loads from 0x100200 overlap.
  expect_error(
      run_with(tiny, dir + "/p.yaml"),
      dir +
          "/p.yaml:6: programs[1].workload: the memory of program 'second' (programs[1]) overlaps "
          "program 'first' (programs[0]) at [0x100200, 0x100400): programs must use disjoint memory");
  // Disjoint regions run and pass the data check.
  write_file(dir + "/b.yaml", replace(replace(kWorkloadA, "name: a", "name: b"), "0x100000", "0x800000"));
  CliResult ok = run_with(tiny, dir + "/p.yaml");
  EXPECT_EQ(ok.status, 0) << ok.out;
}

TEST_F(HardeningConfig, OverlappingTraceProgramIsCaughtDuringTheRun) {
  // A trace does not declare its footprint: its first access to a line the other program uses ends the
  // run as bad input (today: silent, or "data mismatches" with exit 3).
  write_file(dir + "/t.gmstrace",
             "gmstrace 1\nworkload t\nkernel grid=1 block=32 regs=0 shmem=0 name=k\ncta 0\nwarp 0 2\n"
             "100 ffffffff ld 4 1 s 0x100000 4\n110 ffffffff st 4 1 s 0x100080 4\nend 1\n");
  write_file(dir + "/a.yaml", kWorkloadA);
  write_file(
      dir + "/p.yaml",
      "programs:\n  - name: tr\n    workload: t.gmstrace\n    sms: 1\n  - name: syn\n    workload: a.yaml\n"
      "    sms: 1\n");
  CliResult r = run_with(tiny, dir + "/p.yaml");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("gpumemsys: error: " + dir + "/p.yaml: program '"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'tr' (programs[0])"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("'syn' (programs[1])"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("programs must use disjoint memory"), std::string::npos) << r.out;
  // The same trace beside a program elsewhere in memory runs clean.
  write_file(dir + "/a.yaml", replace(kWorkloadA, "0x100000", "0x800000"));
  CliResult ok = run_with(tiny, dir + "/p.yaml");
  EXPECT_EQ(ok.status, 0) << ok.out;
}
