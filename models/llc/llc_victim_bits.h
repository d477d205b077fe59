// G-Cache's victim bits (paper 001, section 4.1): per LLC line one bit per L1, or one bit shared by a
// group of `sms_per_bit` SMs. A bit records that the LLC answered a read of the line from that L1 (or
// group) since the line entered the LLC; a second read from the same L1 means the L1 lost the line
// early (contention), and the reply carries the bit so the L1 can react. Off: no storage at all.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gms {

class LlcVictimBits {
 public:
  // `lines`: tag entries of the slice (sets x ways); `l1s`: L1 count; sms_per_bit 0 = off.
  LlcVictimBits(size_t lines, uint32_t l1s, uint32_t sms_per_bit);
  bool enabled() const { return words_per_line_ != 0; }
  uint32_t bits_per_line() const { return groups_; }
  // A read of entry `line` from SM `sm` is answered: returns the bit before, then sets it. An SM
  // outside [0, l1s) (a foreign initiator) has no bit: false, nothing set.
  bool serve(size_t line, uint32_t sm);
  bool test(size_t line, uint32_t sm) const;
  // The line left the LLC (eviction, drop) or a new one took its entry: every bit clear.
  void clear(size_t line);

 private:
  uint32_t l1s_ = 0, sms_per_bit_ = 0, groups_ = 0;
  uint32_t words_per_line_ = 0;
  std::vector<uint64_t> bits_;
};

}  // namespace gms
