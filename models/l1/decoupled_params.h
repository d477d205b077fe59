// Parameters of the Decoupled L1D (paper 002, table 3), YAML section `l1.decoupled:`. Read with every L1
// section (unknown keys rejected whatever the design); the checks against the data store (tag_ways >
// l1.ways) apply only when the design is `decoupled`, so other designs keep any associativity.
#pragma once
#include <cstdint>

#include "models/common/config.h"

namespace gms {

struct DecoupledParams {
  uint32_t tag_ways = 8;         // tag-store entries per set (must exceed the data store's ways)
  uint32_t rc_bits = 6;          // width of the saturating reference count
  uint32_t threshold = 2;        // locality threshold: a line gets a data line once RC >= threshold
  bool dueling = true;           // SM dueling (SM 0 design, SM 1 baseline, the rest follow)
  uint32_t duel_interval = 500;  // L1 cycles between two duel verdicts
  double duel_threshold = 0.10;  // SM 0's miss rate may exceed SM 1's by this much (absolute)

  uint32_t rc_max() const { return (1u << rc_bits) - 1; }
  static DecoupledParams from(const ConfigNode& n);
  // Throws ConfigError naming l1.decoupled.tag_ways when the tag store is not larger than the data store.
  void check_against(uint32_t data_ways) const;
};

}  // namespace gms
