// The hbm3 standard on one channel: exact cycles of a sector read, bank-group parallelism (reads spread
// over groups versus the same count within one group, with closed and with open rows), and a sequential
// stream's bandwidth. hbm3: 32 B bursts of 1 cycle, tRCD 51, tCL 33, tRRD 2, tCCD 1, tCCDL 8; default
// mapping byte 0-4, column bits 0-1 at 5-6 (a line's 4 bursts), group at 7-11, column bits 2-4 at 12-14,
// bank in group at 15-16, row from 17.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/dram/dram_standards.h"
#include "tests/dram/dram_rig.h"

using gms_test::read_at;
using gms_test::Rig;
using gms_test::Scripted;

namespace {
gms::DramParams hbm3() {
  return gms::dram_standard(gms::DramStandard::Hbm3);
}

// Address of (group, bank within the group, row, 32 B column) under hbm3's default mapping.
uint64_t at(uint64_t group, uint64_t bank, uint64_t row, uint64_t column) {
  return (row << 17) | (bank << 15) | ((column >> 2) << 12) | (group << 7) | ((column & 3) << 5);
}

// A 32 B read: the line request of addr with addr's chunk.
Scripted sector(uint64_t addr, uint64_t send_ps = 0) {
  return read_at(gms::line_of(addr), send_ps, uint8_t(1u << ((addr >> 5) & 3)));
}

uint64_t last_response(Rig& rig, size_t from, size_t to) {
  uint64_t end = 0;
  for (size_t k = from; k < to; ++k) end = std::max(end, rig.cycle_of(rig.req(k).response_ps));
  return end;
}
}  // namespace

TEST(DramHbm3, SectorReadToClosedBank) {
  gms::DramParams p = hbm3();
  Rig rig(p, {sector(at(5, 2, 7, 9))});
  rig.run();
  ASSERT_EQ(rig.req(0).status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), p.tRCD + p.tCL + p.burst_cycles());
  EXPECT_EQ(rig.cycle_of(rig.req(0).response_ps), 85u);  // 32.5 ns
  EXPECT_EQ(rig.req(0).chunks_returned, 0x2);
  EXPECT_EQ(rig.stat("bytes_read"), 32);
  EXPECT_EQ(rig.dram->decode(at(5, 2, 7, 9)).bank, 5u + 32 * 2);  // group = the low 5 bank bits
}

// 16 sector reads spread over 16 groups versus 16 in one bank (so one group), first to closed banks
// (cycle 0 and 1000), then again to the now open rows (2000 and 3000). Across groups the ACTs go out
// every tRRD and the RDs every tCCD; within the group the RDs are tCCDL apart.
TEST(DramHbm3, ReadsAcrossBankGroupsVersusWithinOne) {
  gms::DramParams p = hbm3();
  gms::Clock clk(p.clock_mhz);
  const uint64_t per = clk.period_ps(), n = 16;
  std::vector<Scripted> s;
  for (uint64_t k = 0; k < n; ++k) s.push_back(sector(at(k, 0, 0, 0)));                    // groups 0-15
  for (uint64_t k = 0; k < n; ++k) s.push_back(sector(at(16, 0, 0, k), 1000 * per));       // group 16
  for (uint64_t k = 0; k < n; ++k) s.push_back(sector(at(k, 0, 0, 4), 2000 * per));        // open rows
  for (uint64_t k = 0; k < n; ++k) s.push_back(sector(at(16, 0, 0, 16 + k), 3000 * per));  // open row
  Rig rig(p, s);
  rig.run();
  const uint64_t data = p.tCL + p.burst_cycles();
  const uint64_t closed_groups = last_response(rig, 0, n), closed_one = last_response(rig, n, 2 * n) - 1000;
  const uint64_t open_groups = last_response(rig, 2 * n, 3 * n) - 2000;
  const uint64_t open_one = last_response(rig, 3 * n, 4 * n) - 3000;
  EXPECT_EQ(closed_groups, (n - 1) * p.tRRD + p.tRCD + data);
  EXPECT_EQ(closed_one, p.tRCD + (n - 1) * p.tCCDL + data);
  EXPECT_EQ(open_groups, (n - 1) * p.tCCD + data);
  EXPECT_EQ(open_one, (n - 1) * p.tCCDL + data);
  EXPECT_EQ(closed_groups, 115u);
  EXPECT_EQ(closed_one, 205u);
  EXPECT_EQ(open_groups, 49u);
  EXPECT_EQ(open_one, 154u);
  EXPECT_EQ(rig.stat("activates"), n + 1);
  EXPECT_EQ(rig.stat("row_misses"), n + 1);
  EXPECT_EQ(rig.stat("row_hits"), 3 * n - 1);
  EXPECT_EQ(rig.stat("precharges"), 0);
}

// 4096 whole lines in address order (512 KiB): consecutive lines rotate over the 32 groups, so a line's
// four bursts (one bank, tCCDL apart) interleave with other groups' bursts.
TEST(DramHbm3, SequentialLineStream) {
  gms::DramParams p = hbm3();
  const unsigned n = 4096;
  std::vector<Scripted> s;
  for (unsigned k = 0; k < n; ++k) s.push_back(read_at(uint64_t(k) * 128));
  Rig rig(p, s);
  rig.run();
  const uint64_t end_ps = rig.last_ok_response_ps(n);
  const double gbps = double(n) * 128 / (double(end_ps) * 1e-12) / 1e9;
  std::printf("hbm3 sequential 128 B stream: %.2f GB/s of %.2f peak, %.0f cycles\n", gbps, p.peak_gbps(),
              double(rig.cycle_of(end_ps)));
  EXPECT_GE(gbps, 0.85 * p.peak_gbps());  // measured 74.46 of 83.81 GB/s (18432 cycles for 16384 bursts)
  // 8 lines per 1 KiB row, 4 rows per bank: 128 banks open a closed bank once, then switch rows 3 times.
  EXPECT_EQ(rig.stat("row_misses"), 128);
  EXPECT_EQ(rig.stat("row_conflicts"), 384);
  EXPECT_EQ(rig.stat("row_hits"), n - 512);
}
