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

DramMapping::DramMapping(const std::vector<unsigned>& column_bits, const std::vector<unsigned>& bank_bits,
                         const std::vector<unsigned>& row_bits)
    : column_(column_bits), bank_(bank_bits), row_(row_bits) {
  unsigned top = 0;
  for (const auto* f : {&column_bits, &bank_bits, &row_bits})
    for (unsigned b : *f) top = std::max(top, b + 1);
  top_shift_ = top;
}

}  // namespace gms
