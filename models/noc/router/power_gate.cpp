#include "models/noc/router/power_gate.h"

#include "models/noc/router/router.h"

namespace gms {

const char* to_string(GateState s) {
  switch (s) {
    case GateState::kOn:
      return "on";
    case GateState::kDraining:
      return "draining";
    case GateState::kGated:
      return "gated";
    case GateState::kWaking:
      return "waking";
  }
  return "?";
}

void PowerGate::enter(GateState s, uint64_t c) {
  if (state_ == GateState::kGated) gated_ += c - since_;
  state_ = s;
  since_ = c;
}

uint64_t PowerGate::step(uint64_t c, Router& r, bool& changed) {
  changed = false;
  switch (state_) {
    case GateState::kOn:
      if (!want_gated_) return kStable;
      enter(GateState::kDraining, c);
      changed = true;
      [[fallthrough]];
    case GateState::kDraining:
      if (!powering_down_) {
        if (!want_gated_) {  // cancelled before the bypass engaged: nothing to undo
          enter(GateState::kOn, c);
          changed = true;
          return kStable;
        }
        if (r.holds_packets()) return c + 1;  // wait until the flits inside have left
        r.set_bypass(true);
        powering_down_ = true;
        timer_ = c + p_.gate_cycles;
      }
      if (c < timer_) return timer_;
      powering_down_ = false;
      enter(GateState::kGated, c);
      ++gates_;
      changed = true;
      if (want_gated_) return kStable;
      [[fallthrough]];
    case GateState::kGated:
      if (want_gated_) return kStable;
      enter(GateState::kWaking, c);
      timer_ = c + p_.wake_cycles;
      changed = true;
      [[fallthrough]];
    case GateState::kWaking:
      if (c < timer_) return timer_;
      // Powered again; the bypass switches off once no packet is crossing it (a packet is never split
      // between the two paths).
      if (r.holds_packets()) return c + 1;
      r.set_bypass(false);
      enter(GateState::kOn, c);
      ++wakes_;
      changed = true;
      return want_gated_ ? c + 1 : kStable;
  }
  return kStable;
}

}  // namespace gms
