// Synthetic traffic for bench_noc: one Bernoulli source per terminal and a destination pattern.
// A source draws the gap to its next packet from the geometric distribution (the number of failed
// Bernoulli trials before a success), which is the same process as one trial per cycle but costs one random
// number per packet instead of one per terminal per cycle: 5 % load stays cheap.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include "models/common/rng.h"

namespace gms::noc_bench {

// Cycles until the next success of a Bernoulli process with probability p per cycle (0 when p >= 1).
inline uint64_t geometric_gap(Rng& rng, double p) {
  if (p >= 1.0) return 0;
  const double u = 1.0 - rng.uniform();  // (0, 1]: log(u) is finite
  return uint64_t(std::floor(std::log(u) / std::log1p(-p)));
}

// uniform: every output equally likely. hotspot: a fraction `hot_fraction` of packets go to output `hot`,
// the rest uniformly (which may also pick `hot`).
struct Pattern {
  bool hotspot = false;
  double hot_fraction = 0.2;
  unsigned hot = 0;

  unsigned pick(Rng& rng, unsigned outputs) const {
    if (hotspot && rng.uniform() < hot_fraction) return hot;
    return unsigned(rng.below(outputs));
  }
};

}  // namespace gms::noc_bench
