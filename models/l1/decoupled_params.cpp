#include "models/l1/decoupled_params.h"

#include <string>

namespace gms {

DecoupledParams DecoupledParams::from(const ConfigNode& n) {
  DecoupledParams p;
  p.tag_ways = uint32_t(n.get_uint("tag_ways", p.tag_ways, 2, 256));
  p.rc_bits = uint32_t(n.get_uint("rc_bits", p.rc_bits, 1, 16));
  p.threshold = uint32_t(n.get_uint("threshold", p.threshold, 0, 65535));
  p.dueling = n.get_bool("dueling", p.dueling);
  p.duel_interval = uint32_t(n.get_uint("duel_interval", p.duel_interval, 1, 1000000000));
  p.duel_threshold = n.get_double("duel_threshold", p.duel_threshold, 0.0, 1.0);
  if (p.threshold > p.rc_max())
    n.fail("threshold", std::to_string(p.threshold) + " cannot be reached by a " + std::to_string(p.rc_bits) +
                            "-bit reference count (max " + std::to_string(p.rc_max()) + ")");
  n.finish();
  return p;
}

void DecoupledParams::check_against(uint32_t data_ways) const {
  if (tag_ways <= data_ways)
    throw ConfigError("l1.decoupled.tag_ways: " + std::to_string(tag_ways) +
                      " tag entries per set must exceed the data store's l1.ways (" +
                      std::to_string(data_ways) + "), else data lines are wasted");
}

}  // namespace gms
