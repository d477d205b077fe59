#include "models/l1/tsc_mode_duel.h"

#include <stdexcept>

namespace gms {

TscModeDuel::TscModeDuel(const TscPlusParams& p, uint32_t sets, bool leader, DecisionBoard* board)
    : p_(p), sets_(sets), leader_(leader) {
  if (p.sampler_sets > sets)
    throw ConfigError("l1.tsc_plus.sampler_sets: " + std::to_string(p.sampler_sets) +
                      " sampler sets, the L1 has " + std::to_string(sets) + " sets");
  if (board) {
    decision_ = &board->decision("l1.tsc_plus.mode", Fine);
  } else {
    own_ = std::make_unique<SharedDecision>(Fine);
    decision_ = own_.get();
  }
}

// Sampler i sits at set i * sets / samplers: even i fine, odd i coarse (spread over the index range).
TscModeDuel::Role TscModeDuel::role(uint32_t set) const {
  if (!leader_) return Follower;
  const uint64_t scaled = uint64_t(set) * p_.sampler_sets;
  if (scaled % sets_) return Follower;
  const uint64_t i = scaled / sets_;
  return i % 2 ? CoarseSampler : FineSampler;
}

TscModeDuel::Mode TscModeDuel::mode_of(uint32_t set) const {
  switch (role(set)) {
    case FineSampler:
      return Fine;
    case CoarseSampler:
      return Coarse;
    default:
      return follower_mode();
  }
}

void TscModeDuel::count_miss(uint32_t set, uint32_t data_packets) {
  const Role r = role(set);
  if (r == Follower) return;
  const Mode m = r == FineSampler ? Fine : Coarse;
  ++misses_[m];
  traffic_[m] += 1 + data_packets;
  if (misses_[Fine] > p_.aging_threshold || misses_[Coarse] > p_.aging_threshold) {
    for (int i = 0; i < 2; ++i) {
      misses_[i] >>= 1;
      traffic_[i] >>= 1;
    }
    ++agings_;
  }
  const uint64_t fine = uint64_t(misses_[Fine]) * traffic_[Fine];
  const uint64_t coarse = uint64_t(misses_[Coarse]) * traffic_[Coarse];
  decision_->set(coarse < fine ? Coarse : Fine);  // ties keep fine storage, TSC's default
}

}  // namespace gms
