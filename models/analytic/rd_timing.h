// Time stamps, latencies and MSHRs of the reuse-distance model (paper 003 secs. 4.2 and 4.4): pending
// cache effects (queued by effect time, then by issue; a miss's effect also frees its MSHR entry) and the
// seeded memory-latency sampler lambda_min + |N(0, sigma^2)|.
#pragma once
#include <cmath>
#include <cstdint>

#include "models/common/rng.h"

namespace gms {

struct Effect {
  uint64_t time = 0;     // when the access takes effect on the stack
  uint64_t seq = 0;      // issue time stamp: simultaneous effects apply in issue order
  uint32_t slot = 0;     // the line
  bool release = false;  // a miss: its MSHR entry is freed at `time` (the fill), if not already
  // Tracked sectors only (sector_table.h): the access's sectors, those it fetched, those it keeps valid.
  uint8_t sectors = 0, fetched = 0, kept = 0;
};

// Memory latency in time stamps: lambda_min + |round(N(0, sigma^2))| (half-normal), from a seeded
// xoshiro stream (Box-Muller on its uniforms), so a run is reproducible on any platform. The pair is
// computed cheaply (fast_polar.h) and with libm only where the cheap value could round differently.
class LatencySampler {
 public:
  // `margin`: how near a rounding boundary (relative, x sigma x (r + 1)) the cheap value defers to libm;
  // tests make it huge to run the libm path on every draw.
  LatencySampler(uint32_t lambda_min, double sigma, uint64_t seed, uint32_t core, double margin = 1e-9);
  uint32_t miss();

 private:
  uint32_t draw_pair();  // a new pair: keeps its sine, returns its cosine's |round(z * sigma)|
  // |round(z * sigma)| of the pair's cosine (sine: false) or sine value z, as libm's pair would give. The
  // cheap value's error is ~1e-13 * r * sigma; 1e-9 leaves a wide margin. Within it of a rounding
  // boundary (a half-integer), or when huge, the libm Box-Muller value (the reference) decides.
  uint32_t rounded(double z, bool sine) const {
    const double x = z * sigma_;
    if (std::fabs(x) < 0x1p40) {
      const int64_t i = int64_t(x);  // trunc(x); |round(x)| = |trunc(x)| + (|frac| >= 0.5)
      const double frac = std::fabs(x - double(i));
      if (std::fabs(frac - 0.5) > margin_ * sigma_ * (r_ + 1.0))
        return uint32_t(i < 0 ? -i : i) + (frac > 0.5);
    }
    return exact(sine);
  }
  uint32_t exact(bool sine) const;  // the same with libm's pair

  uint32_t lambda_min_;
  double sigma_;
  double margin_;
  Rng rng_;
  double u1_ = 1, u2_ = 0, r_ = 0;  // the current pair's uniforms and cheap radius
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace gms
