// DramParams from YAML: defaults, the address mapping fields, and errors that name the key.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/dram/dram_mapping.h"
#include "models/dram/dram_params.h"
#include "models/dram/dram_standards.h"

namespace {
gms::DramParams load(const std::string& yaml) {
  return gms::DramParams::from(gms::ConfigNode::load_string(yaml, "t.yaml").child("dram"));
}
std::string error_of(const std::string& yaml) {
  try {
    load(yaml);
  } catch (const gms::ConfigError& e) {
    return e.what();
  }
  return "no error";
}
std::vector<unsigned> range(unsigned lo, unsigned n) {
  std::vector<unsigned> v;
  for (unsigned i = 0; i < n; ++i) v.push_back(lo + i);
  return v;
}
}  // namespace

TEST(DramConfig, DefaultsAreThePapersGddr5Channel) {
  gms::DramParams p = load("dram: {}\n");
  EXPECT_EQ(p.channels, 6u);
  EXPECT_DOUBLE_EQ(p.clock_mhz, 924.0);
  EXPECT_EQ(p.banks, 16u);
  EXPECT_EQ(p.burst_bytes(), 64u);
  EXPECT_EQ(p.burst_cycles(), 2u);
  EXPECT_EQ(p.tRC, 40u);
  EXPECT_EQ(p.scheduler, gms::SchedulerPolicy::FrFcfs);
  EXPECT_EQ(p.column_bits, range(6, 5));
  EXPECT_EQ(p.bank_bits, range(11, 4));
  EXPECT_EQ(p.row_bits, range(15, 16));
  gms::DramParams q = load("dram: {banks: 8, row_bytes: 1024, scheduler: fcfs, tCL: 10}\n");
  EXPECT_EQ(q.column_bits, range(6, 4));
  EXPECT_EQ(q.bank_bits, range(10, 3));
  EXPECT_EQ(q.scheduler, gms::SchedulerPolicy::Fcfs);
  EXPECT_EQ(q.tCL, 10u);
}

TEST(DramConfig, BankGroupKeys) {
  gms::DramParams d = load("dram: {}\n");
  EXPECT_EQ(d.bank_groups, 1u);
  EXPECT_EQ(d.tCCDL, 0u);  // 0 = the short value
  EXPECT_EQ(d.ccd_long(), d.tCCD);
  EXPECT_EQ(d.rrd_long(), d.tRRD);
  gms::DramParams g = load("dram: {bank_groups: 4, tCCDL: 3, tRRDL: 8}\n");
  EXPECT_EQ(g.bank_groups, 4u);
  EXPECT_EQ(g.ccd_long(), 3u);
  EXPECT_EQ(g.rrd_long(), 8u);
  // Group bits right above the line's two 64 B columns, then the other columns, then the bank in its group.
  EXPECT_EQ(g.column_bits, (std::vector<unsigned>{6, 9, 10, 11, 12}));
  EXPECT_EQ(g.bank_bits, (std::vector<unsigned>{7, 8, 13, 14}));
  EXPECT_EQ(g.row_bits, range(15, 16));
  // Without groups the long values are ignored.
  gms::DramParams one = load("dram: {tCCDL: 1, tRRDL: 1}\n");
  EXPECT_EQ(one.ccd_long(), one.tCCD);
  EXPECT_EQ(one.rrd_long(), one.tRRD);
}

namespace {
// Every field DramParams has, so a test can compare two whole parameter sets.
void expect_same(const gms::DramParams& a, const gms::DramParams& b) {
  EXPECT_EQ(a.standard, b.standard);
  EXPECT_EQ(a.channels, b.channels);
  EXPECT_DOUBLE_EQ(a.clock_mhz, b.clock_mhz);
  EXPECT_EQ(a.banks, b.banks);
  EXPECT_EQ(a.bank_groups, b.bank_groups);
  EXPECT_EQ(a.row_bytes, b.row_bytes);
  EXPECT_EQ(a.bus_bytes, b.bus_bytes);
  EXPECT_EQ(a.burst_length, b.burst_length);
  EXPECT_EQ(a.data_rate, b.data_rate);
  EXPECT_EQ(std::vector<uint32_t>({a.tCL, a.tCWL, a.tRP, a.tRC, a.tRAS, a.tRCD, a.tRRD, a.tCCD, a.tWR, a.tWTR,
                                   a.tRTW, a.tCCDL, a.tRRDL}),
            std::vector<uint32_t>({b.tCL, b.tCWL, b.tRP, b.tRC, b.tRAS, b.tRCD, b.tRRD, b.tCCD, b.tWR, b.tWTR,
                                   b.tRTW, b.tCCDL, b.tRRDL}));
  EXPECT_EQ(a.queue_size, b.queue_size);
  EXPECT_EQ(a.scheduler, b.scheduler);
  EXPECT_EQ(a.column_bits, b.column_bits);
  EXPECT_EQ(a.bank_bits, b.bank_bits);
  EXPECT_EQ(a.row_bits, b.row_bits);
}
}  // namespace

TEST(DramConfig, StandardGddr5IsTheDefault) {
  gms::DramParams code;
  code.resolve_mapping();
  expect_same(load("dram: {}\n"), code);
  expect_same(load("dram: {standard: gddr5}\n"), code);
  EXPECT_EQ(code.standard, gms::DramStandard::Gddr5);
}

// The table of docs/blocks/dram.md ("Standards: gddr5, hbm3").
TEST(DramConfig, StandardHbm3GivesTheListedValues) {
  gms::DramParams p = load("dram: {standard: hbm3}\n");
  EXPECT_EQ(p.standard, gms::DramStandard::Hbm3);
  EXPECT_EQ(p.channels, 6u);  // not the standard's: the H100 preset sets 40
  EXPECT_DOUBLE_EQ(p.clock_mhz, 2619.0);
  EXPECT_EQ(p.bus_bytes, 16u);
  EXPECT_EQ(p.burst_length, 2u);
  EXPECT_EQ(p.data_rate, 2u);
  EXPECT_EQ(p.burst_bytes(), 32u);
  EXPECT_EQ(p.burst_cycles(), 1u);
  EXPECT_EQ(p.banks, 128u);
  EXPECT_EQ(p.bank_groups, 32u);
  EXPECT_EQ(p.row_bytes, 1024u);
  EXPECT_EQ(p.tCL, 33u);
  EXPECT_EQ(p.tCWL, 17u);
  EXPECT_EQ(p.tRCD, 51u);
  EXPECT_EQ(p.tRP, 43u);
  EXPECT_EQ(p.tRAS, 74u);
  EXPECT_EQ(p.tRC, 118u);
  EXPECT_EQ(p.tRRD, 2u);
  EXPECT_EQ(p.tRRDL, 9u);
  EXPECT_EQ(p.tCCD, 1u);
  EXPECT_EQ(p.tCCDL, 8u);
  EXPECT_EQ(p.tWR, 56u);
  EXPECT_EQ(p.tWTR, 14u);
  EXPECT_EQ(p.tRTW, 16u);
  EXPECT_EQ(p.queue_size, 32u);
  EXPECT_EQ(p.scheduler, gms::SchedulerPolicy::FrFcfs);
  // 83.808 GB/s per channel; 40 channels: 3352 GB/s, the H100 SXM5's 3.35 TB/s.
  EXPECT_DOUBLE_EQ(p.peak_gbps(), 16.0 * 2 * 2619e6 / 1e9);
  EXPECT_NEAR(40 * p.peak_gbps(), 3352.3, 0.05);
  // Byte 0-4, the line's 4 bursts at 5-6, the 32 groups at 7-11, other columns 12-14, bank in group 15-16.
  EXPECT_EQ(p.column_bits, (std::vector<unsigned>{5, 6, 12, 13, 14}));
  EXPECT_EQ(p.bank_bits, (std::vector<unsigned>{7, 8, 9, 10, 11, 15, 16}));
  EXPECT_EQ(p.row_bits, range(17, 16));
  expect_same(p, [] {
    gms::DramParams q = gms::dram_standard(gms::DramStandard::Hbm3);
    q.resolve_mapping();
    return q;
  }());
}

// The standard is applied first, then every key given, wherever the key stands in the map.
TEST(DramConfig, ExplicitKeysOverrideTheStandard) {
  gms::DramParams p = load("dram: {tCL: 40, banks: 64, standard: hbm3, tCCDL: 6}\n");
  EXPECT_EQ(p.tCL, 40u);
  EXPECT_EQ(p.banks, 64u);
  EXPECT_EQ(p.tCCDL, 6u);
  EXPECT_EQ(p.tRCD, 51u);  // the rest stays hbm3
  EXPECT_EQ(p.bank_groups, 32u);
  EXPECT_EQ(p.bank_bits, (std::vector<unsigned>{7, 8, 9, 10, 11, 15}));  // 2 banks per group
  gms::DramParams g = load("dram: {bank_groups: 4, tCCDL: 3, standard: gddr5}\n");
  EXPECT_EQ(g.bank_groups, 4u);
  EXPECT_EQ(g.tCCDL, 3u);
  EXPECT_EQ(g.tCL, 12u);
}

TEST(DramConfig, MappingFieldsDecodeAsConfigured) {
  gms::DramParams p = load(
      "dram:\n"
      "  mapping:\n"
      "    column_bits: [6, 7, 8, 13, 14]\n"
      "    bank_bits: [9, 10, 11, 12]\n"
      "    row_bits: [16, 15, 17]\n");
  gms::DramMapping m(p.column_bits, p.bank_bits, p.row_bits);
  EXPECT_EQ(m.decode(1u << 9).bank, 1u);
  EXPECT_EQ(m.decode(1u << 12).bank, 8u);
  EXPECT_EQ(m.decode(1u << 13).column, 8u);
  EXPECT_EQ(m.decode(1u << 7).column, 2u);
  EXPECT_EQ(m.decode(1u << 16).row, 1u);  // listed first: row bit 0
  EXPECT_EQ(m.decode(1u << 15).row, 2u);
  EXPECT_EQ(m.decode(1u << 18).row, 8u);  // above every listed bit: extends the row
  EXPECT_EQ(m.decode(63).bank, 0u);       // byte within a burst
  gms::DramCoord c = m.decode((5ull << 20) | (1u << 15) | (3u << 9) | (1u << 14) | (1u << 6));
  EXPECT_EQ(c.bank, 3u);
  EXPECT_EQ(c.column, 17u);
  // Bits from 18 up (above the listed ones) follow the 3 listed row bits; bit 15 is row bit 1.
  EXPECT_EQ(c.row, (((5ull << 20) >> 18) << 3) | 2u);
  EXPECT_EQ(c.row, 162u);
  // Default mapping: a stream stays in a row for row_bytes, then moves to the next bank.
  gms::DramParams d;
  d.resolve_mapping();
  gms::DramMapping dm(d.column_bits, d.bank_bits, d.row_bits);
  EXPECT_EQ(dm.decode(2047).bank, 0u);
  EXPECT_EQ(dm.decode(2048).bank, 1u);
  EXPECT_EQ(dm.decode(2048 * 16).bank, 0u);
  EXPECT_EQ(dm.decode(2048 * 16).row, 1u);
  EXPECT_EQ(dm.decode(2047).column, 31u);
}

TEST(DramConfig, BadConfigsNameTheKey) {
  EXPECT_NE(error_of("dram: {banks: 12}\n").find("t.yaml:1: dram.banks: "), std::string::npos);
  EXPECT_NE(error_of("dram: {tRC: 30}\n").find("dram.tRC: tRC (30) < tRAS + tRP (40)"), std::string::npos);
  EXPECT_NE(error_of("dram: {tRAS: 10, tRC: 22}\n").find("dram.tRAS:"), std::string::npos);
  EXPECT_NE(error_of("dram: {scheduler: lifo}\n").find("dram.scheduler"), std::string::npos);
  EXPECT_NE(error_of("dram: {burst_length: 2}\n").find("dram.data_rate"), std::string::npos);
  EXPECT_NE(error_of("dram: {bus_bytes: 32, burst_length: 8}\n").find("dram.burst_length"),
            std::string::npos);
  EXPECT_NE(error_of("dram: {queue_size: 0}\n").find("dram.queue_size"), std::string::npos);
  EXPECT_NE(error_of("dram: {tcl: 12}\n").find("dram.tcl"), std::string::npos);  // unknown key (typo)
  EXPECT_EQ(error_of("dram: {standard: hbm2}\n"),
            "t.yaml:1: dram.standard: 'hbm2' is not one of: gddr5, hbm3");
  // A check that fails on a value of the standard names the key the YAML gave, and the standard.
  EXPECT_EQ(error_of("dram: {standard: hbm3, tCCD: 10}\n"),
            "t.yaml:1: dram.tCCD: tCCDL (8, hbm3's) < tCCD (10)");
  EXPECT_EQ(error_of("dram:\n  standard: hbm3\n  banks: 16\n"),
            "t.yaml:3: dram.banks: bank_groups (32, hbm3's) > banks (16): each group needs a bank");
  EXPECT_EQ(error_of("dram: {standard: hbm3, tRAS: 80}\n"),
            "t.yaml:1: dram.tRAS: tRC (118, hbm3's) < tRAS + tRP (123)");
  EXPECT_NE(error_of("dram: {bank_groups: 3}\n").find("t.yaml:1: dram.bank_groups: value 3 must be a power"),
            std::string::npos);
  EXPECT_NE(error_of("dram: {banks: 4, bank_groups: 8}\n")
                .find("dram.bank_groups: bank_groups (8) > banks (4): each group needs a bank"),
            std::string::npos);
  EXPECT_NE(error_of("dram: {bank_groups: 4, tCCDL: 1}\n").find("dram.tCCDL: tCCDL (1) < tCCD (2)"),
            std::string::npos);
  EXPECT_NE(error_of("dram: {bank_groups: 4, tRRDL: 5}\n").find("dram.tRRDL: tRRDL (5) < tRRD (6)"),
            std::string::npos);
  const std::string overlap =
      "dram:\n  mapping:\n    column_bits: [6, 7, 8, 9, 10]\n    bank_bits: [10, 11, 12, 13]\n"
      "    row_bits: [14, 15]\n";
  EXPECT_NE(error_of(overlap).find("t.yaml:4: dram.mapping.bank_bits: bit 10 is listed in two fields"),
            std::string::npos)
      << error_of(overlap);
  const std::string gap =
      "dram:\n  mapping:\n    column_bits: [6, 7, 8, 9, 10]\n    bank_bits: [11, 12, 13, 14]\n"
      "    row_bits: [16, 17]\n";
  EXPECT_NE(error_of(gap).find("dram.mapping: address bit 15 belongs to no field"), std::string::npos)
      << error_of(gap);
  const std::string width =
      "dram:\n  mapping: {column_bits: [6, 7], bank_bits: [8, 9, 10, 11], row_bits: [12]}\n";
  EXPECT_NE(error_of(width).find("dram.mapping.column_bits: needs 5 bits"), std::string::npos)
      << error_of(width);
  const std::string in_line =
      "dram:\n  mapping: {column_bits: [7, 8, 9, 10, 11], bank_bits: [6, 12, 13, 14], row_bits: [15]}\n";
  EXPECT_NE(error_of(in_line).find("dram.mapping.bank_bits: bit 6 lies inside a 128 B line"),
            std::string::npos)
      << error_of(in_line);
  EXPECT_NE(error_of("dram:\n  mapping: {rows: [1]}\n").find("dram.mapping.rows"), std::string::npos);
}
