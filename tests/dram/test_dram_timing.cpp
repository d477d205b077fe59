// Exact command timing of one channel: closed-bank read latency, open-row streams versus row switching,
// and the bandwidth of a long sequential stream.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/dram/dram_rig.h"

using gms_test::read64;
using gms_test::read_at;
using gms_test::Rig;
using gms_test::Scripted;

namespace {
// Address of (bank, row, 64 B column) under the default mapping (byte 0-5, column 6-10, bank 11-14, row 15+).
uint64_t at(uint64_t bank, uint64_t row, uint64_t column) {
  return (row << 15) | (bank << 11) | (column << 6);
}
}  // namespace

TEST(DramTiming, SingleReadToClosedBankTakesRcdPlusClPlusBurst) {
  gms::DramParams p;
  Rig rig(p, {read_at(at(3, 5, 0), 0, 0x3)});  // chunks 0-1: one 64 B burst
  rig.run();
  ASSERT_EQ(rig.req(0).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), uint64_t(p.tRCD + p.tCL + p.burst_cycles()));
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), 26u);
  EXPECT_EQ(rig.req(0).chunks_returned, 0x3);
  EXPECT_EQ(rig.stat("row_misses"), 1);
  EXPECT_EQ(rig.stat("activates"), 1);
  EXPECT_EQ(rig.stat("precharges"), 0);
  EXPECT_EQ(rig.stat("bytes_read"), 64);
  EXPECT_DOUBLE_EQ(rig.stat("avg_read_latency"), 26.0);
}

TEST(DramTiming, FullLineReadIsTwoBurstsTccdApart) {
  gms::DramParams p;
  Rig rig(p, {read_at(at(0, 0, 0))});
  rig.run();
  uint64_t expect = p.tRCD + std::max(p.tCCD, p.burst_cycles()) + p.tCL + p.burst_cycles();
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), expect);
  EXPECT_EQ(expect, 28u);
  EXPECT_EQ(rig.stat("bytes_read"), 128);
  EXPECT_EQ(rig.req(0).chunks_returned, 0xf);
}

// N reads to one open row versus N reads alternating between two rows of one bank (FCFS, so the
// alternation is not reordered away). Stream A starts at cycle 0 in bank 0, stream B at cycle 1000 in
// bank 1; each bank starts closed.
TEST(DramTiming, OpenRowStreamVersusAlternatingRows) {
  gms::DramParams p;
  p.scheduler = gms::SchedulerPolicy::Fcfs;
  const unsigned n = 8;
  const uint64_t b_start = 1000;
  gms::Clock clk(p.clock_mhz);
  std::vector<Scripted> s;
  for (unsigned k = 0; k < n; ++k) s.push_back(read64(at(0, 0, k), 0));
  for (unsigned k = 0; k < n; ++k) s.push_back(read64(at(1, k % 2, k), b_start * clk.period_ps()));
  Rig rig(p, s);
  rig.run();
  uint64_t a_end = 0, b_end = 0;
  for (unsigned k = 0; k < n; ++k) {
    a_end = std::max(a_end, rig.cycle_of(rig.req(k).response_ps));
    b_end = std::max(b_end, rig.cycle_of(rig.req(n + k).response_ps) - b_start);
  }
  const uint64_t burst = p.burst_cycles();
  // Open row: one ACT, then a column command every tCCD.
  const uint64_t a_expect = p.tRCD + (n - 1) * uint64_t(p.tCCD) + p.tCL + burst;
  // Row switch per request: ACT..PRE no sooner than tRAS or read-to-precharge, PRE..ACT tRP, ACT..ACT tRC.
  const uint64_t row_cycle = std::max<uint64_t>(p.tRC, std::max<uint64_t>(p.tRAS, p.tRCD + burst) + p.tRP);
  const uint64_t b_expect = (n - 1) * row_cycle + p.tRCD + p.tCL + burst;
  EXPECT_EQ(a_end, a_expect);
  EXPECT_EQ(b_end, b_expect);
  EXPECT_EQ(b_end - a_end, (n - 1) * (row_cycle - p.tCCD));
  EXPECT_EQ(b_end - a_end, 266u);  // 7 * (40 - 2) with the paper's timing
  EXPECT_EQ(rig.stat("row_hits"), n - 1);
  EXPECT_EQ(rig.stat("row_misses"), 2);
  EXPECT_EQ(rig.stat("row_conflicts"), n - 1);
  EXPECT_EQ(rig.stat("activates"), n + 1);
  EXPECT_EQ(rig.stat("precharges"), n - 1);
}

TEST(DramTiming, SequentialStreamSustainsPeakBandwidth) {
  gms::DramParams p;
  const unsigned n = 4096;  // 128 B lines: 512 KiB, 256 rows
  std::vector<Scripted> s;
  for (unsigned k = 0; k < n; ++k) s.push_back(read_at(uint64_t(k) * 128));
  Rig rig(p, s);
  rig.run();
  const uint64_t end_ps = rig.last_ok_response_ps(n);
  double gbps = double(n) * 128 / (double(end_ps) * 1e-12) / 1e9;
  EXPECT_GE(gbps, 0.85 * p.peak_gbps()) << gbps << " GB/s of " << p.peak_gbps();
  EXPECT_GE(rig.stat("bus_utilization"), 0.85);
  EXPECT_DOUBLE_EQ(rig.stat("peak_gbps"), 8.0 * 4 * 924e6 / 1e9);
  EXPECT_EQ(rig.stat("requests"), n);
  EXPECT_EQ(rig.stat("responses"), n);
  // 16 lines per 2 KiB row; the first 16 rows find their banks closed, the other 240 another row open.
  EXPECT_EQ(rig.stat("row_misses"), 16);
  EXPECT_EQ(rig.stat("row_conflicts"), 240);
  EXPECT_EQ(rig.stat("row_hits"), n - 256);
  std::printf("sequential 128 B stream: %.2f GB/s of %.2f peak\n", gbps, p.peak_gbps());
}

TEST(DramTiming, ReadToWriteTurnaround) {
  gms::DramParams p;
  Scripted wr;
  wr.cmd = tlm::TLM_WRITE_COMMAND;
  wr.addr = at(2, 0, 2);  // same row as the read, another line
  wr.chunk_mask = 0x3;
  wr.data.assign(128, 0x11);
  Rig rig(p, {read64(at(2, 0, 0), 0), wr});
  rig.run();
  const uint64_t burst = p.burst_cycles(), rd_end = p.tRCD + p.tCL + burst;
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), rd_end);
  // The write burst starts tRTW after the read burst ends (WR issues tCWL before its data).
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), rd_end + p.tRTW + burst);
  EXPECT_EQ(rig.stat("row_hits"), 1);
  EXPECT_EQ(rig.stat("bus_utilization"), double(2 * burst) / double(rd_end + p.tRTW + burst));
}
