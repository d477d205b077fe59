#include "models/l1/pdp_params.h"

namespace gms {

PdpParams PdpParams::from(const ConfigNode& n) {
  PdpParams p;
  p.distance = uint32_t(n.get_uint("distance", p.distance, 1, 65535));
  n.finish();
  return p;
}

}  // namespace gms
