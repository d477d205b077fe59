// Bank/row/column decoding of a channel-local address (gms::AddressMap::channel_addr) from configurable
// bit fields. Bits below log2(burst bytes) are the byte within a burst; every listed bit position
// belongs to exactly one field, and bits above the highest listed one extend the row number so the
// decoding stays a bijection for any address.
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
              const std::vector<unsigned>& row_bits);
  DramCoord decode(uint64_t channel_addr) const {
    DramCoord c;
    c.column = uint32_t(column_.extract(channel_addr));
    c.bank = uint32_t(bank_.extract(channel_addr));
    uint64_t above = top_shift_ < 64 ? channel_addr >> top_shift_ : 0;
    c.row = row_.extract(channel_addr) | (above << row_.width());
    return c;
  }

 private:
  BitField column_, bank_, row_;
  unsigned top_shift_ = 64;  // first bit above every listed one
};

}  // namespace gms
