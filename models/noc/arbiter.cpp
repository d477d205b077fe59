#include "models/noc/arbiter.h"

#include "models/common/config.h"

namespace gms {

void RoundRobinArbiter::resize(unsigned inputs, unsigned outputs) {
  inputs_ = inputs;
  // Start each pointer at the last input so input 0 has the highest priority in the first cycle.
  last_.assign(outputs, inputs ? inputs - 1 : 0);
  input_granted_.assign(inputs, 0);
  output_seen_.assign(outputs, 0);
  best_.assign(outputs, 0);
  best_dist_.assign(outputs, 0);
  touched_.clear();
}

void RoundRobinArbiter::allocate(const std::vector<SwitchRequest>& requests,
                                 std::vector<SwitchRequest>& grants) {
  grants.clear();
  touched_.clear();
  // Pass 1: per output, the requester with the smallest cyclic distance after its last winner.
  for (const SwitchRequest& r : requests) {
    const uint32_t dist = distance(r);
    if (!output_seen_[r.output]) {
      output_seen_[r.output] = 1;
      touched_.push_back(r.output);
      best_[r.output] = r.input;
      best_dist_[r.output] = dist;
    } else if (dist < best_dist_[r.output]) {
      best_[r.output] = r.input;
      best_dist_[r.output] = dist;
    }
  }
  // Pass 2: grant in order of first appearance. An input that won two outputs (possible only when an
  // input requests several) keeps the first; the other output rescans its remaining requesters.
  for (uint32_t o : touched_) {
    uint32_t winner = best_[o];
    if (input_granted_[winner]) {
      bool found = false;
      uint32_t best_dist = 0;
      for (const SwitchRequest& q : requests) {
        if (q.output != o || input_granted_[q.input]) continue;
        const uint32_t dist = distance(q);
        if (!found || dist < best_dist) {
          found = true;
          winner = q.input;
          best_dist = dist;
        }
      }
      if (!found) continue;
    }
    input_granted_[winner] = 1;
    last_[o] = winner;
    grants.push_back({winner, o});
  }
  for (uint32_t o : touched_) output_seen_[o] = 0;
  for (const SwitchRequest& g : grants) input_granted_[g.input] = 0;
}

std::unique_ptr<Arbiter> make_arbiter(const std::string& kind) {
  if (kind == "rr") return std::make_unique<RoundRobinArbiter>();
  throw ConfigError("noc.arbiter: unknown arbiter '" + kind + "' (known: rr)");
}

}  // namespace gms
