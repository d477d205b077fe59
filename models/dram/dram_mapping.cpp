#include "models/dram/dram_mapping.h"

#include <algorithm>

namespace gms {

BitField::BitField(const std::vector<unsigned>& bits) : bits_(bits) {
  lo_ = bits_.empty() ? 0 : bits_[0];
  for (size_t i = 0; i < bits_.size(); ++i)
    if (bits_[i] != lo_ + i) contiguous_ = false;
  mask_ = bits_.size() >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits_.size()) - 1;
}

uint64_t BitField::extract(uint64_t addr) const {
  if (contiguous_) return (addr >> lo_) & mask_;
  uint64_t v = 0;
  for (size_t i = 0; i < bits_.size(); ++i) v |= ((addr >> bits_[i]) & 1) << i;
  return v;
}

uint64_t BitField::deposit(uint64_t value) const {
  if (contiguous_) return (value & mask_) << lo_;
  uint64_t a = 0;
  for (size_t i = 0; i < bits_.size(); ++i) a |= ((value >> i) & 1) << bits_[i];
  return a;
}

DramMapping::DramMapping(const std::vector<unsigned>& column_bits, const std::vector<unsigned>& bank_bits,
                         const std::vector<unsigned>& row_bits, bool xor_bank_with_row)
    : column_(column_bits), bank_(bank_bits), row_(row_bits), xor_bank_(xor_bank_with_row) {
  unsigned top = 0;
  for (const auto* f : {&column_bits, &bank_bits, &row_bits})
    for (unsigned b : *f) top = std::max(top, b + 1);
  top_shift_ = top;
}

uint32_t DramMapping::fold_row(uint64_t row) const {
  const unsigned w = bank_.width();
  if (w == 0) return 0;
  const uint64_t mask = (uint64_t(1) << w) - 1;
  uint64_t h = 0;
  for (; row; row >>= w) h ^= row & mask;
  return uint32_t(h);
}

uint64_t DramMapping::encode(const DramCoord& c) const {
  const uint32_t bank = xor_bank_ ? c.bank ^ fold_row(c.row) : c.bank;
  uint64_t a = column_.deposit(c.column) | bank_.deposit(bank) | row_.deposit(c.row);
  const uint64_t above = row_.width() >= 64 ? 0 : c.row >> row_.width();
  if (top_shift_ < 64) a |= above << top_shift_;
  return a;
}

}  // namespace gms
