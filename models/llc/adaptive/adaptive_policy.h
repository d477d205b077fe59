// The adaptive LLC's decision (paper 004 sections 4.3-4.4): when to profile, and which organisation to
// adopt. Pure logic without events or clocks: the controller that owns the slices, the ATD and the LSP
// counters drives it with cycle numbers and the window's statistics, and carries out what it returns
// (drain, write back or invalidate, switch the SliceSelector). Every call returns an AdaptiveDecision the
// controller can log as its mode timeline.
//
// Timing. The LLC starts shared with a profiling window open at the construction cycle. A window opens at
// every epoch start and kernel launch and lasts profile_cycles; at its end the rules are evaluated once:
//   Rule 1 (S -> P): predicted private miss rate <= measured shared miss rate + rule1_miss_rate_delta.
//   Rule 2 (S -> P): BW_private > BW_shared, BW = hit x LSP x LLC_BW + miss x MEM_BW per organisation.
//   Rule 3 (P -> S): at the next epoch start (epoch_cycles after the last one) or kernel launch.
// An epoch starts at construction, at every epoch boundary and at every kernel launch (so a new kernel gets
// a whole epoch; the paper does not say whether epochs are a fixed grid).
#pragma once
#include <cstdint>
#include <string>

#include "models/llc/adaptive/adaptive_params.h"
#include "models/llc/slice_selector.h"

namespace gms {

class AuxTagDirectory;
class LspEstimator;

enum class AdaptiveRule : uint8_t {
  None,         // no change (a window opened, or the rules did not fire)
  NoSamples,    // a window ended without ATD or slice accesses: stay shared
  Rule1,        // S -> P, similar miss rates
  Rule2,        // S -> P, more bandwidth in private mode
  Rule3Epoch,   // P -> S at an epoch boundary
  Rule3Kernel,  // P -> S at a kernel launch
};
const char* to_string(AdaptiveRule r);

// What one profiling window measured (deltas over the window, not running totals).
struct ProfileSample {
  uint64_t shared_accesses = 0;   // tag accesses of all slices (LlcStats::accesses)
  uint64_t shared_hits = 0;       // their hits (LlcStats::hits)
  uint64_t sampled_accesses = 0;  // ATD accesses
  uint64_t private_hits = 0;      // ATD predicted private hits
  double lsp_shared = 0.0;
  double lsp_private = 0.0;

  // The ATD's and LSP estimator's counters with the slices' measured deltas.
  static ProfileSample of(uint64_t shared_accesses, uint64_t shared_hits, const AuxTagDirectory& atd,
                          const LspEstimator& lsp);
};

struct AdaptiveDecision {
  uint64_t cycle = 0;
  LlcMode from = LlcMode::Shared, to = LlcMode::Shared;
  AdaptiveRule rule = AdaptiveRule::None;
  // A profiling window opened at `cycle`: reset the ATD counters and LSP counters, snapshot the slices'
  // statistics (and after a P -> S switch, see AdaptivePolicy::restart_window).
  bool window_opened = false;
  // The rules were evaluated (end of a window with samples): the numbers below are meaningful.
  bool evaluated = false;
  double shared_miss_rate = 0.0, private_miss_rate = 0.0;
  double lsp_shared = 0.0, lsp_private = 0.0;
  double shared_bw = 0.0, private_bw = 0.0;

  bool switches() const { return from != to; }
  // One line for the mode timeline, e.g.
  // "50000 shared->private rule1: miss private 0.3100 shared 0.3000 (delta 0.0200); LSP 2.00/8.00; ..."
  std::string describe(double delta) const;
};

class AdaptivePolicy {
 public:
  enum class Phase : uint8_t { Profiling, Steady };

  // Shared, an epoch and a profiling window starting at `cycle`. Throws ConfigError if p.check() fails.
  explicit AdaptivePolicy(const AdaptiveParams& p, uint64_t cycle = 0);

  LlcMode mode() const { return mode_; }
  Phase phase() const { return phase_; }
  bool profiling() const { return phase_ == Phase::Profiling; }
  // The window follows its epoch's start by warmup_cycles (0: the paper's timing).
  uint64_t window_start() const { return window_start_ + p_.warmup_cycles; }
  uint64_t window_end() const { return window_start() + p_.profile_cycles; }
  uint64_t epoch_start() const { return epoch_start_; }
  uint64_t epoch_end() const { return epoch_start_ + p_.epoch_cycles; }
  // The cycle at which the caller must call end_profiling (while profiling) or on_epoch_end (otherwise).
  uint64_t next_event_cycle() const { return profiling() ? window_end() : epoch_end(); }

  // A kernel starts: a new epoch and window; Rule 3 if private. Any phase (a window in progress is
  // abandoned: its numbers describe the previous kernel).
  AdaptiveDecision on_kernel_launch(uint64_t cycle);
  // The epoch boundary (call at or after epoch_end() while not profiling; std::logic_error otherwise):
  // a new epoch and window; Rule 3 if private.
  AdaptiveDecision on_epoch_end(uint64_t cycle);
  // The window's end (call at or after window_end() while profiling; std::logic_error otherwise): Rules 1
  // and 2 decide; the policy is then steady in the chosen mode until the epoch ends.
  AdaptiveDecision end_profiling(uint64_t cycle, const ProfileSample& s);
  // A P -> S switch finished draining at `cycle`: epoch and window restart there, so the window measures
  // the shared organisation only (the cycles spent draining are not profiled). Only while profiling.
  void restart_window(uint64_t cycle);

  // Rules 1 and 2 on a sample (stateless; from = to = Shared when neither fires).
  static AdaptiveDecision evaluate(const AdaptiveParams& p, const ProfileSample& s);
  // BW = hit_rate x LSP x LLC_BW + (1 - hit_rate) x MEM_BW (section 4.4).
  static double bandwidth(double hit_rate, double lsp, double llc_bw, double mem_bw) {
    return hit_rate * lsp * llc_bw + (1.0 - hit_rate) * mem_bw;
  }

  const AdaptiveParams& params() const { return p_; }

 private:
  AdaptiveDecision open_window(uint64_t cycle, AdaptiveRule rule3);
  void check_time(uint64_t cycle, const char* what) const;

  AdaptiveParams p_;
  LlcMode mode_ = LlcMode::Shared;
  Phase phase_ = Phase::Profiling;
  uint64_t epoch_start_ = 0, window_start_ = 0, last_cycle_ = 0;
};

}  // namespace gms
