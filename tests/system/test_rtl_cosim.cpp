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
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/common/vcd_reader.h"

namespace {

using gms::test::VcdChange;
using gms::test::VcdFile;
using gms::test::VcdSignal;
const std::string kTop = "SystemC.";  // the VCD's top scope

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

// A signal's value changes after the $dumpvars values (the reader lists those first, one per signal).
size_t moves(const VcdSignal& s) {
  return s.changes.empty() ? 0 : s.changes.size() - 1;
}

TEST(RtlCosimVcd, TracedRunHoldsTheRtlSignalsBesideTheTlmProbes) {
  GMS_SKIP_IN_ASAN_BUILD();
  const std::string d = temp_dir("rtl_cosim_vcd");
  const CliResult c = run_cli("run -q -c " + gms_src("configs/fermi.yaml") + " -w " +
                              gms_src("configs/workloads/small.yaml") + " -o " + d +
                              " --set noc.arbiter=rtl --vcd " + d + "/wave.vcd --trace xbar");
  ASSERT_EQ(c.status, 0) << c.out;
  const VcdFile f = VcdFile::load(d + "/wave.vcd");
  const auto sig = [&f](const std::string& n) -> const VcdSignal& { return f.signal(kTop + n); };
  // The crossbar's TLM-level probes...
  ASSERT_TRUE(f.has(kTop + "xbar.req_buffered_flits"));
  // ...and, in the same file, each network's RTL arbiter: its registers and its request / grant vectors.
  for (const std::string net : {"req", "resp"}) {
    const std::string scope = "xbar." + net + "_arbiter.";
    ASSERT_FALSE(f.names_under(kTop + scope).empty()) << scope;
    for (const std::string v : {"rst", "gnt", "taken", "ptr_q(0)", "ptr_q(11)", "req_o(0)", "gnt_input_o(0)"})
      EXPECT_TRUE(f.has(kTop + scope + v)) << scope << v;
  }
  EXPECT_GT(moves(sig("xbar.req_buffered_flits")), 100u);
  EXPECT_GT(moves(sig("xbar.req_arbiter.ptr_q(0)")), 100u);  // the pointer registers move...
  EXPECT_GT(moves(sig("xbar.req_arbiter.req_o(0)")), 100u);  // ...with the requests and grants
  EXPECT_GT(moves(sig("xbar.req_arbiter.gnt")), 100u);
  // Tracing adds delta cycles, not time: the statistics are those of an untraced C++ run.
  const RunOut cpp = run("vcd", "fermi", "small", "rr");
  EXPECT_TRUE(lines_without_wall_clock(cpp.csv) == lines_without_wall_clock(read_file(d + "/stats.csv")));
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
  const VcdFile f = VcdFile::load(d + "/wave.vcd");
  ASSERT_TRUE(f.has(kTop + "xbar_rtl_clk.clk"));
  const std::vector<VcdChange>& clk = f.signal(kTop + "xbar_rtl_clk.clk").changes;
  const std::vector<VcdChange>& rst = f.signal(kTop + "xbar_rtl_clk.rst").changes;
  ASSERT_GT(clk.size(), 101u);
  for (size_t k = 1; k < clk.size(); ++k) {  // after the $dumpvars value
    const uint64_t rise = 714 + ((k - 1) / 2) * 1429;
    ASSERT_EQ(clk[k].time, (k - 1) % 2 ? rise + 715 : rise) << k;
    ASSERT_EQ(clk[k].value, (k - 1) % 2 ? 0u : 1u) << k;
  }
  // In reset from the start, released at the first rising edge.
  ASSERT_EQ(rst.size(), 2u);
  EXPECT_EQ(rst[0].value, 1u);
  EXPECT_EQ(rst[1].time, 714u);
  EXPECT_EQ(rst[1].value, 0u);
  // The arbiters' own view of the handshake: valid rises at cycle edges and falls at rising edges.
  const std::vector<VcdChange>& valid = f.signal(kTop + "xbar.req_arbiter.valid").changes;
  ASSERT_GT(valid.size(), 101u);
  for (size_t k = 1; k < valid.size(); ++k)
    EXPECT_EQ(valid[k].time % 1429, valid[k].value == 1 ? 0u : 714u) << valid[k].time;
  // Without the clock's name the clock is not traced.
  const std::string d2 = temp_dir("rtl_cosim_vcd_noclk");
  ASSERT_EQ(run_cli("run -q -c " + gms_src("configs/fermi.yaml") + " -w " +
                    gms_src("configs/workloads/small.yaml") + " -o " + d2 + " --set noc.arbiter=rtl --vcd " +
                    d2 + "/wave.vcd --trace xbar")
                .status,
            0);
  EXPECT_TRUE(VcdFile::load(d2 + "/wave.vcd").names_under(kTop + "xbar_rtl_clk.").empty());
}
