// Command-level timing of one channel: per-bank state (open row; tRCD, tRAS, tRC, tRP, tWR) and channel
// constraints (one command per cycle on the command bus, tRRD, tCCD, data-bus occupancy, tWTR write-to-read
// and tRTW read-to-write turnaround). earliest_*() give the first cycle a command may issue; issue_*()
// record it. Pure arithmetic on cycle numbers: no SystemC here.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/dram/dram_params.h"

namespace gms {

class DramTiming {
 public:
  static constexpr uint64_t kNoRow = ~uint64_t(0);

  explicit DramTiming(const DramParams& p);

  bool is_open(uint32_t bank) const { return banks_[bank].open_row != kNoRow; }
  uint64_t open_row(uint32_t bank) const { return banks_[bank].open_row; }

  // A command may issue at max(bank part, channel part). The bank parts change only with commands to
  // that bank, so the scheduler caches them per bank.
  uint64_t bank_act_ready(uint32_t bank) const { return banks_[bank].act_ok; }
  uint64_t bank_pre_ready(uint32_t bank) const { return banks_[bank].pre_ok; }
  uint64_t bank_col_ready(uint32_t bank) const { return banks_[bank].col_ok; }
  // Inline: the scheduler asks for all four every cycle it runs.
  uint64_t channel_act_ready() const { return std::max(cmd_ok_, act_any_ok_); }
  uint64_t channel_pre_ready() const { return cmd_ok_; }
  // Data appears tCL after RD and must find the bus free; RD itself waits tWTR after the last write burst
  // (write-to-read turnaround, as GDDR5 and GPGPU-Sim's WTR = WL + burst + tWTR from the WR command).
  uint64_t channel_read_ready() const {
    return std::max({cmd_ok_, col_any_ok_, sub(bus_free_, tCL_), rd_after_wr_});
  }
  // Write data goes out tCWL after WR; tRTW cycles of bus turnaround after the last read burst.
  uint64_t channel_write_ready() const {
    return std::max({cmd_ok_, col_any_ok_, sub(bus_free_, tCWL_), wr_after_rd_});
  }

  void issue_act(uint32_t bank, uint64_t row, uint64_t c);
  void issue_pre(uint32_t bank, uint64_t c);
  // Both return the cycle the burst's last beat completes.
  uint64_t issue_read(uint32_t bank, uint64_t c);
  uint64_t issue_write(uint32_t bank, uint64_t c);

  uint64_t data_busy_cycles() const { return data_busy_; }

 private:
  struct Bank {
    uint64_t open_row = kNoRow;
    uint64_t act_ok = 0;  // tRC after ACT, tRP after PRE
    uint64_t pre_ok = 0;  // tRAS after ACT, read-to-precharge, write recovery tWR
    uint64_t col_ok = 0;  // tRCD after ACT
  };
  static uint64_t sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

  const uint32_t tCL_, tCWL_, tRP_, tRC_, tRAS_, tRCD_, tRRD_, tCCD_, tWR_, tWTR_, tRTW_, burst_;
  std::vector<Bank> banks_;
  uint64_t cmd_ok_ = 0;       // command bus: one command per cycle
  uint64_t act_any_ok_ = 0;   // tRRD
  uint64_t col_any_ok_ = 0;   // tCCD
  uint64_t bus_free_ = 0;     // first cycle the data bus is free
  uint64_t wr_after_rd_ = 0;  // earliest WR after the last read burst (tRTW turnaround)
  uint64_t rd_after_wr_ = 0;  // earliest RD after the last write burst (tWTR turnaround)
  uint64_t data_busy_ = 0;    // cycles the data bus carried data
};

}  // namespace gms
