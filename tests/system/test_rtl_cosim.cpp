// RTL co-simulation in the whole system (docs/cosim.md): the crossbar with its arbiter in Verilated RTL
// (noc.arbiter: rtl) against the C++ RoundRobinArbiter (rr) on the same preset and workload. The two runs
// write byte-identical stats.json and stats.csv (every counter, histogram and formula; no field holds
// wall-clock time), on workloads whose crossbar is contended (arrivals held for buffer credits, latency
// well above the zero-load one). A traced RTL run's VCD holds the RTL block's own signals (its pointer
// registers, request and grant vectors) beside the crossbar's TLM-level probes. Each run is a gpumemsys
// child process (one SystemC elaboration per process).
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

// Debian's SystemC switches SC_THREAD stacks (QuickThreads) without telling AddressSanitizer (no
// __sanitizer_start_switch_fiber), and with noc.arbiter: rtl the system's scheduler runs as a thread: a
// sanitized gpumemsys then reports false stack-use-after-scope errors on the main stack after the switches
// ("ASan is ignoring requested __asan_handle_no_return"). The release build runs these tests; the RTL unit
// tests (tests/noc) still run sanitized.
#if defined(__SANITIZE_ADDRESS__)
#define GMS_SKIP_IN_ASAN_BUILD() \
  GTEST_SKIP() << "whole-system RTL runs are not checkable by ASan with Debian's SystemC"
#else
#define GMS_SKIP_IN_ASAN_BUILD() (void)0
#endif

struct RunOut {
  std::string dir, json, csv;
  std::map<std::string, double> stats;
};

RunOut run(const std::string& name, const std::string& config, const std::string& workload,
           const std::string& arbiter, const std::string& extra = "") {
  RunOut r;
  r.dir = temp_dir("rtl_cosim_" + name + "_" + arbiter);
  const CliResult c = run_cli("run -q -c " + gms_src("configs/" + config + ".yaml") + " -w " +
                              gms_src("configs/workloads/" + workload + ".yaml") + " -o " + r.dir +
                              " --set noc.arbiter=" + arbiter + " " + extra);
  EXPECT_EQ(c.status, 0) << c.out;
  r.json = read_file(r.dir + "/stats.json");
  r.csv = read_file(r.dir + "/stats.csv");
  r.stats = read_stats_csv(r.dir);
  return r;
}

// The lines of a dump that do not mention wall-clock time (none does today; a future one would not make
// the runs differ).
std::vector<std::string> lines_without_wall_clock(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find("wall") == std::string::npos) out.push_back(line);
  return out;
}

struct Workload {
  std::string config, workload;
};

void PrintTo(const Workload& w, std::ostream* os) {
  *os << w.config << " " << w.workload;
}

class RtlEquivalence : public ::testing::TestWithParam<Workload> {};

TEST_P(RtlEquivalence, StatisticsAreByteIdenticalToTheCppArbiter) {
  GMS_SKIP_IN_ASAN_BUILD();
  const Workload& w = GetParam();
  const std::string name = w.config + "_" + w.workload;
  const RunOut cpp = run(name, w.config, w.workload, "rr"), rtl = run(name, w.config, w.workload, "rtl");
  ASSERT_FALSE(cpp.json.empty());
  ASSERT_FALSE(cpp.csv.empty());
  EXPECT_TRUE(lines_without_wall_clock(cpp.json) == lines_without_wall_clock(rtl.json))
      << "stats.json differ: diff " << cpp.dir << "/stats.json " << rtl.dir << "/stats.json";
  EXPECT_TRUE(lines_without_wall_clock(cpp.csv) == lines_without_wall_clock(rtl.csv))
      << "stats.csv differ: diff " << cpp.dir << "/stats.csv " << rtl.dir << "/stats.csv";
  EXPECT_EQ(rtl.stats.at("system.data_mismatches"), 0.0);
  // Real contention: arrivals waited for buffer credits and packets waited for their output.
  const auto& s = cpp.stats;
  EXPECT_GT(s.at("xbar.req.held") + s.at("xbar.resp.held"), 0.0);
  EXPECT_GT(s.at("xbar.resp.mean_latency"), 2.0 * (2 + 5));  // zero load: latency 2 + a 5-flit line
  std::cout << name << ": " << s.at("xbar.req.packets") << " request packets, held " << s.at("xbar.req.held")
            << " + " << s.at("xbar.resp.held") << ", mean latency " << s.at("xbar.req.mean_latency") << " / "
            << s.at("xbar.resp.mean_latency") << " NoC cycles, " << s.at("system.sm_cycles")
            << " SM cycles: identical\n";
}

INSTANTIATE_TEST_SUITE_P(Contended, RtlEquivalence,
                         ::testing::Values(Workload{"fermi", "mix"}, Workload{"fermi", "bfs"},
                                           Workload{"fermi", "sharing"}, Workload{"tiny", "small"}),
                         [](const ::testing::TestParamInfo<Workload>& i) {
                           return i.param.config + "_" + i.param.workload;
                         });

// The scopes of a VCD and, per scope, its variables: name -> identifier code.
using VcdScopes = std::map<std::string, std::map<std::string, std::string>>;

VcdScopes vcd_scopes(const std::string& vcd) {
  VcdScopes scopes;
  std::vector<std::string> stack;
  std::istringstream in(vcd);
  for (std::string line; std::getline(in, line) && line.find("$enddefinitions") == std::string::npos;) {
    std::istringstream words(line);
    std::string w, kind, width, code, name;
    words >> w;
    if (w == "$scope") {
      words >> kind >> name;
      // Scopes nest by the module hierarchy (SystemC > xbar > req_arbiter): key them by their path below
      // the top scope, "xbar.req_arbiter".
      stack.push_back(stack.size() <= 1 ? name : stack.back() + "." + name);
      if (stack.size() == 1) stack.back() = "";
    } else if (w == "$upscope") {
      stack.pop_back();
    } else if (w == "$var") {
      words >> kind >> width >> code >> name;
      scopes[stack.back()][name] = code;
    }
  }
  return scopes;
}

// Value changes of `code` after the initial $dumpvars.
size_t changes(const std::string& vcd, const std::string& code) {
  size_t n = 0, at = vcd.find("$end", vcd.find("$dumpvars"));
  std::istringstream in(vcd.substr(at));
  for (std::string line; std::getline(in, line);) {
    const size_t sp = line.rfind(' ');
    const std::string c = line.empty() || line[0] == '#' ? ""
                          : line[0] == 'b'               ? line.substr(sp + 1)
                                                         : line.substr(1);
    n += c == code;
  }
  return n;
}

TEST(RtlCosimVcd, TracedRunHoldsTheRtlSignalsBesideTheTlmProbes) {
  GMS_SKIP_IN_ASAN_BUILD();
  const std::string d = temp_dir("rtl_cosim_vcd");
  const CliResult c = run_cli("run -q -c " + gms_src("configs/fermi.yaml") + " -w " +
                              gms_src("configs/workloads/small.yaml") + " -o " + d +
                              " --set noc.arbiter=rtl --vcd " + d + "/wave.vcd --trace xbar");
  ASSERT_EQ(c.status, 0) << c.out;
  const std::string vcd = read_file(d + "/wave.vcd");
  const VcdScopes scopes = vcd_scopes(vcd);
  // The crossbar's TLM-level probes...
  ASSERT_TRUE(scopes.count("xbar"));
  ASSERT_TRUE(scopes.at("xbar").count("req_buffered_flits"));
  // ...and, in the same file, each network's RTL arbiter: its registers and its request / grant vectors.
  for (const std::string net : {"req", "resp"}) {
    const std::string scope = "xbar." + net + "_arbiter";
    ASSERT_TRUE(scopes.count(scope)) << scope;
    for (const std::string v : {"rst", "gnt", "taken", "ptr_q(0)", "ptr_q(11)", "req_o(0)", "gnt_input_o(0)"})
      EXPECT_TRUE(scopes.at(scope).count(v)) << scope << "." << v;
  }
  const auto& req = scopes.at("xbar.req_arbiter");
  EXPECT_GT(changes(vcd, scopes.at("xbar").at("req_buffered_flits")), 100u);
  EXPECT_GT(changes(vcd, req.at("ptr_q(0)")), 100u);  // the pointer registers move...
  EXPECT_GT(changes(vcd, req.at("req_o(0)")), 100u);  // ...with the requests and grants
  EXPECT_GT(changes(vcd, req.at("gnt")), 100u);
  // Tracing adds delta cycles, not time: the statistics are those of an untraced C++ run.
  const RunOut cpp = run("vcd", "fermi", "small", "rr");
  EXPECT_TRUE(lines_without_wall_clock(cpp.csv) == lines_without_wall_clock(read_file(d + "/stats.csv")));
}

}  // namespace

namespace {

// The value changes of scalar `code` after the initial $dumpvars, as (time, value) pairs.
std::vector<std::pair<uint64_t, char>> scalar_changes(const std::string& vcd, const std::string& code) {
  std::vector<std::pair<uint64_t, char>> out;
  uint64_t now = 0;
  std::istringstream in(vcd.substr(vcd.find("$end", vcd.find("$dumpvars"))));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line[0] == '#') now = std::stoull(line.substr(1));
    if ((line[0] == '0' || line[0] == '1') && line.substr(1) == code) out.push_back({now, line[0]});
  }
  return out;
}

}  // namespace

// The RTL clock and reset, selected by their own block name: a free-running clock rising half a NoC cycle
// into every cycle (fermi: 1429 ps, rising at 714 ps) for the whole run, and a reset released at its first
// rising edge. --trace xbar alone leaves them out (a clock is two changes per NoC cycle).
TEST(RtlCosimVcd, ClockAndResetAreTracedWhenSelected) {
  GMS_SKIP_IN_ASAN_BUILD();
  const std::string d = temp_dir("rtl_cosim_vcd_clk");
  const CliResult c = run_cli("run -q -c " + gms_src("configs/fermi.yaml") + " -w " +
                              gms_src("configs/workloads/small.yaml") + " -o " + d +
                              " --set noc.arbiter=rtl --vcd " + d + "/wave.vcd --trace xbar,xbar_rtl_clk");
  ASSERT_EQ(c.status, 0) << c.out;
  const std::string vcd = read_file(d + "/wave.vcd");
  const VcdScopes scopes = vcd_scopes(vcd);
  ASSERT_TRUE(scopes.count("xbar_rtl_clk"));
  const auto clk = scalar_changes(vcd, scopes.at("xbar_rtl_clk").at("clk"));
  const auto rst = scalar_changes(vcd, scopes.at("xbar_rtl_clk").at("rst"));
  ASSERT_GT(clk.size(), 100u);
  for (size_t k = 0; k < clk.size(); ++k) {
    const uint64_t rise = 714 + (k / 2) * 1429;
    ASSERT_EQ(clk[k], (std::make_pair(k % 2 ? rise + 715 : rise, k % 2 ? '0' : '1'))) << k;
  }
  // In reset from the start, released at the first rising edge.
  const size_t dv = vcd.find("$dumpvars");
  const std::string dumpvars = vcd.substr(dv, vcd.find("$end", dv) - dv);
  EXPECT_NE(dumpvars.find("\n1" + scopes.at("xbar_rtl_clk").at("rst") + "\n"), std::string::npos);
  EXPECT_EQ(rst, (std::vector<std::pair<uint64_t, char>>{{714, '0'}}));
  // The arbiters' own view of the handshake: valid rises at cycle edges and falls at rising edges.
  const auto valid = scalar_changes(vcd, scopes.at("xbar.req_arbiter").at("valid"));
  ASSERT_GT(valid.size(), 100u);
  for (const auto& [t, v] : valid) EXPECT_EQ(t % 1429, v == '1' ? 0u : 714u) << t;
  // Without the clock's name the clock is not traced.
  const std::string d2 = temp_dir("rtl_cosim_vcd_noclk");
  ASSERT_EQ(run_cli("run -q -c " + gms_src("configs/fermi.yaml") + " -w " +
                    gms_src("configs/workloads/small.yaml") + " -o " + d2 + " --set noc.arbiter=rtl --vcd " +
                    d2 + "/wave.vcd --trace xbar")
                .status,
            0);
  EXPECT_FALSE(vcd_scopes(read_file(d2 + "/wave.vcd")).count("xbar_rtl_clk"));
}
