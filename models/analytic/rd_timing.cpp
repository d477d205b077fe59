#include "models/analytic/rd_timing.h"

#include <cmath>
#include <string>

#include "models/analytic/fast_polar.h"

namespace gms {

namespace {
// |round(x)|, rounding halves away from zero as std::round does, without the libm call: x - trunc(x)
// is exact for |x| < 2^52 (always so with |z| < 38 and sigma <= 1e6).
uint32_t abs_round(double x) {
  if (!(std::fabs(x) < 0x1p52)) return uint32_t(std::fabs(std::round(x)));
  int64_t r = int64_t(x);
  const double frac = x - double(r);
  if (frac >= 0.5)
    ++r;
  else if (frac <= -0.5)
    --r;
  return uint32_t(r < 0 ? -r : r);
}
}  // namespace

LatencySampler::LatencySampler(uint32_t lambda_min, double sigma, uint64_t seed, uint32_t core, double margin)
    : lambda_min_(lambda_min), sigma_(sigma), margin_(margin), rng_(seed, "rd.core" + std::to_string(core)) {}

uint32_t LatencySampler::exact(bool sine) const {
  const double r = std::sqrt(-2.0 * std::log(u1_)), a = 6.283185307179586 * u2_;
  const double c = r * std::cos(a), s = r * std::sin(a);
  return abs_round((sine ? s : c) * sigma_);
}

inline uint32_t LatencySampler::draw_pair() {
  u1_ = rng_.uniform();
  u2_ = rng_.uniform();
  if (u1_ < 1e-300) u1_ = 1e-300;
  r_ = std::sqrt(-2.0 * fast_log(u1_));
  double sn, cs;
  fast_sincos(6.283185307179586 * u2_, sn, cs);
  spare_ = r_ * sn;
  has_spare_ = true;
  return rounded(r_ * cs, false);
}

uint32_t LatencySampler::miss() {
  if (sigma_ <= 0) return lambda_min_;
  if (!has_spare_) return lambda_min_ + draw_pair();
  has_spare_ = false;  // every other miss: the pair's sine
  return lambda_min_ + rounded(spare_, true);
}

}  // namespace gms
