// Time stamps, latencies and MSHRs of the reuse-distance model (paper 003 secs. 4.2 and 4.4): pending
// cache effects (queued by effect time, then by issue; a miss's effect also frees its MSHR entry) and the
// seeded memory-latency sampler lambda_min + |N(0, sigma^2)|.
#pragma once
#include <cstdint>

#include "models/common/rng.h"

namespace gms {

struct Effect {
  uint64_t time = 0;     // when the access takes effect on the stack
  uint64_t seq = 0;      // issue time stamp: simultaneous effects apply in issue order
  uint32_t slot = 0;     // the line
  bool release = false;  // a miss: its MSHR entry is freed at `time` (the fill), if not already
};

// Memory latency in time stamps: lambda_min + |round(N(0, sigma^2))| (half-normal), from a seeded
// xoshiro stream (Box-Muller on its uniforms), so a run is reproducible on any platform.
class LatencySampler {
 public:
  LatencySampler(uint32_t lambda_min, double sigma, uint64_t seed, uint32_t core);
  uint32_t miss();

 private:
  uint32_t lambda_min_;
  double sigma_;
  Rng rng_;
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace gms
