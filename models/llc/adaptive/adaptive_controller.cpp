#include "models/llc/adaptive/adaptive_controller.h"

#include "models/llc/last_level_cache.h"

namespace gms {

AdaptiveLlcController::AdaptiveLlcController(sc_core::sc_module_name name, const AdaptiveParams& p,
                                             double clock_mhz, LlcModeController& modes,
                                             SliceSelector& selector, std::vector<LastLevelCache*> slices,
                                             const BlockEnv& env, std::function<bool()> finished)
    : sc_core::sc_module(name),
      p_(p),
      clock_(clock_mhz),
      modes_(modes),
      selector_(selector),
      slices_(std::move(slices)),
      atd_(slices_.at(p.sampled_slice)->params().sets(), slices_.at(p.sampled_slice)->params().ways,
           p.sampled_sets, selector.clusters()),
      lsp_(unsigned(slices_.size()), LspEstimator::private_slice_of(selector), p.lsp_counter_bits),
      policy_(p, 0),
      finished_(std::move(finished)),
      stats_(*env.stats, basename(),
             "adaptive LLC: profiling windows and decisions (paper 004 sections 4.3-4.4)"),
      windows_(stats_.counter("windows", "profiling windows evaluated", "windows")),
      rule1_(stats_.counter("rule1", "shared -> private by Rule 1 (similar miss rates)", "decisions")),
      rule2_(stats_.counter("rule2", "shared -> private by Rule 2 (more bandwidth)", "decisions")),
      rule3_(stats_.counter("rule3", "private -> shared by Rule 3 (epoch or kernel launch)", "decisions")),
      no_samples_(
          stats_.counter("no_samples", "windows without ATD or slice accesses (stay shared)", "windows")),
      atd_accesses_(stats_.counter("atd_accesses", "accesses of the ATD's sampled sets", "accesses")),
      atd_private_hits_(stats_.counter("atd_private_hits",
                                       "ATD hits by the cluster that last touched the line", "accesses")),
      private_accesses_(stats_.counter("private_accesses", "slice tag accesses while private", "accesses")),
      private_hits_(stats_.counter("private_hits", "their hits", "accesses")) {
  wake_.bind(
      env.wake, [](void* o) { static_cast<AdaptiveLlcController*>(o)->run(); }, this);
  slices_[p.sampled_slice]->set_access_observer(&AdaptiveLlcController::observe, this);
  stats_.formula(
      "predicted_private_miss_rate", "the ATD's private miss rate over all windows", "ratio", [this] {
        return atd_accesses_.value ? 1.0 - double(atd_private_hits_.value) / double(atd_accesses_.value)
                                   : 0.0;
      });
  stats_.formula("real_private_miss_rate", "the slices' miss rate while private", "ratio", [this] {
    return private_accesses_.value ? 1.0 - double(private_hits_.value) / double(private_accesses_.value)
                                   : 0.0;
  });
  stats_.formula("last_predicted_private_miss_rate", "the last window's ATD estimate", "ratio",
                 [this] { return last_pred_private_miss_; });
  stats_.formula("last_shared_miss_rate", "the last window's measured shared miss rate", "ratio",
                 [this] { return last_shared_miss_; });
  stats_.formula("last_lsp_shared", "the last window's measured LLC slice parallelism", "slices",
                 [this] { return last_lsp_shared_; });
  stats_.formula("last_lsp_private", "the last window's predicted private LLC slice parallelism", "slices",
                 [this] { return last_lsp_private_; });
}

void AdaptiveLlcController::start_of_simulation() {
  begin_epoch();
  schedule();  // the first window's end (wake-ups are not taken during elaboration)
}

void AdaptiveLlcController::observe(void* self, uint64_t line, uint32_t set, unsigned sm) {
  auto* a = static_cast<AdaptiveLlcController*>(self);
  if (a->modes_.mode() != LlcMode::Shared || a->modes_.busy()) return;  // profiling happens under shared
  const AuxTagDirectory::Outcome o = a->atd_.access(line, set, a->selector_.cluster_of(sm));
  if (o == AuxTagDirectory::Outcome::NotSampled) return;
  ++a->atd_accesses_;
  if (o == AuxTagDirectory::Outcome::PrivateHit) ++a->atd_private_hits_;
}

uint64_t AdaptiveLlcController::slice_sum(const char* counter) const {
  uint64_t n = 0;
  for (const LastLevelCache* s : slices_) n += uint64_t(s->stats().value(counter));
  return n;
}

void AdaptiveLlcController::schedule() {
  if (stopped_ || (finished_ && finished_())) return;  // nothing left to profile: let the simulation end
  const uint64_t at = next_event();
  if (at == scheduled_) return;
  scheduled_ = at;
  wake_.notify_at_ps(clock_.edge_ps(at));
}

void AdaptiveLlcController::stop_timers() {
  stopped_ = true;
  scheduled_ = UINT64_MAX;
  wake_.cancel();
}

void AdaptiveLlcController::begin_epoch() {
  // With a warm-up the counters open at the window's start (run()); without, now.
  counting_ = p_.warmup_cycles == 0;
  if (counting_) open_window();
}

void AdaptiveLlcController::open_window() {
  atd_.reset_counters();
  lsp_.reset();
  base_accesses_ = slice_sum("accesses");
  base_hits_ = slice_sum("hits");
}

uint64_t AdaptiveLlcController::next_event() const {
  // During a window's warm-up the next event is the window's start (its counters open then).
  if (policy_.profiling() && !counting_) return policy_.window_start();
  return policy_.next_event_cycle();
}

void AdaptiveLlcController::run() {
  const uint64_t c = clock_.cycle();
  scheduled_ = UINT64_MAX;
  if (c < next_event()) {  // the schedule moved later (a wake-up keeps only the earliest time)
    schedule();
    return;
  }
  if (policy_.profiling() && !counting_) {  // warm-up over: the window measures from here
    open_window();
    counting_ = true;
    schedule();
    return;
  }
  if (finished_ && finished_()) return;
  if (modes_.busy()) {  // a switch is draining: decide once it is done (switched() reschedules)
    return;
  }
  if (policy_.profiling()) {
    const ProfileSample s =
        ProfileSample::of(slice_sum("accesses") - base_accesses_, slice_sum("hits") - base_hits_, atd_, lsp_);
    act(policy_.end_profiling(c, s));
  } else {
    act(policy_.on_epoch_end(c));
  }
  schedule();
}

void AdaptiveLlcController::on_kernel_launch() {
  const uint64_t c = clock_.cycle();
  if (c <= policy_.epoch_start()) return;  // the launch at the very start: the first epoch is open already
  act(policy_.on_kernel_launch(c));
  schedule();
}

void AdaptiveLlcController::account_mode(uint64_t) {
  if (modes_.mode() == LlcMode::Private) {  // leaving private: count what it did
    private_accesses_ += slice_sum("accesses") - private_since_acc_;
    private_hits_ += slice_sum("hits") - private_since_hits_;
  }
}

void AdaptiveLlcController::act(const AdaptiveDecision& d) {
  if (d.evaluated) {
    ++windows_;
    last_pred_private_miss_ = d.private_miss_rate;
    last_shared_miss_ = d.shared_miss_rate;
    last_lsp_shared_ = d.lsp_shared;
    last_lsp_private_ = d.lsp_private;
  }
  if (d.rule == AdaptiveRule::NoSamples) ++no_samples_;
  if (d.evaluated || d.switches() || d.rule == AdaptiveRule::NoSamples) {
    timeline_.push_back(d.describe(p_.rule1_miss_rate_delta));
    if (!d.switches()) modes_.note(timeline_.back() + " (stays " + to_string(modes_.mode()) + ")");
  }
  if (d.switches()) {
    if (d.rule == AdaptiveRule::Rule1) ++rule1_;
    if (d.rule == AdaptiveRule::Rule2) ++rule2_;
    if (d.rule == AdaptiveRule::Rule3Epoch || d.rule == AdaptiveRule::Rule3Kernel) ++rule3_;
    account_mode(d.cycle);
    modes_.request(
        d.to, [this] { switched(); }, d.describe(p_.rule1_miss_rate_delta));
  } else if (d.window_opened) {
    begin_epoch();
  }
}

void AdaptiveLlcController::switched() {
  const uint64_t c = clock_.cycle();
  if (modes_.mode() == LlcMode::Private) {
    private_since_acc_ = slice_sum("accesses");
    private_since_hits_ = slice_sum("hits");
    schedule();
    return;
  }
  // Back to shared: the slices were invalidated; the window measures the shared organisation from now.
  atd_.clear();
  if (policy_.profiling()) policy_.restart_window(c);
  begin_epoch();
  schedule();
}

}  // namespace gms
