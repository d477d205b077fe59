// The Tango CNN ports' shared pieces (tango_common.h).
#include "tb/kernels/tango/tango_common.h"

#include <algorithm>

namespace gms::kernels::tango {

NetSize read_net_size(const ConfigNode& s, const std::string& port, uint64_t div_default, uint64_t div_max,
                      uint64_t ctas_default, const std::string& div_rule) {
  const uint64_t div = s.get_uint("div", div_default, 1, div_max);
  if (div & (div - 1)) throw ConfigError(port + ": div (" + std::to_string(div) + ") must be " + div_rule);
  const uint64_t ctas = s.get_uint("ctas", ctas_default, 1, ctas_default);
  const uint64_t sm_regs = s.get_uint("sm_regs", 32768, 32768, 1 << 20);
  const uint64_t seed = s.get_uint("seed", 2019);
  return {uint32_t(div), uint32_t(ctas), uint32_t(sm_regs), seed};
}

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint32_t capped_regs(uint32_t ptxas, const Dim3& block, uint64_t sm_regs) {
  const uint64_t warps = (block.count() + kWarpSize - 1) / kWarpSize;
  return uint32_t(std::min<uint64_t>(ptxas, sm_regs / (warps * kWarpSize)));
}

Bool active_lanes(const Warp& w) {
  Bool b;
  for (unsigned l = 0; l < kWarpSize; ++l) b.v[l] = (w.active() >> l) & 1;
  return b;
}

}  // namespace gms::kernels::tango
