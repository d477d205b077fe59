// Static re-reference interval prediction (SRRIP, hit priority): an M-bit RRPV per line; fills insert
// at max-1, hits set 0, the victim is the first candidate at max after aging all candidates until one
// gets there. rrpv()/set_rrpv() let G-Cache read and age the set for its bypass decisions.
#pragma once
#include <vector>

#include "models/cache/replacement.h"

namespace gms {

class SrripPolicy : public ReplacementPolicy {
 public:
  SrripPolicy(uint32_t sets, uint32_t ways, unsigned rrpv_bits = 3);
  void on_hit(uint32_t set, uint32_t way) override { rrpv_[set * ways_ + way] = 0; }
  void on_fill(uint32_t set, uint32_t way) override { rrpv_[set * ways_ + way] = uint8_t(max_ - 1); }
  void on_invalidate(uint32_t set, uint32_t way) override { rrpv_[set * ways_ + way] = uint8_t(max_); }
  uint32_t victim(uint32_t set, uint64_t candidate_ways) override;
  const char* name() const override { return "srrip"; }

  uint32_t rrpv(uint32_t set, uint32_t way) const { return rrpv_[set * ways_ + way]; }
  void set_rrpv(uint32_t set, uint32_t way, uint32_t v) {
    rrpv_[set * ways_ + way] = uint8_t(v > max_ ? max_ : v);
  }
  uint32_t max_rrpv() const { return max_; }
  unsigned bits() const { return bits_; }

 private:
  uint32_t ways_;
  unsigned bits_;
  uint32_t max_;
  std::vector<uint8_t> rrpv_;
};

}  // namespace gms
