#include "models/l1/gcache_params.h"

#include <string>

namespace gms {

GCacheParams GCacheParams::from(const ConfigNode& n) {
  GCacheParams p;
  p.rrpv_bits = uint32_t(n.get_uint("rrpv_bits", p.rrpv_bits, 1, 8));
  const uint32_t levels = 1u << p.rrpv_bits;  // a threshold of 2^bits makes every line hot
  p.hot_threshold = uint32_t(n.get_uint("hot_threshold", p.hot_threshold, 0, 256));
  p.victim_hot_threshold = uint32_t(n.get_uint("victim_hot_threshold", p.victim_hot_threshold, 0, 256));
  p.switch_reset_cycles = n.get_uint("switch_reset_cycles", p.switch_reset_cycles, 0, uint64_t(1) << 40);
  p.sms_per_victim_bit = uint32_t(n.get_uint("sms_per_victim_bit", p.sms_per_victim_bit, 1, 4096));
  if (p.hot_threshold > levels)
    n.fail("hot_threshold",
           std::to_string(p.hot_threshold) + " exceeds 2^rrpv_bits (" + std::to_string(levels) + ")");
  if (p.victim_hot_threshold > p.hot_threshold)
    n.fail("victim_hot_threshold", std::to_string(p.victim_hot_threshold) + " exceeds hot_threshold (" +
                                       std::to_string(p.hot_threshold) +
                                       "): a victim-bit fill must replace "
                                       "more easily, not less");
  n.finish();
  return p;
}

}  // namespace gms
