#include "models/l1/l1_design_params.h"

namespace gms {

TscParams TscParams::from(const ConfigNode& n) {
  TscParams p;
  p.chunk_bytes = uint32_t(n.get_pow2("chunk_bytes", p.chunk_bytes, 8, 64));
  p.private_tag_bits = uint32_t(n.get_uint("private_tag_bits", p.private_tag_bits, 0, 40));
  p.extra_hit_latency = uint32_t(n.get_uint("extra_hit_latency", p.extra_hit_latency, 0, 100));
  n.finish();
  return p;
}

TscPlusParams TscPlusParams::from(const ConfigNode& n) {
  TscPlusParams p;
  p.sampler_sets = uint32_t(n.get_uint("sampler_sets", p.sampler_sets, 2, 4096));
  if (p.sampler_sets % 2) n.fail("sampler_sets", "must be even (half fine, half coarse)");
  p.aging_threshold = uint32_t(n.get_uint("aging_threshold", p.aging_threshold, 1, 65535));
  p.leader_sm = uint32_t(n.get_uint("leader_sm", p.leader_sm, 0, 65535));
  n.finish();
  return p;
}

DscParams DscParams::from(const ConfigNode& n) {
  DscParams p;
  p.tags_per_frame = uint32_t(n.get_uint("tags_per_frame", p.tags_per_frame, 1, 4));
  n.finish();
  return p;
}

}  // namespace gms
