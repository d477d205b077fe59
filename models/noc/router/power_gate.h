// Power gating of one H-Xbar MC-router (paper 004 section 4.2): in private LLC mode an MC-router is
// bypassed (input port i wired straight to output port i) and its power is switched off; in shared mode
// it routes as a full router again. The state machine (docs/blocks/noc.md "Gating"):
//
//   on --gate request--> draining --router empty--> (bypass on, gate_cycles) --> gated
//   gated --wake request--> waking (bypass still on, wake_cycles) --bypass path empty--> on (bypass off)
//
// A gate request with flits inside completes only after they leave (the router keeps routing while it
// drains); the bypass mux is outside the gated domain, so flits pass through it while the router powers
// down or up. The router draws static power in every state but gated. Requests only set the wanted state:
// a wake during draining cancels the gate if the bypass is not engaged yet, otherwise the gate completes
// and the router wakes at once.
#pragma once
#include <cstdint>

namespace gms {

class Router;

enum class GateState : uint8_t { kOn = 0, kDraining = 1, kGated = 2, kWaking = 3 };
const char* to_string(GateState s);

struct GateParams {
  uint32_t gate_cycles = 20;  // power-down after the router drained ("a couple tens of cycles", 004 s4.2)
  uint32_t wake_cycles = 20;  // power-up before the router may route again
};

class PowerGate {
 public:
  static constexpr uint64_t kStable = UINT64_MAX;

  explicit PowerGate(const GateParams& p) : p_(p) {}

  GateState state() const { return state_; }
  bool wants_gated() const { return want_gated_; }
  // Sets the wanted state; the change happens in step().
  void request(bool gated) { want_gated_ = gated; }
  // Advances the machine at cycle c, switching r's bypass; returns the next cycle it must be stepped at
  // (c + 1 while it waits for the router to empty), or kStable when it has reached the wanted state.
  // Returns true in `changed` when the state changed this call.
  uint64_t step(uint64_t c, Router& r, bool& changed);

  // Cycles spent gated up to cycle `now` (the router drew no static power then).
  uint64_t gated_cycles(uint64_t now) const {
    return gated_ + (state_ == GateState::kGated ? now - since_ : 0);
  }
  uint64_t gate_count() const { return gates_; }  // completed on -> gated transitions
  uint64_t wake_count() const { return wakes_; }  // completed gated -> on transitions

 private:
  void enter(GateState s, uint64_t c);

  GateParams p_;
  GateState state_ = GateState::kOn;
  bool want_gated_ = false;
  bool powering_down_ = false;  // draining: the router is empty, the bypass is on, the timer runs
  uint64_t timer_ = 0;          // cycle the running power-down or power-up completes
  uint64_t since_ = 0;          // cycle the current state began
  uint64_t gated_ = 0;          // gated cycles of earlier gated periods
  uint64_t gates_ = 0, wakes_ = 0;
};

}  // namespace gms
