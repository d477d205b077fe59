// Every output file is written exactly where asked and completely, or the run fails loudly naming it:
// the VCD path is taken as given, an unwritable one is refused before the run (exit 2), a full disk fails
// the run (exit 3) for the VCD, stats.json, stats.csv and the rd outputs; the VCD is well formed and ends
// with the values the run ended with; --trace is checked.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include "tests/cli/cli_runner.h"

namespace {

std::string small_run(const std::string& dir) {
  return "run -q -c " + gms_src("configs/tiny.yaml") + " -w " + gms_src("configs/workloads/small.yaml") +
         " -o " + dir + "/out";
}

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

void expect_one_error(const CliResult& r, int status, const std::string& message) {
  EXPECT_EQ(r.status, status) << r.out;
  EXPECT_EQ(r.out, "gpumemsys: error: " + message + "\n");
}

// The VCD as (scope.name -> width, last value) plus the checks of its structure.
struct Vcd {
  std::map<std::string, unsigned> width;    // by identifier code
  std::map<std::string, std::string> name;  // code -> scope.name
  std::map<std::string, uint64_t> last;     // code -> final value
  std::vector<std::string> problems;
};

Vcd parse_vcd(const std::string& text) {
  Vcd v;
  std::istringstream in(text);
  std::vector<std::string> scopes;
  bool timescale = false, defs_done = false;
  long long prev_time = -1;
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string tok;
    if (!(w >> tok)) continue;
    if (!defs_done) {
      if (tok == "$timescale") timescale = true;
      if (tok == "$scope") {
        std::string kind, s;
        w >> kind >> s;
        scopes.push_back(s);
      } else if (tok == "$upscope") {
        if (scopes.empty())
          v.problems.push_back("$upscope without $scope");
        else
          scopes.pop_back();
      } else if (tok == "$var") {
        std::string kind, code, n;
        unsigned width = 0;
        w >> kind >> width >> code >> n;
        if (width == 0 || v.width.count(code)) v.problems.push_back("bad $var: " + line);
        v.width[code] = width;
        v.name[code] = (scopes.empty() ? "" : scopes.back()) + "." + n;
      } else if (tok == "$enddefinitions") {
        defs_done = true;
        if (!scopes.empty()) v.problems.push_back("unclosed $scope");
      }
      continue;
    }
    if (tok == "$dumpvars" || tok == "$end") continue;
    if (tok[0] == '#') {
      const long long t = std::stoll(tok.substr(1));
      if (t <= prev_time) v.problems.push_back("time not increasing: " + line);
      prev_time = t;
      continue;
    }
    std::string code, bits;
    if (tok[0] == 'b') {
      bits = tok.substr(1);
      w >> code;
    } else {
      bits = tok.substr(0, 1);
      code = tok.substr(1);
    }
    auto wd = v.width.find(code);
    if (wd == v.width.end()) {
      v.problems.push_back("undeclared identifier: " + line);
      continue;
    }
    if ((tok[0] == 'b') != (wd->second > 1) || bits.empty() || bits.size() > wd->second ||
        bits.find_first_not_of("01") != std::string::npos)
      v.problems.push_back("value does not fit its variable: " + line);
    else
      v.last[code] = std::stoull(bits, nullptr, 2);
  }
  if (!timescale) v.problems.push_back("no $timescale");
  if (!defs_done) v.problems.push_back("no $enddefinitions");
  return v;
}

class HardeningOutput : public ::testing::Test {
 protected:
  void SetUp() override { dir = temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name()); }
  std::string dir;
};

}  // namespace

// --vcd dir/wave wrote wave.vcd and --vcd x.VCD wrote x.VCD.vcd.
TEST_F(HardeningOutput, VcdIsWrittenExactlyAtThePathGiven) {
  for (const std::string name : {"wave", "x.VCD"}) {
    CliResult r = run_cli(small_run(dir) + " --vcd " + dir + "/" + name + " --trace 'dram*'");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(read_file(dir + "/" + name).rfind("$version", 0), 0u) << name;
    EXPECT_FALSE(exists(dir + "/" + name + ".vcd")) << name;
  }
}

// A --vcd into a missing directory died of SIGFPE with no message.
TEST_F(HardeningOutput, UnwritableVcdPathIsOneErrorBeforeTheRun) {
  const std::string missing = dir + "/no/such/dir/wave.vcd";
  expect_one_error(run_cli(small_run(dir) + " --vcd " + missing), 2,
                   missing + ": cannot open for writing: No such file or directory");
  expect_one_error(run_cli(small_run(dir) + " --vcd " + dir), 2,
                   dir + ": cannot open for writing: Is a directory");
}

// The last time step left sm*.in_flight and resident_ctas at 1 although every request was answered.
TEST_F(HardeningOutput, VcdIsWellFormedAndEndsWithTheFinalValues) {
  CliResult r = run_cli(small_run(dir) + " --vcd " + dir + "/wave.vcd");
  ASSERT_EQ(r.status, 0) << r.out;
  const Vcd v = parse_vcd(read_file(dir + "/wave.vcd"));
  EXPECT_TRUE(v.problems.empty()) << v.problems.size() << " problems, first: " << v.problems[0];
  int checked = 0;
  for (const auto& [code, n] : v.name) {
    if (n.rfind("sm", 0) != 0) continue;
    ASSERT_TRUE(v.last.count(code)) << n;
    EXPECT_EQ(v.last.at(code), 0u) << n << " at the end of the run";
    ++checked;
  }
  EXPECT_EQ(checked, 4);  // in_flight and resident_ctas of sm0 and sm1
  // 2 SMs x 2, 2 L1s x 8, xbar 4 + per port (req: 2 inputs, 1 output; resp: 1 input, 2 outputs), llc 4,
  // dram 6 + 16 banks x 2 (state, row), llc_mode 2.
  EXPECT_EQ(v.width.size(), 74u);
}

// A full disk cut stats.json, stats.csv and the VCD short and the run still said "statistics written".
TEST_F(HardeningOutput, FullDiskFailsTheRunNamingTheFile) {
  for (const std::string file : {"stats.json", "stats.csv"}) {
    const std::string out = dir + "/" + file;
    ASSERT_EQ(std::system(("rm -rf '" + dir + "/out' && mkdir -p '" + dir + "/out' && ln -s /dev/full '" +
                           dir + "/out/" + file + "'")
                              .c_str()),
              0);
    expect_one_error(run_cli(small_run(dir)), 3,
                     dir + "/out/" + file + ": write failed: No space left on device");
  }
}

TEST_F(HardeningOutput, VcdOnFullDiskFailsTheRun) {
  expect_one_error(run_cli(small_run(dir) + " --vcd /dev/full"), 3,
                   "/dev/full: write failed: No space left on device");
}

TEST_F(HardeningOutput, TraceRecordOnFullDiskFailsTheRun) {
  // Text, zlib binary and uncompressed binary: the write (or the close) fails, status 3 with the reason.
  for (const std::string fmt : {"text", "binary --compression zlib", "binary --compression none"})
    expect_one_error(run_cli("trace record -w " + gms_src("configs/workloads/small.yaml") +
                             " -o /dev/full --format " + fmt),
                     3, "/dev/full: write failed: No space left on device");
}

TEST_F(HardeningOutput, RdOutputsOnFullDiskFailTheRun) {
  for (const std::string file : {"rd.json", "rd_histogram.csv"}) {
    ASSERT_EQ(std::system(("rm -rf '" + dir + "/rd' && mkdir -p '" + dir + "/rd' && ln -s /dev/full '" + dir +
                           "/rd/" + file + "'")
                              .c_str()),
              0);
    CliResult r = run_cli("rd -q -c " + gms_src("configs/tiny.yaml") + " -w " +
                          gms_src("configs/workloads/small.yaml") + " -o " + dir + "/rd");
    EXPECT_EQ(r.status, 3) << r.out;
    EXPECT_NE(
        r.out.find("gpumemsys: error: " + dir + "/rd/" + file + ": write failed: No space left on device\n"),
        std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("written"), std::string::npos) << r.out;
  }
}

TEST_F(HardeningOutput, TraceThatSelectsNoBlockIsOneError) {
  expect_one_error(run_cli(small_run(dir) + " --vcd " + dir + "/w.vcd --trace 'foo*'"), 2,
                   "--trace 'foo*': matches no block (blocks are decisions, dram0, l1_0..l1_1, llc0, "
                   "llc_mode, sm0..sm1, xbar)");
  expect_one_error(run_cli(small_run(dir) + " --vcd " + dir + "/w.vcd --trace 'l1*,dram'"), 2,
                   "--trace 'l1*,dram': 'dram' matches no block (blocks are decisions, dram0, l1_0..l1_1, "
                   "llc0, llc_mode, sm0..sm1, "
                   "xbar)");
}

TEST_F(HardeningOutput, TraceWithoutVcdIsOneError) {
  expect_one_error(run_cli(small_run(dir) + " --trace 'l1*'"), 2,
                   "command line: --trace selects the blocks written to the VCD: it needs --vcd FILE");
  expect_one_error(run_cli(small_run(dir) + " --vcd ''"), 2, "command line: --vcd needs a file name");
}

// --trace-from / --trace-to keep a simulated-time window of the waveform: the file opens with the values at
// the window's start and holds no time outside it; bad values and a window without --vcd are one error.
TEST_F(HardeningOutput, VcdWindowKeepsOnlyTheTimesAskedFor) {
  CliResult r = run_cli(small_run(dir) + " --vcd " + dir + "/win.vcd --trace-from 2us --trace-to 4us");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string text = read_file(dir + "/win.vcd");
  std::vector<uint64_t> stamps;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == '#') stamps.push_back(std::stoull(line.substr(1)));
  ASSERT_GE(stamps.size(), 2u);
  EXPECT_EQ(stamps.front(), 2000000u);  // ps: the values at 2 us open the file
  EXPECT_LE(stamps.back(), 4000000u);
  for (uint64_t t : stamps) EXPECT_TRUE(t >= 2000000u && t <= 4000000u) << t;
  EXPECT_TRUE(parse_vcd(text).problems.empty());
  expect_one_error(run_cli(small_run(dir) + " --trace-from 2us"), 2,
                   "command line: --trace-from / --trace-to bound the VCD: they need --vcd FILE");
  expect_one_error(
      run_cli(small_run(dir) + " --vcd " + dir + "/w2.vcd --trace-from 2 us"), 2,
      "command line: --trace-from '2': expected a whole number of ps, ns, us, ms or s (e.g. 20us)");
  expect_one_error(run_cli(small_run(dir) + " --vcd " + dir + "/w3.vcd --trace-from 5us --trace-to 1us"), 2,
                   "command line: --trace-from (5000000 ps) is after --trace-to (1000000 ps)");
}
