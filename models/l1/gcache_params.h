// Parameters of the G-Cache L1 design (paper 001, section 4; YAML section `l1.gcache:`).
#pragma once
#include <cstdint>

#include "models/common/config.h"

namespace gms {

struct GCacheParams {
  uint32_t rrpv_bits = 3;             // SRRIP re-reference prediction value width
  uint32_t hot_threshold = 4;         // a line is hot when its RRPV < this (TH_hot)
  uint32_t victim_hot_threshold = 2;  // ... when the incoming fill's victim bit is set (lower TH_hot)
  uint64_t switch_reset_cycles = 0;   // all bypass switches closed every N L1 cycles; 0 = never
  uint32_t sms_per_victim_bit = 1;    // SMs sharing one LLC victim bit (S_v)

  static GCacheParams from(const ConfigNode& n);
};

}  // namespace gms
