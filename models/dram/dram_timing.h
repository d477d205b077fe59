// Command-level timing of one channel: per-bank state (open row; tRCD, tRAS, tRC, tRP, tWR), per-bank-group
// state (tCCDL, tRRDL between commands to banks of one group, with bank_groups > 1) and channel constraints
// (one command per cycle on the command bus, tRRD, tCCD, data-bus occupancy, tWTR write-to-read and tRTW
// read-to-write turnaround). The bank and channel parts give the first cycle a command may issue;
// issue_*() record it. Pure arithmetic on cycle numbers: no SystemC here.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/common/prefetch.h"
#include "models/dram/dram_params.h"

namespace gms {

class DramTiming {
 public:
  static constexpr uint64_t kNoRow = ~uint64_t(0);

  explicit DramTiming(const DramParams& p);

  bool is_open(uint32_t bank) const { return banks_[bank].open_row != kNoRow; }
  uint64_t open_row(uint32_t bank) const { return banks_[bank].open_row; }

  // A command may issue at max(bank part, channel part). The bank parts (which include the bank's group)
  // change only with commands to that bank or, with groups, to its group, so the scheduler caches them
  // per bank.
  uint64_t bank_act_ready(uint32_t bank) const {
    return groups_ ? std::max(banks_[bank].act_ok, group_act_ok_[group_of(bank)]) : banks_[bank].act_ok;
  }
  uint64_t bank_pre_ready(uint32_t bank) const { return banks_[bank].pre_ok; }
  uint64_t bank_col_ready(uint32_t bank) const {
    return groups_ ? std::max(banks_[bank].col_ok, group_col_ok_[group_of(bank)]) : banks_[bank].col_ok;
  }
  // Bank groups in force (bank_groups > 1 and a long spacing above the short one): a column command or
  // ACT then changes the bank parts of every bank of its group.
  bool groups() const { return groups_; }
  uint32_t group_of(uint32_t bank) const { return bank & group_mask_; }
  uint32_t group_count() const { return group_mask_ + 1; }
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

  // Software prefetch of bank b's state (for Wakeup prefetch hooks); changes nothing.
  void prefetch_bank(uint32_t b) const { prefetch_hint(&banks_[b]); }
  // The channel-wide fields every command reads.
  void prefetch_channel() const {
    prefetch_hint(&cmd_ok_);
    prefetch_hint(&banks_);
  }

 private:
  struct Bank {
    uint64_t open_row = kNoRow;
    uint64_t act_ok = 0;  // tRC after ACT, tRP after PRE
    uint64_t pre_ok = 0;  // tRAS after ACT, read-to-precharge, write recovery tWR
    uint64_t col_ok = 0;  // tRCD after ACT
  };
  static uint64_t sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

  const uint32_t tCL_, tCWL_, tRP_, tRC_, tRAS_, tRCD_, tRRD_, tCCD_, tWR_, tWTR_, tRTW_, burst_;
  const uint32_t tRRDL_, tCCDL_;
  const uint32_t group_mask_;  // bank_groups - 1
  const bool groups_;
  std::vector<Bank> banks_;
  std::vector<uint64_t> group_act_ok_;  // per group: tRRDL after its last ACT
  std::vector<uint64_t> group_col_ok_;  // per group: tCCDL after its last RD/WR
  uint64_t cmd_ok_ = 0;                 // command bus: one command per cycle
  uint64_t act_any_ok_ = 0;             // tRRD
  uint64_t col_any_ok_ = 0;             // tCCD
  uint64_t bus_free_ = 0;               // first cycle the data bus is free
  uint64_t wr_after_rd_ = 0;            // earliest WR after the last read burst (tRTW turnaround)
  uint64_t rd_after_wr_ = 0;            // earliest RD after the last write burst (tWTR turnaround)
  uint64_t data_busy_ = 0;              // cycles the data bus carried data
};

}  // namespace gms
