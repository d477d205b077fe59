// The latency sampler's cheap Box-Muller (models/analytic/fast_polar.h) draws exactly the latencies of the
// libm Box-Muller it replaced, and its log and sincos stay far inside the margin the sampler relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "models/analytic/fast_polar.h"
#include "models/analytic/rd_timing.h"
#include "models/common/rng.h"

using namespace gms;

namespace {

// The sampler as it was: libm log, sqrt and sincos, std::round.
uint32_t reference_latency(Rng& rng, uint32_t lambda_min, double sigma, double& spare, bool& has_spare) {
  double z;
  if (has_spare) {
    z = spare;
    has_spare = false;
  } else {
    double u1 = rng.uniform(), u2 = rng.uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    const double r = std::sqrt(-2.0 * std::log(u1)), a = 6.283185307179586 * u2;
    z = r * std::cos(a);
    spare = r * std::sin(a);
    has_spare = true;
  }
  return lambda_min + uint32_t(std::fabs(std::round(z * sigma)));
}

TEST(RdLatency, SameDrawsAsLibmBoxMuller) {
  for (const double sigma : {5.0, 20.0, 0.7, 3000.0}) {
    for (uint32_t core = 0; core < 3; ++core) {
      LatencySampler s(100, sigma, 7, core);
      Rng ref(7, "rd.core" + std::to_string(core));
      double spare = 0;
      bool has_spare = false;
      for (int i = 0; i < 400000; ++i)
        ASSERT_EQ(s.miss(), reference_latency(ref, 100, sigma, spare, has_spare))
            << "sigma " << sigma << " core " << core << " draw " << i;
    }
  }
}

// The libm path, which the default margin takes only about once in 1e8 draws, forced on every draw.
TEST(RdLatency, LibmFallbackPathGivesTheSameDraws) {
  for (const double sigma : {5.0, 0.7}) {
    LatencySampler s(100, sigma, 11, 2, /*margin=*/1e30);
    Rng ref(11, "rd.core2");
    double spare = 0;
    bool has_spare = false;
    for (int i = 0; i < 100000; ++i)
      ASSERT_EQ(s.miss(), reference_latency(ref, 100, sigma, spare, has_spare))
          << "sigma " << sigma << " draw " << i;
  }
}

TEST(RdLatency, FastLogAndSincosAreAccurate) {
  Rng rng(3);
  for (int i = 0; i < 1000000; ++i) {
    double u = rng.uniform();
    if (u < 1e-300) u = 1e-300;
    ASSERT_NEAR(fast_log(u), std::log(u), 1e-14 * std::max(1.0, -std::log(u))) << u;
    const double a = 6.283185307179586 * rng.uniform();
    double sn, cs;
    fast_sincos(a, sn, cs);
    ASSERT_NEAR(sn, std::sin(a), 1e-13) << a;
    ASSERT_NEAR(cs, std::cos(a), 1e-13) << a;
  }
  EXPECT_NEAR(fast_log(1e-300), std::log(1e-300), 1e-12);
}

}  // namespace
