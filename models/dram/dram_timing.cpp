#include "models/dram/dram_timing.h"

#include <algorithm>

namespace gms {

DramTiming::DramTiming(const DramParams& p)
    : tCL_(p.tCL),
      tCWL_(p.tCWL),
      tRP_(p.tRP),
      tRC_(p.tRC),
      tRAS_(p.tRAS),
      tRCD_(p.tRCD),
      tRRD_(p.tRRD),
      tCCD_(p.tCCD),
      tWR_(p.tWR),
      tWTR_(p.tWTR),
      tRTW_(p.tRTW),
      burst_(p.burst_cycles()),
      tRRDL_(p.rrd_long()),
      tCCDL_(p.ccd_long()),
      group_mask_(p.bank_groups > 1 ? p.bank_groups - 1 : 0),
      groups_(p.bank_groups > 1 && (tRRDL_ > tRRD_ || tCCDL_ > tCCD_)),
      banks_(p.banks),
      group_act_ok_(groups_ ? p.bank_groups : 0, 0),
      group_col_ok_(groups_ ? p.bank_groups : 0, 0) {}

void DramTiming::issue_act(uint32_t bank, uint64_t row, uint64_t c) {
  Bank& b = banks_[bank];
  b.open_row = row;
  b.act_ok = c + tRC_;
  b.pre_ok = std::max(b.pre_ok, c + tRAS_);
  b.col_ok = c + tRCD_;
  act_any_ok_ = c + tRRD_;
  if (groups_) group_act_ok_[group_of(bank)] = c + tRRDL_;
  cmd_ok_ = c + 1;
}

void DramTiming::issue_pre(uint32_t bank, uint64_t c) {
  Bank& b = banks_[bank];
  b.open_row = kNoRow;
  b.act_ok = std::max(b.act_ok, c + tRP_);
  cmd_ok_ = c + 1;
}

uint64_t DramTiming::issue_read(uint32_t bank, uint64_t c) {
  Bank& b = banks_[bank];
  uint64_t start = c + tCL_, end = start + burst_;
  // Read-to-precharge: the column read must finish leaving the sense amplifiers (one burst).
  b.pre_ok = std::max(b.pre_ok, c + burst_);
  col_any_ok_ = c + tCCD_;
  if (groups_) group_col_ok_[group_of(bank)] = c + tCCDL_;
  cmd_ok_ = c + 1;
  bus_free_ = end;
  wr_after_rd_ = sub(end + tRTW_, tCWL_);
  data_busy_ += burst_;
  return end;
}

uint64_t DramTiming::issue_write(uint32_t bank, uint64_t c) {
  Bank& b = banks_[bank];
  uint64_t start = c + tCWL_, end = start + burst_;
  b.pre_ok = std::max(b.pre_ok, end + tWR_);  // write recovery before the row may close
  col_any_ok_ = c + tCCD_;
  if (groups_) group_col_ok_[group_of(bank)] = c + tCCDL_;
  cmd_ok_ = c + 1;
  bus_free_ = end;
  rd_after_wr_ = end + tWTR_;
  data_busy_ += burst_;
  return end;
}

}  // namespace gms
