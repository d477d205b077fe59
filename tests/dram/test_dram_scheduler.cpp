// Request scheduling: FR-FCFS versus FCFS order, back-pressure of a full queue, held END_RESP.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/common/vcd_reader.h"
#include "tests/dram/dram_rig.h"

using gms_test::read64;
using gms_test::read_at;
using gms_test::Rig;
using gms_test::Scripted;

namespace {
uint64_t at(uint64_t bank, uint64_t row, uint64_t column) {
  return (row << 15) | (bank << 11) | (column << 6);
}

// A opens row 0 of bank 0; at cycle 30 an older request B to row 1 and a younger C to row 0 arrive.
std::vector<Scripted> hit_behind_conflict(uint64_t period_ps) {
  return {read64(at(0, 0, 0), 0), read64(at(0, 1, 0), 30 * period_ps), read64(at(0, 0, 5), 30 * period_ps)};
}
}  // namespace

TEST(DramScheduler, FrFcfsServesYoungerRowHitBeforeOlderConflict) {
  gms::DramParams p;
  gms::Clock clk(p.clock_mhz);
  Rig rig(p, hit_behind_conflict(clk.period_ps()));
  rig.run();
  const uint64_t burst = p.burst_cycles(), arrive = 30;
  EXPECT_EQ(rig.ini->response_order, (std::vector<size_t>{0, 2, 1}));
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), p.tRCD + p.tCL + burst);
  // C reads the open row at once.
  EXPECT_EQ(rig.cycle_of(rig.req(2).response_ps), arrive + p.tCL + burst);
  // B: PRE after C's read leaves the row (and tRAS), ACT after tRP (and tRC), RD after tRCD.
  uint64_t pre = std::max<uint64_t>(p.tRAS, arrive + burst);
  uint64_t act = std::max<uint64_t>(pre + p.tRP, p.tRC);
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), act + p.tRCD + p.tCL + burst);
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), 70u);
  EXPECT_EQ(rig.stat("row_hits"), 1);
  EXPECT_EQ(rig.stat("row_misses"), 1);
  EXPECT_EQ(rig.stat("row_conflicts"), 1);
}

TEST(DramScheduler, FcfsServesStrictlyInArrivalOrder) {
  gms::DramParams p;
  p.scheduler = gms::SchedulerPolicy::Fcfs;
  gms::Clock clk(p.clock_mhz);
  Rig rig(p, hit_behind_conflict(clk.period_ps()));
  rig.run();
  const uint64_t burst = p.burst_cycles(), arrive = 30;
  EXPECT_EQ(rig.ini->response_order, (std::vector<size_t>{0, 1, 2}));
  // B: PRE at once (A's tRAS has passed), ACT, RD.
  uint64_t b_act = std::max<uint64_t>(arrive + p.tRP, p.tRC), b_rd = b_act + p.tRCD;
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), b_rd + p.tCL + burst);
  // C now conflicts with B's row: PRE after B's tRAS, then ACT after tRP and tRC.
  uint64_t c_pre = std::max<uint64_t>(b_act + p.tRAS, b_rd + burst);
  uint64_t c_act = std::max<uint64_t>(c_pre + p.tRP, b_act + p.tRC);
  EXPECT_EQ(rig.cycle_of(rig.req(2).response_ps), c_act + p.tRCD + p.tCL + burst);
  EXPECT_EQ(rig.cycle_of(rig.req(2).response_ps), 108u);
  EXPECT_EQ(rig.stat("row_hits"), 0);
  EXPECT_EQ(rig.stat("row_conflicts"), 2);
}

TEST(DramScheduler, FullQueueHoldsEndReqAndReleasesIt) {
  gms::DramParams p;
  p.queue_size = 2;
  std::vector<Scripted> s;
  for (unsigned k = 0; k < 4; ++k) s.push_back(read64(at(0, 0, k), 0));
  Rig rig(p, s);
  rig.run();
  const uint64_t rd1 = p.tRCD, rd2 = rd1 + p.tCCD;
  // Two fit; the third waits for END_REQ until the first leaves the queue (its RD), the fourth until
  // the second's RD.
  EXPECT_EQ(rig.cycle_of(rig.req(0).accepted_ps), 0u);
  EXPECT_EQ(rig.cycle_of(rig.req(1).accepted_ps), 0u);
  EXPECT_EQ(rig.cycle_of(rig.req(2).accepted_ps), rd1);
  EXPECT_EQ(rig.cycle_of(rig.req(3).accepted_ps), rd2);
  for (unsigned k = 0; k < 4; ++k)
    EXPECT_EQ(rig.cycle_of(rig.req(k).response_ps), rd1 + k * uint64_t(p.tCCD) + p.tCL + p.burst_cycles());
  EXPECT_EQ(rig.stat("held_requests"), 2);
  // Full from 0 to rd1, from rd1 to rd2, from rd2 to the third's RD.
  EXPECT_EQ(rig.stat("queue_full_cycles"), rd2 + p.tCCD);
  EXPECT_EQ(rig.stat("responses"), 4);
}

TEST(DramScheduler, HeldEndRespQueuesLaterResponses) {
  gms::DramParams p;
  gms::Clock clk(p.clock_mhz);
  Rig rig(p, {read64(at(0, 0, 0), 0), read64(at(0, 0, 1), 0)});
  const uint64_t hold = 20;
  rig.ini->hold_end_resp_ps = hold * clk.period_ps();
  rig.run();
  const uint64_t first = p.tRCD + p.tCL + p.burst_cycles();
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), first);
  // The second's data completed at first + tCCD but its BEGIN_RESP waits for the first's END_RESP.
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), first + hold);
  EXPECT_DOUBLE_EQ(rig.stat("avg_read_latency"), (first + first + hold) / 2.0);
  EXPECT_EQ(rig.stat("responses"), 2);
}

// Two initiators on one channel (the multi-socket fan-in from several LLC slices): each gets exactly
// its own responses, and requests to different banks overlap.
TEST(DramScheduler, TwoInitiatorsShareTheChannel) {
  gms::DramParams p;
  gms_test::Rig rig(p, {read64(at(0, 0, 0), 0)});
  gms::Clock clk(p.clock_mhz);
  gms_test::FakeInitiator second("second", rig.pool, {read64(at(1, 0, 0), clk.period_ps())});
  second.isock.bind(rig.dram->tsock);
  rig.run();
  const uint64_t burst = p.burst_cycles(), closed = p.tRCD + p.tCL + burst;
  ASSERT_EQ(rig.ini->responses(), 1u);
  ASSERT_EQ(second.responses(), 1u);
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), closed);
  // The second arrives a cycle later; its bank's ACT waits tRRD behind the first.
  EXPECT_EQ(rig.cycle_of(second.script[0].response_ps), p.tRRD + closed);
  EXPECT_EQ(rig.stat("requests"), 2);
  EXPECT_EQ(rig.stat("activates"), 2);
}

// A traced channel records its queue occupancy and row hits in the VCD; the counts match the stats.
TEST(DramScheduler, TracedChannelWritesProbes) {
  const std::string vcd = std::string(GMS_BINARY_DIR) + "/dram_trace_test.vcd";
  std::vector<Scripted> s;
  for (unsigned k = 0; k < 4; ++k) s.push_back(read64(at(0, 0, k), 0));
  {
    gms::TraceSelector sel(vcd, {"dram*"});
    gms::DramParams p;
    Rig rig(p, s, &sel);
    rig.run();
    EXPECT_EQ(rig.stat("row_hits"), 3);
    sel.close();  // writes the file (destroyed without close(), an error path, it is discarded)
  }
  std::ifstream f(vcd);
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("queue"), std::string::npos);
  EXPECT_NE(text.str().find("row_hits"), std::string::npos);
  EXPECT_NE(text.str().find("b11 "), std::string::npos);   // row_hits reached 3
  EXPECT_NE(text.str().find("b100 "), std::string::npos);  // four requests queued at once
}

// The command bus in the VCD: one read of a closed bank issues ACT (2) at its arrival's edge and RD (3)
// tRCD cycles later, each on the bus for one DRAM cycle (NOP, 0, between), both naming its bank; the bank
// shows active from the ACT with the row it opened.
TEST(DramScheduler, TracedChannelShowsTheCommandBusAndBankState) {
  const std::string vcd = std::string(GMS_BINARY_DIR) + "/dram_command_bus.vcd";
  gms::DramParams p;
  uint64_t period = 0;
  {
    gms::TraceSelector sel(vcd, {"dram*"});
    Rig rig(p, {read64(at(5, 7, 0), 0)}, &sel);
    period = rig.period();
    rig.run();
    sel.close();
  }
  const auto f = gms::test::VcdFile::load(vcd);
  ASSERT_EQ(f.ps_per_unit(), 1u);  // VCD times are ps, as rig.period()
  const auto& cmd = f.signal("SystemC.dram.command");
  using Changes = std::vector<std::pair<uint64_t, uint64_t>>;  // (time, command)
  Changes cmds;
  for (const auto& c : cmd.changes) cmds.push_back({c.time, c.value});
  const uint64_t act = cmd.first_time_of(2);
  ASSERT_NE(act, UINT64_MAX);
  EXPECT_EQ(act % period, 0u) << "commands issue on clock edges";
  const Changes expected = {
      {act, 2}, {act + period, 0}, {act + p.tRCD * period, 3}, {act + (p.tRCD + 1) * period, 0}};
  ASSERT_GE(cmds.size(), 4u);
  EXPECT_EQ(Changes(cmds.end() - 4, cmds.end()), expected);
  EXPECT_EQ(f.signal("SystemC.dram.command_bank").value_at(act), 5u);
  const auto& state = f.signal("SystemC.dram.bank5.state");
  EXPECT_EQ(state.first_time_of(1), act);
  EXPECT_EQ(state.value_at(f.last_time()), 1u) << "open page: the row stays open";
  EXPECT_EQ(f.signal("SystemC.dram.bank5.row").value_at(act), 7u);
  EXPECT_EQ(f.signal("SystemC.dram.bank4.state").value_at(f.last_time()), 0u);
  EXPECT_EQ(f.signal("SystemC.dram.row_misses").value_at(f.last_time()), 1u);
  EXPECT_EQ(f.signal("SystemC.dram.row_hits").value_at(f.last_time()), 0u);
}

// controller_latency delays every response by a fixed number of cycles and leaves the bank timing alone:
// the same schedule as FrFcfsServesYoungerRowHitBeforeOlderConflict, each response 25 cycles later.
TEST(DramScheduler, ControllerLatencyDelaysEveryResponseExactly) {
  gms::DramParams p;
  p.controller_latency = 25;
  gms::Clock clk(p.clock_mhz);
  Rig rig(p, hit_behind_conflict(clk.period_ps()));
  rig.run();
  const uint64_t burst = p.burst_cycles();
  EXPECT_EQ(rig.ini->response_order, (std::vector<size_t>{0, 2, 1}));
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), p.tRCD + p.tCL + burst + 25);
  EXPECT_EQ(rig.cycle_of(rig.req(2).response_ps), 30 + p.tCL + burst + 25);
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), 70u + 25);
}
