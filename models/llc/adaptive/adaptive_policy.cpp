#include "models/llc/adaptive/adaptive_policy.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "models/llc/adaptive/aux_tag_directory.h"
#include "models/llc/adaptive/lsp_estimator.h"

namespace gms {

namespace {

// Rates come from integer counts, so a difference that is exactly the threshold on paper (0.32 - 0.30)
// can land an ulp above it; the tolerance keeps "within delta" and "more bandwidth" meaning what they say.
constexpr double kTolerance = 1e-9;

}  // namespace

const char* to_string(AdaptiveRule r) {
  switch (r) {
    case AdaptiveRule::None:
      return "none";
    case AdaptiveRule::NoSamples:
      return "no_samples";
    case AdaptiveRule::Rule1:
      return "rule1";
    case AdaptiveRule::Rule2:
      return "rule2";
    case AdaptiveRule::Rule3Epoch:
      return "rule3_epoch";
    case AdaptiveRule::Rule3Kernel:
      return "rule3_kernel";
  }
  return "?";
}

ProfileSample ProfileSample::of(uint64_t shared_accesses, uint64_t shared_hits, const AuxTagDirectory& atd,
                                const LspEstimator& lsp) {
  ProfileSample s;
  s.shared_accesses = shared_accesses;
  s.shared_hits = shared_hits;
  s.sampled_accesses = atd.accesses();
  s.private_hits = atd.private_hits();
  s.lsp_shared = lsp.lsp_shared();
  s.lsp_private = lsp.lsp_private();
  return s;
}

std::string AdaptiveDecision::describe(double delta) const {
  char buf[320];
  int n = std::snprintf(buf, sizeof buf, "%llu %s->%s %s", static_cast<unsigned long long>(cycle),
                        to_string(from), to_string(to), to_string(rule));
  if (evaluated && n > 0 && size_t(n) < sizeof buf)
    std::snprintf(buf + n, sizeof buf - size_t(n),
                  ": miss private %.4f shared %.4f (delta %.4f); LSP shared %.2f private %.2f; "
                  "BW shared %.2f private %.2f",
                  private_miss_rate, shared_miss_rate, delta, lsp_shared, lsp_private, shared_bw, private_bw);
  return buf;
}

AdaptivePolicy::AdaptivePolicy(const AdaptiveParams& p, uint64_t cycle)
    : p_(p), epoch_start_(cycle), window_start_(cycle), last_cycle_(cycle) {
  p_.check();
}

void AdaptivePolicy::check_time(uint64_t cycle, const char* what) const {
  if (cycle < last_cycle_)
    throw std::logic_error(std::string("adaptive policy: ") + what + " at cycle " + std::to_string(cycle) +
                           ", before the previous event at " + std::to_string(last_cycle_));
}

AdaptiveDecision AdaptivePolicy::open_window(uint64_t cycle, AdaptiveRule rule3) {
  AdaptiveDecision d;
  d.cycle = cycle;
  d.from = mode_;
  d.to = LlcMode::Shared;  // profiling runs under shared mode (Rule 3 when coming from private)
  d.rule = mode_ == LlcMode::Private ? rule3 : AdaptiveRule::None;
  d.window_opened = true;
  mode_ = LlcMode::Shared;
  phase_ = Phase::Profiling;
  epoch_start_ = window_start_ = last_cycle_ = cycle;
  return d;
}

AdaptiveDecision AdaptivePolicy::on_kernel_launch(uint64_t cycle) {
  check_time(cycle, "kernel launch");
  return open_window(cycle, AdaptiveRule::Rule3Kernel);
}

AdaptiveDecision AdaptivePolicy::on_epoch_end(uint64_t cycle) {
  check_time(cycle, "epoch end");
  if (profiling() || cycle < epoch_end())
    throw std::logic_error(
        "adaptive policy: epoch end at cycle " + std::to_string(cycle) +
        (profiling() ? " while profiling" : ", before the epoch ends at " + std::to_string(epoch_end())));
  return open_window(cycle, AdaptiveRule::Rule3Epoch);
}

AdaptiveDecision AdaptivePolicy::end_profiling(uint64_t cycle, const ProfileSample& s) {
  check_time(cycle, "end of profiling");
  if (!profiling() || cycle < window_end())
    throw std::logic_error(
        "adaptive policy: end of profiling at cycle " + std::to_string(cycle) +
        (profiling() ? ", before the window ends at " + std::to_string(window_end()) : " outside a window"));
  AdaptiveDecision d = evaluate(p_, s);
  d.cycle = cycle;
  mode_ = d.to;
  phase_ = Phase::Steady;
  last_cycle_ = cycle;
  return d;
}

void AdaptivePolicy::restart_window(uint64_t cycle) {
  check_time(cycle, "window restart");
  if (!profiling()) throw std::logic_error("adaptive policy: window restart outside a window");
  epoch_start_ = window_start_ = last_cycle_ = cycle;
}

AdaptiveDecision AdaptivePolicy::evaluate(const AdaptiveParams& p, const ProfileSample& s) {
  AdaptiveDecision d;
  if (s.shared_accesses == 0 || s.sampled_accesses == 0) {
    // Nothing to predict from (an idle window, or no access fell in a sampled set): stay shared, the
    // paper's default organisation.
    d.rule = AdaptiveRule::NoSamples;
    return d;
  }
  const double shared_hit = double(std::min(s.shared_hits, s.shared_accesses)) / double(s.shared_accesses);
  const double private_hit =
      double(std::min(s.private_hits, s.sampled_accesses)) / double(s.sampled_accesses);
  d.evaluated = true;
  d.shared_miss_rate = 1.0 - shared_hit;
  d.private_miss_rate = 1.0 - private_hit;
  d.lsp_shared = s.lsp_shared;
  d.lsp_private = s.lsp_private;
  d.shared_bw = bandwidth(shared_hit, s.lsp_shared, p.llc_slice_gbps, p.mem_gbps);
  d.private_bw = bandwidth(private_hit, s.lsp_private, p.llc_slice_gbps, p.mem_gbps);
  // Rule 1 first: when it fires the application is insensitive to the organisation, and private saves
  // NoC power (gated MC-routers) whatever the bandwidth model says. A private miss rate below the shared
  // one (sampling noise, or shared mode thrashing) passes too: "similar or better".
  if (d.private_miss_rate <= d.shared_miss_rate + p.rule1_miss_rate_delta + kTolerance) {
    d.rule = AdaptiveRule::Rule1;
  } else if (d.private_bw > d.shared_bw + kTolerance * std::max(1.0, d.shared_bw)) {
    d.rule = AdaptiveRule::Rule2;
  }
  if (d.rule != AdaptiveRule::None) d.to = LlcMode::Private;
  return d;
}

}  // namespace gms
