// Parameters of one DRAM channel (YAML section `dram:`). Defaults: the GDDR5 channel of the papers'
// Fermi baseline (paper 000 Table 2: 924 MHz, FR-FCFS, tCL=12 tRP=12 tRC=40 tRAS=28 tRCD=12 tRRD=6;
// paper 004 adds 16 banks, tCCD=2, tWR=12), one bank group. All times are cycles of the DRAM command
// clock.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/config.h"

namespace gms {

enum class SchedulerPolicy : uint8_t { FrFcfs, Fcfs };
// The standard whose defaults the parameters started from (dram_standards.h).
enum class DramStandard : uint8_t { Gddr5, Hbm3 };

struct DramParams {
  DramStandard standard = DramStandard::Gddr5;
  uint32_t channels = 6;  // read by the system builder; not part of a standard
  double clock_mhz = 924.0;
  uint32_t banks = 16;
  // Banks of one group share tCCDL and tRRDL; the group of a bank is its low log2(bank_groups) bits (the
  // first entries of bank_bits). 1 = no groups: tCCDL and tRRDL are ignored.
  uint32_t bank_groups = 1;
  uint32_t row_bytes = 2048;
  uint32_t bus_bytes = 8;
  uint32_t burst_length = 8;
  uint32_t data_rate = 4;  // data beats per command clock
  uint32_t tCL = 12, tCWL = 4, tRP = 12, tRC = 40, tRAS = 28, tRCD = 12, tRRD = 6, tCCD = 2, tWR = 12,
           tWTR = 5, tRTW = 2;
  // Same-bank-group ("long") column-to-column and ACT-to-ACT spacing, with bank_groups > 1; tCCD and tRRD
  // are then the short (different-group) values. 0 = equal to the short value.
  uint32_t tCCDL = 0, tRRDL = 0;
  // Fixed latency of the controller's front and back end and the PHY, added to every response (as
  // DRAMSys' front-end/back-end latencies): what a measured load-to-use latency has beyond the bank timing.
  uint32_t controller_latency = 0;
  uint32_t queue_size = 32;
  SchedulerPolicy scheduler = SchedulerPolicy::FrFcfs;
  // Bit positions of the channel-local address; empty = derived from the geometry by from() /
  // resolve_mapping().
  std::vector<unsigned> column_bits, bank_bits, row_bits;

  uint32_t burst_bytes() const { return bus_bytes * burst_length; }
  uint32_t burst_cycles() const { return burst_length / data_rate; }
  double peak_gbps() const { return double(bus_bytes) * data_rate * clock_mhz * 1e6 / 1e9; }
  // The spacing within one bank group that the timing applies (the short one without groups).
  uint32_t ccd_long() const { return bank_groups > 1 ? std::max(tCCD, tCCDL) : tCCD; }
  uint32_t rrd_long() const { return bank_groups > 1 ? std::max(tRRD, tRRDL) : tRRD; }

  // Default mapping for the geometry: byte within burst, the columns of one 128 B line, the bank-group
  // bits, the other column bits, the bank within its group, then 16 row bits (higher address bits extend
  // the row anyway). Consecutive lines thus rotate over the bank groups; with one group this is byte,
  // column, bank, row.
  void default_mapping();
  // The bank/row/column order of the hynix address mapping (memory_map.mapping: hynix), GPGPU-Sim's GTX 480
  // GDDR5 decoder (`-gpgpu_mem_addr_mapping dramid@8;...RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS` on the channel
  // address): byte within burst, the columns below address bit 8, one bank bit, the other column bits,
  // the other bank bits, then 16 row bits.
  void hynix_mapping();
  // Fills empty fields with the defaults (for params built in code rather than from YAML).
  void resolve_mapping();

  // `standard` first fills every default (dram_standards.h), then each key given overrides it.
  static DramParams from(const ConfigNode& n);
};

unsigned log2_exact(uint64_t pow2);

}  // namespace gms
