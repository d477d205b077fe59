// What the Tango CNN ports (tango/alexnet, tango/resnet) share: their size keys, the seeded generator
// standing in for the data files, the register cap that lets a CTA fit an SM, and per-lane helpers.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/config.h"
#include "tb/kernels/port_kernel.h"

namespace gms::kernels::tango {

// The size keys: `div` (channel divisor, a power of 2 up to div_max; div_rule says so in the error), `ctas`
// (every grid capped), `sm_regs` (an SM's registers) and `seed`.
struct NetSize {
  uint32_t div, ctas, sm_regs;
  uint64_t seed;
};
NetSize read_net_size(const ConfigNode& s, const std::string& port, uint64_t div_default, uint64_t div_max,
                      uint64_t ctas_default, const std::string& div_rule);

// splitmix64: the seeded values that replace the data files.
uint64_t splitmix(uint64_t& s);

// The ptxas count, or fewer when a CTA of `block` would not fit an SM of sm_regs registers (what a build for
// that SM, -maxrregcount, has to do for the launch to succeed).
uint32_t capped_regs(uint32_t ptxas, const Dim3& block, uint64_t sm_regs);

// The warp's active lanes as a per-lane condition.
Bool active_lanes(const Warp& w);

// f(a, b, c) lane by lane, with the three operands' dependences.
template <class F>
Float lanewise(const Float& a, const Float& b, const Float& c, F f) {
  Float r{Float::Uninit{}};
  for (unsigned l = 0; l < kWarpSize; ++l) r.v[l] = f(a.v[l], b.v[l], c.v[l]);
  r.deps = a.deps;
  r.deps |= b.deps;
  r.deps |= c.deps;
  return r;
}

}  // namespace gms::kernels::tango
