#include "models/llc/llc_victim_bits.h"

namespace gms {

LlcVictimBits::LlcVictimBits(size_t lines, uint32_t l1s, uint32_t sms_per_bit)
    : l1s_(l1s), sms_per_bit_(sms_per_bit) {
  if (l1s == 0 || sms_per_bit == 0) return;
  groups_ = (l1s + sms_per_bit - 1) / sms_per_bit;
  words_per_line_ = (groups_ + 63) / 64;
  bits_.assign(lines * words_per_line_, 0);
}

bool LlcVictimBits::test(size_t line, uint32_t sm) const {
  if (!enabled() || sm >= l1s_) return false;
  const uint32_t g = sm / sms_per_bit_;
  return (bits_[line * words_per_line_ + g / 64] >> (g % 64)) & 1u;
}

bool LlcVictimBits::serve(size_t line, uint32_t sm) {
  if (!enabled() || sm >= l1s_) return false;
  const uint32_t g = sm / sms_per_bit_;
  uint64_t& w = bits_[line * words_per_line_ + g / 64];
  const uint64_t bit = uint64_t(1) << (g % 64);
  const bool was = (w & bit) != 0;
  w |= bit;
  return was;
}

void LlcVictimBits::clear(size_t line) {
  for (uint32_t i = 0; i < words_per_line_; ++i) bits_[line * words_per_line_ + i] = 0;
}

}  // namespace gms
