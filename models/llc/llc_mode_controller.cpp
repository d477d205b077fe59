#include "models/llc/llc_mode_controller.h"

#include <stdexcept>

#include "models/llc/last_level_cache.h"

namespace gms {

LlcModeController::LlcModeController(sc_core::sc_module_name name, double clock_mhz, SliceSelector& selector,
                                     std::vector<LastLevelCache*> slices, SystemHooks hooks,
                                     const BlockEnv& env)
    : sc_core::sc_module(name),
      clock_(clock_mhz),
      selector_(selector),
      slices_(std::move(slices)),
      hooks_(std::move(hooks)),
      stats_(*env.stats, basename(), "LLC organisation: shared / private switches (paper 004 section 4.1)"),
      to_private_(stats_.counter("to_private", "completed switches shared -> private", "switches")),
      to_shared_(stats_.counter("to_shared", "completed switches private -> shared", "switches")),
      reconfig_cycles_(
          stats_.counter("reconfig_cycles", "cycles from a switch request to the SMs resuming", "cycles")),
      drain_cycles_(stats_.counter("drain_cycles", "of those: waiting for the in-flight requests", "cycles")),
      flush_cycles_(
          stats_.counter("flush_cycles", "of those: write-back / invalidation until acknowledged", "cycles")),
      gate_cycles_(stats_.counter("gate_cycles", "of those: gating / waking the MC-routers", "cycles")),
      lines_written_back_(
          stats_.counter("lines_written_back", "dirty lines written back at switches", "lines")),
      lines_invalidated_(
          stats_.counter("lines_invalidated", "lines dropped at switches and kernel-end flushes", "lines")),
      kernel_flushes_(
          stats_.counter("kernel_flushes", "kernel-end flushes of the private slices", "flushes")) {
  if (!hooks_.pause_sms || !hooks_.sms_drained)
    throw std::invalid_argument(std::string(name) + ": missing hooks");
  wake_.bind(
      env.wake, [](void* o) { static_cast<LlcModeController*>(o)->run(); }, this);
  // Time and NoC energy per organisation, the open period included (read when the statistics are written).
  for (int i = 0; i < 2; ++i) {
    const std::string m = i ? "private" : "shared";
    stats_.formula("cycles_" + m, "LLC cycles spent " + m + " (switches count to the mode they leave)",
                   "cycles", [this, i] {
                     const bool open = (mode_ == LlcMode::Private) == (i == 1);
                     const double ps =
                         mode_ps_[i] + (open ? double(Clock::now_ps()) - period_start_ps_ : 0.0);
                     return ps / double(clock_.period_ps());
                   });
    stats_.formula("noc_energy_" + m + "_nj", "NoC energy spent while " + m, "nJ", [this, i] {
      const bool open = (mode_ == LlcMode::Private) == (i == 1);
      const double nj = hooks_.noc_energy_nj ? hooks_.noc_energy_nj() : 0.0;
      return mode_nj_[i] + (open ? nj - period_start_nj_ : 0.0);
    });
  }
  VcdWriter* tf = env.trace_file(basename());
  mode_probe_.attach(tf, basename(), "private_mode");
  phase_probe_.attach(tf, basename(), "reconfig_phase");
}

void LlcModeController::close_period() {
  const double now = double(Clock::now_ps()), nj = hooks_.noc_energy_nj ? hooks_.noc_energy_nj() : 0.0;
  const int i = mode_ == LlcMode::Private ? 1 : 0;
  mode_ps_[i] += now - period_start_ps_;
  mode_nj_[i] += nj - period_start_nj_;
  period_start_ps_ = now;
  period_start_nj_ = nj;
}

void LlcModeController::apply_mode(LlcMode m) {
  close_period();
  selector_.set_mode(m);
  for (LastLevelCache* s : slices_) s->set_write_through(m == LlcMode::Private);
  mode_ = m;
  mode_probe_.set(m == LlcMode::Private);
}

void LlcModeController::start_of_simulation() {
  if (!ranges_.empty()) {
    bool all_private = true;
    for (const Range& r : ranges_) {
      any_private_ = any_private_ || r.mode == LlcMode::Private;
      all_private = all_private && r.mode == LlcMode::Private;
    }
    initial_ = all_private ? LlcMode::Private : LlcMode::Shared;
  }
  apply_mode(initial_);
  target_ = initial_;
  timeline_.push_back("0 " + std::string(to_string(initial_)) + " (llc.mode)");
  for (const Range& r : ranges_) {
    selector_.set_mode(r.first, r.last, r.mode);
    timeline_.push_back("0 SMs " + std::to_string(r.first) + "-" + std::to_string(r.last - 1) + " " +
                        to_string(r.mode) + " (programs file)");
  }
  if (any_private_)
    for (LastLevelCache* s : slices_) s->set_write_through(true);
  if (initial_ == LlcMode::Private && hooks_.mcr)
    if (McRouterControl* r = hooks_.mcr())
      for (unsigned j = 0; j < r->mc_routers(); ++j) r->gate(j);
  if (force_every_) {
    next_force_ = force_every_;
    wake_.notify_at_ps(clock_.edge_ps(next_force_));
  }
}

void LlcModeController::request(LlcMode target, std::function<void()> done, const std::string& why) {
  if (busy() || target == mode_) return;
  target_ = target;
  done_ = std::move(done);
  const uint64_t c = clock_.cycle();
  timeline_.push_back(std::to_string(c) + " switch to " + to_string(target) + " requested" +
                      (why.empty() ? "" : ": " + why));
  started_ = c;
  hooks_.pause_sms(true);
  enter(Phase::Drain, c);
  wake_.notify_at_ps(clock_.edge_ps(c + 1));
}

void LlcModeController::enter(Phase p, uint64_t c) {
  phase_ = p;
  phase_started_ = c;
  phase_probe_.set(uint8_t(p));
}

bool LlcModeController::slices_quiescent() const {
  for (const LastLevelCache* s : slices_)
    if (!s->quiescent()) return false;
  return true;
}

bool LlcModeController::routers_reached() const {
  McRouterControl* r = hooks_.mcr ? hooks_.mcr() : nullptr;
  if (!r) return true;
  const GateState want = target_ == LlcMode::Private ? GateState::kGated : GateState::kOn;
  for (unsigned j = 0; j < r->mc_routers(); ++j)
    if (r->state(j) != want) return false;
  return true;
}

void LlcModeController::run() {
  const uint64_t c = clock_.cycle();
  if (phase_ == Phase::Idle && next_force_ != UINT64_MAX && c >= next_force_) {
    next_force_ = UINT64_MAX;
    if (!hooks_.finished || !hooks_.finished())
      request(mode_ == LlcMode::Private ? LlcMode::Shared : LlcMode::Private);
    return;
  }
  switch (phase_) {
    case Phase::Idle:
      return;
    case Phase::Drain:
      if (!hooks_.sms_drained() || !slices_quiescent()) break;
      drain_cycles_ += c - phase_started_;
      // Shared -> private: no slice may keep the only copy of a line; private -> shared: the clusters' copies
      // of one line must not outlive the switch (write-through left them clean).
      for (LastLevelCache* s : slices_) {
        if (target_ == LlcMode::Private)
          lines_written_back_ += s->write_back_all();
        else
          lines_invalidated_ += s->invalidate_all();
      }
      enter(Phase::Flush, c);
      [[fallthrough]];
    case Phase::Flush:
      if (!slices_quiescent()) break;
      flush_cycles_ += c - phase_started_;
      if (McRouterControl* r = hooks_.mcr ? hooks_.mcr() : nullptr)
        for (unsigned j = 0; j < r->mc_routers(); ++j) {
          if (target_ == LlcMode::Private)
            r->gate(j);
          else
            r->wake(j);
        }
      enter(Phase::Gate, c);
      break;  // the routers move from the next NoC cycle
    case Phase::Gate:
      if (!routers_reached()) break;
      gate_cycles_ += c - phase_started_;
      finish(c);
      return;
  }
  wake_.notify_at_ps(clock_.edge_ps(c + 1));
}

void LlcModeController::finish(uint64_t c) {
  timeline_.push_back(std::to_string(c) + " " + to_string(target_) + " after " +
                      std::to_string(c - started_) + " cycles");
  apply_mode(target_);
  if (target_ == LlcMode::Private)
    ++to_private_;
  else
    ++to_shared_;
  reconfig_cycles_ += c - started_;
  enter(Phase::Idle, c);
  hooks_.pause_sms(false);
  if (force_every_ && !(hooks_.finished && hooks_.finished())) {
    next_force_ = c + force_every_;
    wake_.notify_at_ps(clock_.edge_ps(next_force_));
  }
  if (done_) {
    auto d = std::move(done_);
    done_ = nullptr;
    d();
  }
}

void LlcModeController::stop_timers() {
  force_every_ = 0;
  if (phase_ != Phase::Idle || next_force_ == UINT64_MAX) return;
  next_force_ = UINT64_MAX;
  wake_.cancel();
}

void LlcModeController::kernel_end_flush() {
  if (mode_ != LlcMode::Private && !any_private_) return;
  ++kernel_flushes_;
  for (LastLevelCache* s : slices_) lines_invalidated_ += s->invalidate_all();
}

}  // namespace gms
