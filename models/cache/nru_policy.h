// Not-recently-used: one bit per line, set on access and fill; when that makes every bit of the set 1,
// all others are cleared. Victim = the lowest-index candidate whose bit is 0 (else the lowest candidate).
#pragma once
#include <vector>

#include "models/cache/replacement.h"

namespace gms {

class NruPolicy : public ReplacementPolicy {
 public:
  NruPolicy(uint32_t sets, uint32_t ways);
  void on_hit(uint32_t set, uint32_t way) override { mark(set, way); }
  void on_fill(uint32_t set, uint32_t way) override { mark(set, way); }
  void on_invalidate(uint32_t set, uint32_t way) override { bits_[set] &= ~(uint64_t(1) << way); }
  uint32_t victim(uint32_t set, uint64_t candidate_ways) override;
  const char* name() const override { return "nru"; }
  bool used(uint32_t set, uint32_t way) const { return (bits_[set] >> way) & 1u; }

 private:
  void mark(uint32_t set, uint32_t way);
  uint64_t all_;                // a 1 per way
  std::vector<uint64_t> bits_;  // a bit per way, one word per set
};

}  // namespace gms
