// Bank/row/column decoding of a channel-local address (gms::AddressMap::channel_addr) from configurable
// bit fields. Bits below log2(burst bytes) are the byte within a burst; every listed bit position
// belongs to exactly one field, and bits above the highest listed one extend the row number so the
// decoding stays a bijection for any address. With xor_bank_with_row (the pae mapping) the bank index is
// XORed with the row folded to the bank width: a row keeps one bank, and for a fixed row the XOR permutes
// the banks, so the decoding stays a bijection.
#pragma once
#include <cstdint>
#include <vector>

namespace gms {

struct DramCoord {
  uint32_t bank = 0;
  uint64_t row = 0;
  uint32_t column = 0;  // burst-sized column within the row
};

// One field: gathers the listed bit positions, least significant first.
class BitField {
 public:
  BitField() = default;
  explicit BitField(const std::vector<unsigned>& bits);
  uint64_t extract(uint64_t addr) const;
  uint64_t deposit(uint64_t value) const;  // the inverse: value's bits at the listed positions
  unsigned width() const { return unsigned(bits_.size()); }

 private:
  std::vector<unsigned> bits_;
  bool contiguous_ = true;  // bits_ = lo, lo+1, ...: one shift and mask
  unsigned lo_ = 0;
  uint64_t mask_ = 0;
};

class DramMapping {
 public:
  DramMapping() = default;
  DramMapping(const std::vector<unsigned>& column_bits, const std::vector<unsigned>& bank_bits,
              const std::vector<unsigned>& row_bits, bool xor_bank_with_row = false);
  DramCoord decode(uint64_t channel_addr) const {
    DramCoord c;
    c.column = uint32_t(column_.extract(channel_addr));
    c.bank = uint32_t(bank_.extract(channel_addr));
    uint64_t above = top_shift_ < 64 ? channel_addr >> top_shift_ : 0;
    c.row = row_.extract(channel_addr) | (above << row_.width());
    if (xor_bank_) c.bank ^= fold_row(c.row);
    return c;
  }
  // The channel address of the first byte of this burst (decode's inverse).
  uint64_t encode(const DramCoord& c) const;

 private:
  uint32_t fold_row(uint64_t row) const;
  BitField column_, bank_, row_;
  unsigned top_shift_ = 64;  // first bit above every listed one
  bool xor_bank_ = false;
};

}  // namespace gms
