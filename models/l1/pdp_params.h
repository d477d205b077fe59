// Parameters of the static PDP replacement policy in the L1 (YAML section `l1.pdp:`).
#pragma once
#include <cstdint>

#include "models/common/config.h"

namespace gms {

struct PdpParams {
  // Protection distance PD: a filled or hit line survives the next PD accesses to its set.
  uint32_t distance = 16;

  static PdpParams from(const ConfigNode& n);
};

}  // namespace gms
