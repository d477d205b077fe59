// Issue 29 item 5, results are never lost: outputs are written to temporaries renamed over the old files
// only after the run, so an input error (exit 2, before or during the run) leaves the previous run's files
// byte-identical; an output that names an input or another output is refused before anything is opened;
// a single-valued option given twice is an error; the VCD opens with every signal's value at time 0 and
// ends at the run's end.
#include <dirent.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

const std::string kTiny = gms_src("configs/tiny.yaml");
const std::string kSmall = gms_src("configs/workloads/small.yaml");

std::string small_run(const std::string& out) {
  return "run -q -c " + kTiny + " -w " + kSmall + " -o " + out;
}

void expect_one_error(const CliResult& r, int status, const std::string& message) {
  EXPECT_EQ(r.status, status) << r.out;
  EXPECT_EQ(r.out, "gpumemsys: error: " + message + "\n");
}

// The names in `dir` that look like our temporaries (".<name>.tmp.<pid>").
std::vector<std::string> temporaries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (std::string(e->d_name).find(".tmp.") != std::string::npos) names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

// What a test needs of a VCD: the declared codes, the codes given a value in the first instant, the first
// and last time stamps.
struct VcdSummary {
  std::map<std::string, std::string> vars;  // code -> name
  std::set<std::string> initial;            // codes valued in the first instant ($dumpvars)
  long long first_time = -1, last_time = -1;
};

VcdSummary summarize(const std::string& text) {
  VcdSummary v;
  std::istringstream in(text);
  bool defs_done = false;
  int instants = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string tok;
    if (!(w >> tok)) continue;
    if (!defs_done) {
      if (tok == "$var") {
        std::string kind, width, code, name;
        w >> kind >> width >> code >> name;
        v.vars[code] = name;
      }
      defs_done = tok == "$enddefinitions";
      continue;
    }
    if (tok[0] == '#') {
      v.last_time = std::stoll(tok.substr(1));
      if (++instants == 1) v.first_time = v.last_time;
    } else if (instants == 1 && tok[0] != '$') {
      std::string code = tok[0] == 'b' ? "" : tok.substr(1);
      if (tok[0] == 'b') w >> code;
      v.initial.insert(code);
    }
  }
  return v;
}

// Makes the end record of a native text trace count 7 kernels: an error found after the last kernel.
bool miscount_kernels(const std::string& path) {
  std::string text = read_file(path);
  const size_t end = text.rfind("\nend ");
  if (end == std::string::npos) return false;
  write_file(path, text.substr(0, end) + "\nend 7\n");
  return true;
}

class OutputsKept : public ::testing::Test {
 protected:
  void SetUp() override { dir = temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name()); }
  // A good run into dir/out with a VCD: its three files' bytes.
  std::map<std::string, std::string> first_run() {
    CliResult r = run_cli(small_run(dir + "/out") + " --vcd " + dir + "/out/wave.vcd");
    EXPECT_EQ(r.status, 0) << r.out;
    std::map<std::string, std::string> files;
    for (const char* f : {"stats.json", "stats.csv", "wave.vcd"}) files[f] = read_file(dir + "/out/" + f);
    EXPECT_GT(files["stats.json"].size(), 100u);
    return files;
  }
  void expect_unchanged(const std::map<std::string, std::string>& before) {
    for (const auto& [name, bytes] : before) EXPECT_TRUE(read_file(dir + "/out/" + name) == bytes) << name;
    EXPECT_TRUE(temporaries(dir + "/out").empty()) << temporaries(dir + "/out")[0];
  }
  std::string dir;
};

}  // namespace

// A --trace glob that matched nothing (exit 2, before the run) truncated stats.json, stats.csv and the VCD
// of the previous run in that folder.
TEST_F(OutputsKept, AnInputErrorBeforeTheRunLeavesTheOldOutputsByteIdentical) {
  const auto before = first_run();
  expect_one_error(
      run_cli(small_run(dir + "/out") + " --vcd " + dir + "/out/wave.vcd --trace 'foo*'"), 2,
      "--trace 'foo*': matches no block (blocks are decisions, dram0, l1_0..l1_1, llc0, llc_mode, "
      "sm0..sm1, xbar)");
  expect_unchanged(before);
}

// A trace whose error is found mid-run (its end record counts 7 kernels, it holds fewer): exit 2, and nothing
// of the stopped run replaces the previous outputs.
TEST_F(OutputsKept, AnInputErrorFoundMidRunLeavesTheOldOutputsByteIdentical) {
  const std::string trace = dir + "/small.gmstrace";
  ASSERT_EQ(run_cli("trace record -w " + kSmall + " -o " + trace + " --format text").status, 0);
  ASSERT_TRUE(miscount_kernels(trace));
  const auto before = first_run();
  CliResult r =
      run_cli("run -q -c " + kTiny + " -w " + trace + " -o " + dir + "/out --vcd " + dir + "/out/wave.vcd");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("gpumemsys: error: " + trace + ":"), std::string::npos) << r.out;
  expect_unchanged(before);
}

// `-o out --vcd out/stats.json` wrote the VCD and the statistics into one file: invalid JSON, exit 0.
TEST_F(OutputsKept, AnOutputNamingAnotherOutputIsRefusedBeforeAnythingIsOpened) {
  const auto before = first_run();
  const std::string out = dir + "/out";
  for (const std::string& vcd : {out + "/stats.json", out + "/./stats.json", out + "/../out/stats.json"})
    expect_one_error(run_cli(small_run(out) + " --vcd " + vcd), 2,
                     "command line: --vcd and -o (stats.json) name the same file '" + vcd + "'");
  expect_one_error(run_cli(small_run(out) + " --vcd " + out + "/stats.csv"), 2,
                   "command line: --vcd and -o (stats.csv) name the same file '" + out + "/stats.csv'");
  // A symbolic link to stats.json is the same file too.
  ASSERT_EQ(std::system(("ln -s out/stats.json '" + dir + "/link.vcd'").c_str()), 0);
  expect_one_error(run_cli(small_run(out) + " --vcd " + dir + "/link.vcd"), 2,
                   "command line: --vcd and -o (stats.json) name the same file '" + dir + "/link.vcd'");
  expect_unchanged(before);
}

TEST_F(OutputsKept, AnOutputNamingAnInputIsRefusedAndTheInputKept) {
  const std::string cfg = dir + "/cfg.yaml", wl = dir + "/wl.yaml";
  write_file(cfg, read_file(kTiny));
  write_file(wl, read_file(kSmall));
  const std::string run = "run -q -c " + cfg + " -w " + wl;
  expect_one_error(run_cli(run + " -o " + dir + "/out --vcd " + cfg), 2,
                   "command line: --vcd and -c name the same file '" + cfg + "'");
  expect_one_error(run_cli(run + " -o " + dir + "/out --vcd " + dir + "/./wl.yaml"), 2,
                   "command line: --vcd and -w name the same file '" + dir + "/./wl.yaml'");
  // The statistics of -o onto an input.
  ASSERT_EQ(std::system(("cp '" + wl + "' '" + dir + "/stats.json'").c_str()), 0);
  expect_one_error(run_cli("run -q -c " + cfg + " -w " + dir + "/stats.json -o " + dir), 2,
                   "command line: -o (stats.json) and -w name the same file '" + dir + "/stats.json'");
  EXPECT_EQ(read_file(cfg), read_file(kTiny));
  EXPECT_EQ(read_file(wl), read_file(kSmall));
  EXPECT_EQ(read_file(dir + "/stats.json"), read_file(kSmall));
}

// `trace record -w X -o X` truncated X before reading it: the trace was lost.
TEST_F(OutputsKept, TraceRecordOntoItsOwnInputIsRefusedAndTheInputKept) {
  const std::string x = dir + "/x.gmstrace";
  ASSERT_EQ(run_cli("trace record -w " + kSmall + " -o " + x).status, 0);
  const std::string bytes = read_file(x);
  ASSERT_GT(bytes.size(), 100u);
  for (const std::string& o : {x, dir + "/./x.gmstrace"})
    expect_one_error(run_cli("trace record -w " + x + " -o " + o), 2,
                     "command line: -o and -w name the same file '" + o + "'");
  EXPECT_TRUE(read_file(x) == bytes);
  // A record that fails on its way (its input's end record counts 7 kernels, it holds fewer) leaves an older
  // file at -o as it was.
  const std::string bad = dir + "/bad.gmstrace", y = dir + "/y.gmstrace";
  ASSERT_EQ(run_cli("trace record -w " + kSmall + " -o " + bad + " --format text").status, 0);
  ASSERT_TRUE(miscount_kernels(bad));
  write_file(y, "an older trace\n");
  CliResult r = run_cli("trace record -w " + bad + " -o " + y);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("gpumemsys: error: " + bad + ":"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(y), "an older trace\n");
  EXPECT_TRUE(temporaries(dir).empty());
}

// `-c a -c b` ran b, `-o x -o y` wrote y: a single-valued option given twice is an error naming it.
TEST_F(OutputsKept, ASingleValuedOptionGivenTwiceIsAnError) {
  const std::string base = "run -q -c " + kTiny + " -w " + kSmall;
  expect_one_error(run_cli(base + " -c " + kTiny), 2, "command line: -c given twice");
  expect_one_error(run_cli(base + " --config " + kTiny), 2,
                   "command line: --config given twice (first as -c)");
  expect_one_error(run_cli(base + " -w " + kSmall), 2, "command line: -w given twice");
  expect_one_error(run_cli(base + " -o " + dir + "/a -o " + dir + "/b"), 2, "command line: -o given twice");
  expect_one_error(run_cli(base + " --vcd " + dir + "/a.vcd --vcd " + dir + "/b.vcd"), 2,
                   "command line: --vcd given twice");
  expect_one_error(run_cli(base + " --vcd " + dir + "/a.vcd --trace-from 1us --trace-from 2us"), 2,
                   "command line: --trace-from given twice");
  expect_one_error(run_cli(base + " --vcd " + dir + "/a.vcd --trace-to 1us --trace-to 2us"), 2,
                   "command line: --trace-to given twice");
  expect_one_error(run_cli("trace record -w " + kSmall + " -o " + dir + "/t --format text --format binary"),
                   2, "command line: --format given twice");
  expect_one_error(
      run_cli("trace record -w " + kSmall + " -o " + dir + "/t --compression xz --compression none"), 2,
      "command line: --compression given twice");
  expect_one_error(run_cli("rd -q -c " + kTiny + " -w " + kSmall + " -o " + dir + "/a --out " + dir + "/b"),
                   2, "command line: --out given twice (first as -o)");
  EXPECT_FALSE(std::ifstream(dir + "/a/stats.json").good());
  EXPECT_FALSE(std::ifstream(dir + "/b/stats.json").good());
  // --set and --trace repeat: the overrides apply in order, the globs add up.
  EXPECT_EQ(run_cli(base + " -o " + dir + "/s --set l1.ways=2 --set l1.ways=4").status, 0);
  expect_one_error(
      run_cli(base + " -o " + dir + "/t --vcd " + dir + "/t.vcd --trace 'l1*' --trace 'foo*'"), 2,
      "--trace 'l1*,foo*': 'foo*' matches no block (blocks are decisions, dram0, l1_0..l1_1, llc0, "
      "llc_mode, sm0..sm1, xbar)");
}

// A --trace 'l1*' VCD opened at the L1s' first change (about 2 us) with only the signals that changed then.
TEST_F(OutputsKept, TheVcdOpensAtTimeZeroWithAValueForEverySignal) {
  ASSERT_EQ(run_cli(small_run(dir + "/out") + " --vcd " + dir + "/l1.vcd --trace 'l1*'").status, 0);
  const VcdSummary v = summarize(read_file(dir + "/l1.vcd"));
  ASSERT_EQ(v.vars.size(), 16u);  // 2 L1s x 8 probes
  EXPECT_EQ(v.first_time, 0);
  for (const auto& [code, name] : v.vars) EXPECT_TRUE(v.initial.count(code)) << name << " has no value at 0";
  EXPECT_GT(v.last_time, 0);
  // A window opens at its start, whenever the first change inside it comes.
  ASSERT_EQ(
      run_cli(small_run(dir + "/out") + " --vcd " + dir + "/w.vcd --trace 'l1*' --trace-from 1ns").status, 0);
  const VcdSummary w = summarize(read_file(dir + "/w.vcd"));
  EXPECT_EQ(w.first_time, 1000);
  EXPECT_EQ(w.initial.size(), 16u);
}

// An adaptive LLC's next profiling window is a timer far past the run (71.45 us on tiny, the run ends at
// 45.7 us): the VCD ended there, not at the run's end. It ends at the summary's simulated time.
TEST_F(OutputsKept, AnAdaptiveRunsVcdEndsAtTheRunsEnd) {
  CliResult r = run_cli(small_run(dir + "/out") + " --set llc.mode=adaptive --vcd " + dir + "/a.vcd");
  ASSERT_EQ(r.status, 0) << r.out;
  const double sim_ns = read_stats_csv(dir + "/out").at("system.sim_time_ns");
  const std::string text = read_file(dir + "/a.vcd");
  const VcdSummary v = summarize(text);
  EXPECT_EQ(v.last_time, (long long)(sim_ns * 1000 + 0.5));  // $timescale 1 ps
  EXPECT_NE(text.find("$scope module llc_mode $end"), std::string::npos);
}
