// Random replacement: a uniformly chosen candidate, from the owning block's seeded Rng.
#pragma once
#include "models/cache/replacement.h"

namespace gms {

class RandomPolicy : public ReplacementPolicy {
 public:
  RandomPolicy(uint32_t /*sets*/, uint32_t /*ways*/, Rng& rng) : rng_(rng) {}
  void on_hit(uint32_t, uint32_t) override {}
  void on_fill(uint32_t, uint32_t) override {}
  uint32_t victim(uint32_t set, uint64_t candidate_ways) override;
  const char* name() const override { return "random"; }

 private:
  Rng& rng_;
};

}  // namespace gms
