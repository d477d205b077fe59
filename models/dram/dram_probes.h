// The DRAM channel's waveform (docs/waveforms.md): request queue occupancy, the command bus (each command
// shown for the one DRAM cycle it holds the bus, NOP = 0 between), the bank it addressed, every bank's
// state and open row, and the row-buffer outcome counts. Attached only when the channel is traced; an
// untraced channel pays one pointer test per update (callers test on() before building arguments).
#pragma once
#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/trace.h"
#include "models/dram/command_scheduler.h"

namespace gms {

class DramProbes {
 public:
  void attach(VcdWriter* vcd, const std::string& block, unsigned banks);
  bool on() const { return queue_.on(); }
  void queue(unsigned requests) { queue_.set(requests); }
  // A command issued now; `cycle` is one DRAM clock period.
  void command(const IssueResult& r, const sc_core::sc_time& cycle);
  // The row-buffer outcome counts after a request's first burst.
  void rows(uint64_t hits, uint64_t misses, uint64_t conflicts) {
    row_hits_.set(hits);
    row_misses_.set(misses);
    row_conflicts_.set(conflicts);
  }

 private:
  struct Bank {
    Probe<uint8_t> state;  // 0 precharged (closed), 1 active (a row open)
    Probe<uint32_t> row;   // the row the last ACT opened
  };
  Probe<unsigned> queue_;
  Probe<uint8_t> command_;  // DramCommand: 0 NOP, 1 PRE, 2 ACT, 3 RD, 4 WR
  Probe<uint32_t> command_bank_;
  Probe<uint64_t> row_hits_, row_misses_, row_conflicts_;
  std::vector<Bank> banks_;
};

}  // namespace gms
