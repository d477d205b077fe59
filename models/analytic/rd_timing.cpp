#include "models/analytic/rd_timing.h"

#include <cmath>
#include <string>

namespace gms {

LatencySampler::LatencySampler(uint32_t lambda_min, double sigma, uint64_t seed, uint32_t core)
    : lambda_min_(lambda_min), sigma_(sigma), rng_(seed, "rd.core" + std::to_string(core)) {}

uint32_t LatencySampler::miss() {
  if (sigma_ <= 0) return lambda_min_;
  double z;
  if (has_spare_) {
    z = spare_;
    has_spare_ = false;
  } else {
    double u1 = rng_.uniform(), u2 = rng_.uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    const double r = std::sqrt(-2.0 * std::log(u1)), a = 6.283185307179586 * u2;
    z = r * std::cos(a);
    spare_ = r * std::sin(a);
    has_spare_ = true;
  }
  // |round(x)|, rounding halves away from zero as std::round does, without the libm call: x - trunc(x)
  // is exact for |x| < 2^52 (always so with |z| < 38 and sigma <= 1e6).
  const double x = z * sigma_;
  if (!(std::fabs(x) < 0x1p52)) return lambda_min_ + uint32_t(std::fabs(std::round(x)));
  int64_t r = int64_t(x);
  const double frac = x - double(r);
  if (frac >= 0.5)
    ++r;
  else if (frac <= -0.5)
    --r;
  return lambda_min_ + uint32_t(r < 0 ? -r : r);
}

}  // namespace gms
