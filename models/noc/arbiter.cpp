#include "models/noc/arbiter.h"

#include "models/common/config.h"
#include "models/noc/rtl/rtl_cosim.h"

namespace gms {

void Arbiter::resize(unsigned inputs, unsigned outputs) {
  inputs_ = inputs;
  outputs_ = outputs;
  words_ = inputs ? (inputs + 63) / 64 : 1;
  mask_.assign(outputs * words_, 0);
  granted_.assign(words_, 0);
  requested_.resize(outputs);
  touched_.assign(outputs, 0);
  touched_count_ = 0;
  on_resize();
}

void RoundRobinArbiter::on_resize() {
  // Input 0 has the highest priority in the first cycle.
  next_.assign(outputs_, 0);
}

void RoundRobinArbiter::grant(std::vector<SwitchRequest>& grants) {
  grants.clear();
  // Outputs in order of first request: an input that two outputs want (possible only when an input
  // requests several) goes to the first; the other takes its next requester after its pointer.
  for (size_t k = 0; k < touched_count_; ++k) {
    const uint32_t o = touched_[k];
    const int winner = cyclic_first(&mask_[o * words_], granted_.data(), words_, next_[o]);
    clear_requests(o);
    if (winner < 0) continue;
    const uint32_t w = uint32_t(winner);
    granted_[w >> 6] |= uint64_t(1) << (w & 63);
    next_[o] = w + 1 == inputs_ ? 0 : w + 1;
    grants.push_back({w, o});
  }
  touched_count_ = 0;
  for (const SwitchRequest& g : grants) granted_[g.input >> 6] = 0;
}

std::unique_ptr<Arbiter> make_arbiter(const std::string& kind, const ArbiterSite& site) {
  if (kind == "rr") return std::make_unique<RoundRobinArbiter>();
  if (kind == "rtl") return make_rtl_arbiter(site);
  throw ConfigError("noc.arbiter: unknown arbiter '" + kind + "' (known: rr, rtl)");
}

}  // namespace gms
