// Time stamps, latencies and MSHRs of the reuse-distance model (paper 003 secs. 4.2 and 4.4): the queue
// of pending cache effects (ordered by effect time, then by issue), the release times of MSHR entries,
// and the seeded memory-latency sampler lambda_min + |N(0, sigma^2)|.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include "models/common/rng.h"

namespace gms {

struct Effect {
  uint64_t time = 0;  // when the access takes effect on the stack
  uint64_t seq = 0;   // issue time stamp: simultaneous effects apply in issue order
  uint32_t slot = 0;  // the line
  bool operator>(const Effect& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

class EffectQueue {
 public:
  void push(const Effect& e) { q_.push(e); }
  bool due_before(uint64_t t) const { return !q_.empty() && q_.top().time < t; }
  bool empty() const { return q_.empty(); }
  const Effect& top() const { return q_.top(); }
  void pop() { q_.pop(); }
  void clear() { q_ = {}; }
  size_t size() const { return q_.size(); }

 private:
  std::priority_queue<Effect, std::vector<Effect>, std::greater<Effect>> q_;
};

struct MshrRelease {
  uint64_t time = 0;
  uint32_t slot = 0;
  bool operator>(const MshrRelease& o) const { return time != o.time ? time > o.time : slot > o.slot; }
};
using MshrReleaseQueue =
    std::priority_queue<MshrRelease, std::vector<MshrRelease>, std::greater<MshrRelease>>;

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
