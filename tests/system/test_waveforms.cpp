// The waveform a user opens (docs/waveforms.md): gpumemsys --vcd on the tiny preset with a workload whose
// timing is known (tests/data/waveforms/one_line_twice.yaml: one warp loads one line, computes, loads it
// again). Our VCD reader checks that the miss's round trip (L1 miss, NoC grant, LLC miss, DRAM ACT then
// two RDs, fill) and the later L1 hit appear at the exact simulated times the configuration's latencies
// give, and that --trace-from/--trace-to and --trace globs keep only what they select.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "models/common/clock.h"
#include "tests/cli/cli_runner.h"
#include "tests/common/vcd_reader.h"
#include "tests/system/system_case.h"

namespace {

using gms::test::VcdFile;
using gms::test::VcdSignal;

const std::string kTop = "SystemC.";
constexpr uint64_t kGap = 3000;  // the workload's gap, SM cycles

std::string run_line(const std::string& dir) {
  return "run -q -c " + gms_src("configs/tiny.yaml") + " -w " +
         gms_src("tests/data/waveforms/one_line_twice.yaml") + " -o " + dir + "/out";
}

uint64_t ceil_to(uint64_t t, uint64_t period) {
  return (t + period - 1) / period * period;
}

// Every time (ps) the run's events must have, derived from tiny.yaml's latencies.
struct Expected {
  uint64_t miss, req_in, req_grant, llc, act, rd, rd2, data, llc_fill, reply_in, reply_grant, reply_out,
      l1_fill, hit;
  uint64_t dram_period, l1_period;
};

Expected derive() {
  const gms::SystemConfig cfg = gms::test::load_config("tiny", {});
  const uint64_t sm = gms::Clock(cfg.sm.clock_mhz).period_ps(), l1 = gms::Clock(cfg.l1.clock_mhz).period_ps(),
                 noc = gms::Clock(cfg.noc.clock_mhz).period_ps(),
                 llc = gms::Clock(cfg.llc.clock_mhz).period_ps(),
                 dram = gms::Clock(cfg.dram.clock_mhz).period_ps();
  EXPECT_EQ(sm, l1) << "the derivation assumes the L1 runs at the SM clock";
  EXPECT_EQ(noc, llc) << "the derivation assumes the LLC runs at the NoC clock";
  const auto& d = cfg.dram;
  Expected e;
  e.dram_period = dram;
  e.l1_period = l1;
  // SM (docs/blocks/sm.md): the CTA launches at 0; the warp's first load issues after `gap` SM cycles and
  // reaches the L1 in the same cycle: a miss (MSHR 1).
  e.miss = kGap * sm;
  // L1 (docs/blocks/l1.md): a request accepted in cycle c puts its downstream request in the miss queue for
  // cycle c+1: it enters the request network's input 0 then.
  e.req_in = e.miss + l1;
  // NoC (crossbar_network.h): a packet arriving at t is buffered during cycle floor(t/P) and, uncontended,
  // wins the next cycle w; it is handed to the LLC at w + latency + flits - 1. A read request is one flit
  // (8 B of control).
  const uint64_t req_flits = cfg.noc.packet_flits(0), reply_flits = cfg.noc.packet_flits(128);
  EXPECT_EQ(req_flits, 1u);
  const uint64_t w = e.req_in / noc + 1;
  e.req_grant = w * noc;
  e.llc = (w + cfg.noc.latency + req_flits - 1) * noc;
  // LLC (docs/blocks/llc.md): it arrives on an LLC edge and is accessed in that cycle: a miss, whose fetch
  // leaves for DRAM in the same cycle.
  // DRAM (docs/blocks/dram.md): ACT at the first DRAM edge at or after the arrival, RD tRCD later; the
  // 128 B line is two 64 B bursts, the second RD tCCD after the first. The data is complete tCL + one
  // burst after the last RD (+ controller_latency).
  EXPECT_EQ(d.burst_bytes(), 64u);
  e.act = ceil_to(e.llc, dram);
  e.rd = e.act + d.tRCD * dram;
  e.rd2 = e.rd + d.tCCD * dram;
  e.data = e.rd2 + (d.tCL + d.burst_cycles() + d.controller_latency) * dram;
  // LLC: the fill is accessed at the next LLC edge (MSHR freed) and answers its waiter one cycle later,
  // into the reply network's input 0 (the slice); 128 B + 8 B of control make 5 flits.
  e.llc_fill = ceil_to(e.data, llc);
  e.reply_in = e.llc_fill + llc;
  EXPECT_EQ(reply_flits, 5u);
  const uint64_t rw = e.reply_in / noc + 1;
  e.reply_grant = rw * noc;
  e.reply_out = (rw + cfg.noc.latency + reply_flits - 1) * noc;
  // L1: a fill takes effect in the L1 cycle after it arrives (MSHR freed, the SM answered).
  e.l1_fill = (e.reply_out / l1 + 1) * l1;
  // The second load issues `gap` SM cycles after the first: the line is there, an L1 hit.
  e.hit = e.miss + kGap * sm;
  return e;
}

// (time, value) of every change of a signal after the $dumpvars instant.
std::vector<std::pair<uint64_t, uint64_t>> changes(const VcdSignal& s, uint64_t from = 1) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& c : s.changes_between(from, UINT64_MAX)) out.push_back({c.time, c.value});
  return out;
}

using Changes = std::vector<std::pair<uint64_t, uint64_t>>;

}  // namespace

TEST(Waveforms, OneMissAndOneHitAtTheTimesTheLatenciesGive) {
  const std::string dir = temp_dir("waveforms_full");
  const CliResult r = run_cli(run_line(dir) + " --vcd " + dir + "/wave.vcd");
  ASSERT_EQ(r.status, 0) << r.out;
  const VcdFile f = VcdFile::load(dir + "/wave.vcd");
  ASSERT_EQ(f.ps_per_unit(), 1u);
  const Expected e = derive();
  // With tiny.yaml's clocks (SM/L1 714 ps, NoC/LLC 1429 ps, DRAM 1082 ps) the chain lands at these times;
  // written out so that a change of the derivation's inputs shows here too.
  EXPECT_EQ(e.miss, 2142000u);
  EXPECT_EQ(e.act, 2146688u);
  EXPECT_EQ(e.hit, 4284000u);

  const auto sig = [&f](const std::string& n) -> const VcdSignal& { return f.signal(kTop + n); };
  // L1: the miss (counter, one-cycle pulse, MSHR) and, after the fill, the hit.
  EXPECT_EQ(changes(sig("l1_0.misses")), (Changes{{e.miss, 1}}));
  EXPECT_EQ(changes(sig("l1_0.miss")), (Changes{{e.miss, 1}, {e.miss + e.l1_period, 0}}));
  EXPECT_EQ(changes(sig("l1_0.mshr_occupancy")), (Changes{{e.miss, 1}, {e.l1_fill, 0}}));
  EXPECT_EQ(changes(sig("l1_0.hits")), (Changes{{e.hit, 1}}));
  EXPECT_EQ(changes(sig("l1_0.hit")), (Changes{{e.hit, 1}, {e.hit + e.l1_period, 0}}));
  EXPECT_TRUE(changes(sig("l1_1.misses")).empty()) << "the other SM has no CTA";
  // NoC: the request through input 0 to output 0 (the slice), the reply back through the reply network.
  EXPECT_EQ(changes(sig("xbar.req.in0_flits")), (Changes{{e.req_in, 1}, {e.llc, 0}}));
  EXPECT_EQ(changes(sig("xbar.req.out0_grants")), (Changes{{e.req_grant, 1}}));
  EXPECT_EQ(changes(sig("xbar.req_delivered")), (Changes{{e.llc, 1}}));
  EXPECT_EQ(changes(sig("xbar.resp.in0_flits")), (Changes{{e.reply_in, 5}, {e.reply_out, 0}}));
  EXPECT_EQ(changes(sig("xbar.resp.out0_grants")), (Changes{{e.reply_grant, 1}}));
  // LLC: a miss on arrival, its MSHR held until the fill; the request never waited in the input queue.
  EXPECT_EQ(changes(sig("llc0.misses")), (Changes{{e.llc, 1}}));
  EXPECT_EQ(changes(sig("llc0.mshr_occupancy")), (Changes{{e.llc, 1}, {e.llc_fill, 0}}));
  EXPECT_TRUE(changes(sig("llc0.request_queue")).empty());
  EXPECT_TRUE(changes(sig("llc0.hits")).empty());
  // DRAM: queued on arrival, ACT - RD - RD on the command bus, one DRAM cycle each (2 ACT, 3 RD, 0 NOP),
  // the bank opened by the ACT, a row miss counted at the first RD, the queue emptied by the last RD.
  const uint64_t p = e.dram_period;
  EXPECT_EQ(changes(sig("dram0.command")),
            (Changes{{e.act, 2}, {e.act + p, 0}, {e.rd, 3}, {e.rd + p, 0}, {e.rd2, 3}, {e.rd2 + p, 0}}));
  EXPECT_EQ(changes(sig("dram0.queue")), (Changes{{e.llc, 1}, {e.rd2, 0}}));
  const uint64_t bank = sig("dram0.command_bank").value_at(e.act);
  EXPECT_EQ(changes(sig("dram0.bank" + std::to_string(bank) + ".state")), (Changes{{e.act, 1}}));
  EXPECT_EQ(changes(sig("dram0.row_misses")), (Changes{{e.rd, 1}}));
  EXPECT_TRUE(changes(sig("dram0.row_hits")).empty());
  // SM: one load in flight from issue to the fill, then the hit's single cycle.
  EXPECT_EQ(changes(sig("sm0.in_flight")),
            (Changes{{e.miss, 1}, {e.l1_fill, 0}, {e.hit, 1}, {e.hit + e.l1_period, 0}}));
  EXPECT_EQ(f.last_time(), e.hit + e.l1_period) << "the run ends as the CTA retires";

  // Tracing observes and changes nothing: the statistics equal an untraced run's.
  const std::string plain = temp_dir("waveforms_plain");
  const CliResult u = run_cli(run_line(plain));
  ASSERT_EQ(u.status, 0) << u.out;
  EXPECT_EQ(read_file(dir + "/out/stats.json"), read_file(plain + "/out/stats.json"));
}

// --trace-from/--trace-to: the file opens at `from` with the values as they stand (the L1 miss before it
// is folded in), keeps the changes inside the window and ends at `to`; the DRAM's second RD and the L1
// hit, after the window, are not in it. --trace keeps only the selected blocks.
TEST(Waveforms, WindowAndGlobsKeepOnlyWhatTheySelect) {
  const Expected e = derive();
  const uint64_t from = e.req_grant, to = e.rd2 - 1;
  const std::string dir = temp_dir("waveforms_window");
  const CliResult r =
      run_cli(run_line(dir) + " --vcd " + dir + "/win.vcd --trace 'l1_0,dram*' --trace-from " +
              std::to_string(from) + "ps --trace-to " + std::to_string(to) + "ps");
  ASSERT_EQ(r.status, 0) << r.out;
  const VcdFile f = VcdFile::load(dir + "/win.vcd");
  EXPECT_EQ(f.first_time(), from);
  EXPECT_EQ(f.last_time(), to);
  for (const auto& n : f.names()) {
    EXPECT_TRUE(n.rfind(kTop + "l1_0.", 0) == 0 || n.rfind(kTop + "dram0.", 0) == 0) << n;
    for (const auto& c : f.signal(n).changes) {
      EXPECT_GE(c.time, from) << n;
      EXPECT_LE(c.time, to) << n;
    }
  }
  const auto sig = [&f](const std::string& n) -> const VcdSignal& { return f.signal(kTop + n); };
  EXPECT_EQ(sig("l1_0.misses").value_at(from), 1u) << "the miss before the window, in the opening values";
  EXPECT_TRUE(changes(sig("l1_0.misses"), from + 1).empty());
  EXPECT_EQ(changes(sig("l1_0.hits"), 0), (Changes{{from, 0}})) << "the hit is after the window";
  const uint64_t p = e.dram_period;
  EXPECT_EQ(changes(sig("dram0.command"), from + 1),
            (Changes{{e.act, 2}, {e.act + p, 0}, {e.rd, 3}, {e.rd + p, 0}}));
  EXPECT_FALSE(f.has(kTop + "llc0.misses"));
  EXPECT_FALSE(f.has(kTop + "l1_1.misses"));

  // The same window without globs is smaller than the whole run's dump (the point of the window).
  const CliResult all = run_cli(run_line(dir) + " --vcd " + dir + "/all.vcd");
  ASSERT_EQ(all.status, 0) << all.out;
  const CliResult win = run_cli(run_line(dir) + " --vcd " + dir + "/allwin.vcd --trace-from " +
                                std::to_string(from) + "ps --trace-to " + std::to_string(to) + "ps");
  ASSERT_EQ(win.status, 0) << win.out;
  const VcdFile fa = VcdFile::load(dir + "/all.vcd"), fw = VcdFile::load(dir + "/allwin.vcd");
  size_t na = 0, nw = 0;
  for (const auto& n : fa.names()) na += fa.signal(n).changes.size();
  for (const auto& n : fw.names()) nw += fw.signal(n).changes.size();
  EXPECT_EQ(fa.size(), fw.size());
  EXPECT_LT(nw, na);
}

// A router NoC (hxbar) traced in the whole system: the VCD is written (it failed before: router probes
// are declared at end_of_elaboration) and shows the request crossing the routers.
TEST(Waveforms, RouterNocIsTracedInTheWholeSystem) {
  const std::string dir = temp_dir("waveforms_hxbar");
  const CliResult r =
      run_cli(run_line(dir) + " --set noc.type=hxbar --vcd " + dir + "/wave.vcd --trace 'xbar'");
  ASSERT_EQ(r.status, 0) << r.out;
  const VcdFile f = VcdFile::load(dir + "/wave.vcd");
  const auto routers = f.names_under(kTop + "xbar.req.");
  ASSERT_FALSE(routers.empty());
  uint64_t grants = 0;
  for (const auto& n : routers)
    if (n.size() > 7 && n.substr(n.size() - 7) == ".grants") grants += f.signal(n).value_at(f.last_time());
  EXPECT_GE(grants, 2u) << "the one request crossed at least an SM-router and an MC-router";
}
