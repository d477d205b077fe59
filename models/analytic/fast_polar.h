// Cheap Box-Muller polar pair for the latency sampler: sqrt(-2 ln u1) and sin/cos of 6.283185307179586 *
// u2 by short polynomials instead of libm's log and sincos (~100 instructions less per pair). The results
// are within ~1e-13 (relative to the radius) of libm's; the sampler uses them only where that cannot change
// the rounded latency and otherwise recomputes with libm, so the drawn latencies stay bit-identical.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace gms {

// ln(x) for a normal x > 0: x = 2^e m with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s), s = (m-1)/(m+1),
// |s| <= 0.1716, by its series to s^17 (truncation < 1e-14; m - 1 is exact, so ln x near 1 keeps its
// relative accuracy).
inline double fast_log(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  int e = int((b >> 52) & 0x7ff) - 1023;
  b = (b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  double m;
  std::memcpy(&m, &b, 8);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    ++e;
  }
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  const double p =
      1.0 / 3 +
      s2 * (1.0 / 5 +
            s2 * (1.0 / 7 +
                  s2 * (1.0 / 9 + s2 * (1.0 / 11 + s2 * (1.0 / 13 + s2 * (1.0 / 15 + s2 * (1.0 / 17)))))));
  return e * 0.6931471805599453 + 2.0 * s * (1.0 + s2 * p);
}

// sin and cos of a in [0, 8): reduction by the nearest multiple q of pi/2 (Cody-Waite, pi/2 split so that
// q * hi is exact), then Taylor polynomials on |y| <= pi/4 (truncation < 3e-14).
inline void fast_sincos(double a, double& sn, double& cs) {
  const int q = int(a * 0.6366197723675814 + 0.5);
  const double y = (a - q * 1.57079632673412561417e+00) - q * 6.07710050650619224932e-11, y2 = y * y;
  const double sy =
      y * (1.0 + y2 * (-1.0 / 6 +
                       y2 * (1.0 / 120 +
                             y2 * (-1.0 / 5040 + y2 * (1.0 / 362880 + y2 * (-1.0 / 39916800 +
                                                                            y2 * (1.0 / 6227020800.0)))))));
  const double cy =
      1.0 +
      y2 * (-0.5 +
            y2 * (1.0 / 24 +
                  y2 * (-1.0 / 720 +
                        y2 * (1.0 / 40320 +
                              y2 * (-1.0 / 3628800 + y2 * (1.0 / 479001600 - y2 * (1.0 / 87178291200.0)))))));
  switch (q & 3) {
    case 0:
      sn = sy, cs = cy;
      break;
    case 1:
      sn = cy, cs = -sy;
      break;
    case 2:
      sn = -sy, cs = -cy;
      break;
    default:
      sn = -cy, cs = sy;
      break;
  }
}

}  // namespace gms
