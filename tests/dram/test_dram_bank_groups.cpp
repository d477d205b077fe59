// Bank groups: exact cycles of back-to-back reads and activates in one bank group (tCCDL, tRRDL) versus
// different groups (tCCD, tRRD), and that without groups the long values change nothing. The GDDR5
// defaults with 4 groups, tCCDL = 4 and tRRDL = 10 (test values: tCCD = 2, tRRD = 6, a 64 B burst of
// 2 cycles, tRCD = tCL = 12).
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/dram/dram_rig.h"

using gms_test::read64;
using gms_test::read_at;
using gms_test::Rig;
using gms_test::Scripted;

namespace {
gms::DramParams grouped() {
  gms::DramParams p;
  p.bank_groups = 4;
  p.tCCDL = 4;
  p.tRRDL = 10;
  return p;
}

// Address of (bank, row, 64 B column) under the default mapping with 4 groups: byte 0-5, column bit 0 at
// 6 (the line's two bursts), bank bits 0-1 (= the group) at 7-8, column bits 1-4 at 9-12, bank bits 2-3
// at 13-14, row from 15. Consecutive 128 B lines thus rotate over the 4 groups.
uint64_t at(uint64_t bank, uint64_t row, uint64_t column) {
  return (row << 15) | ((bank >> 2) << 13) | ((column >> 1) << 9) | ((bank & 3) << 7) | ((column & 1) << 6);
}

uint64_t last_response(Rig& rig, size_t from, size_t to) {
  uint64_t end = 0;
  for (size_t k = from; k < to; ++k) end = std::max(end, rig.cycle_of(rig.req(k).response_ps));
  return end;
}
}  // namespace

TEST(DramBankGroups, DefaultMappingRotatesLinesOverGroups) {
  gms::DramParams p = grouped();
  p.resolve_mapping();
  gms::DramMapping m(p.column_bits, p.bank_bits, p.row_bits);
  for (uint64_t line = 0; line < 8; ++line) {
    EXPECT_EQ(m.decode(line * 128).bank, line % 4) << line;  // group = bank % 4
    EXPECT_EQ(m.decode(line * 128).column, 2 * (line / 4)) << line;
    EXPECT_EQ(m.decode(line * 128 + 64).column, 2 * (line / 4) + 1) << line;  // the line's second burst
  }
  EXPECT_EQ(m.decode(at(13, 5, 21)).bank, 13u);
  EXPECT_EQ(m.decode(at(13, 5, 21)).row, 5u);
  EXPECT_EQ(m.decode(at(13, 5, 21)).column, 21u);
}

// A line's two bursts lie in one bank, so in one group: tCCDL apart instead of tCCD.
TEST(DramBankGroups, LineBurstsInOneGroupAreTccdlApart) {
  gms::DramParams p = grouped();
  Rig rig(p, {read_at(at(0, 0, 0))});
  rig.run();
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), p.tRCD + p.tCCDL + p.tCL + p.burst_cycles());
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), 30u);  // 28 without groups
}

// Two open rows, 8 row-hit reads alternating between them: in two groups a RD every tCCD (each group
// sees one every 2 * tCCD = tCCDL), in one group a RD every tCCDL. Rows are opened at cycle 0; the
// different-group stream arrives at cycle 100, the same-group one at 200.
TEST(DramBankGroups, BackToBackReadsSameGroupVersusOtherGroup) {
  gms::DramParams p = grouped();
  gms::Clock clk(p.clock_mhz);
  const uint64_t per = clk.period_ps(), n = 8;
  // Banks 0 (group 0) and 1 (group 1); banks 2 and 6 (both group 2).
  std::vector<Scripted> s = {read64(at(0, 0, 0)), read64(at(1, 0, 0)), read64(at(2, 0, 0)),
                             read64(at(6, 0, 0))};
  for (uint64_t k = 0; k < n; ++k) s.push_back(read64(at(k % 2 ? 1 : 0, 0, 1 + k), 100 * per));
  for (uint64_t k = 0; k < n; ++k) s.push_back(read64(at(k % 2 ? 6 : 2, 0, 1 + k), 200 * per));
  Rig rig(p, s);
  rig.run();
  const uint64_t data = p.tCL + p.burst_cycles();
  const uint64_t other_group = last_response(rig, 4, 4 + n) - 100;
  const uint64_t same_group = last_response(rig, 4 + n, 4 + 2 * n) - 200;
  EXPECT_EQ(other_group, (n - 1) * p.tCCD + data);
  EXPECT_EQ(same_group, (n - 1) * p.tCCDL + data);
  EXPECT_EQ(other_group, 28u);
  EXPECT_EQ(same_group, 42u);
  EXPECT_EQ(rig.stat("row_hits"), 2 * n);
  EXPECT_EQ(rig.stat("activates"), 4);
}

// Two reads to closed banks at once: the second ACT waits tRRD (other group) or tRRDL (same group), its
// RD tRCD after that. Banks 0 and 1 at cycle 0, banks 2 and 6 at cycle 1000.
TEST(DramBankGroups, ActivatesSameGroupVersusOtherGroup) {
  gms::DramParams p = grouped();
  gms::Clock clk(p.clock_mhz);
  const uint64_t per = clk.period_ps();
  Rig rig(p, {read64(at(0, 0, 0)), read64(at(1, 0, 0)), read64(at(2, 0, 0), 1000 * per),
              read64(at(6, 0, 0), 1000 * per)});
  rig.run();
  const uint64_t rd = p.tRCD + p.tCL + p.burst_cycles();
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), rd);
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), p.tRRD + rd);
  EXPECT_EQ(rig.cycle_of(rig.req(2).response_ps) - 1000, rd);
  EXPECT_EQ(rig.cycle_of(rig.req(3).response_ps) - 1000, p.tRRDL + rd);
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), 32u);
  EXPECT_EQ(rig.cycle_of(rig.req(3).response_ps) - 1000, 36u);
}

// bank_groups = 1: tCCDL and tRRDL are ignored. A line read to bank 0 and a 64 B read to bank 4 (bank
// bits 11-14 of the default mapping; the same group as bank 0 if there were 4) take the cycles of the
// default channel: 28 and tRRD + 26 = 32.
TEST(DramBankGroups, WithoutGroupsTheLongValuesChangeNothing) {
  gms::DramParams p;
  p.tCCDL = 8;
  p.tRRDL = 20;
  Rig rig(p, {read_at(0), read64(uint64_t(4) << 11)});
  rig.run();
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), 28u);
  EXPECT_EQ(rig.cycle_of(rig.req(1).response_ps), p.tRRD + 26u);
  EXPECT_EQ(rig.dram->decode(uint64_t(4) << 11).bank, 4u);
}
