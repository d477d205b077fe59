// The control interface of the H-Xbar's MC-routers (paper 004 section 4.2), for the adaptive LLC: gate
// (bypass and power off) or wake MC-router j, which stands for the request and the reply network's
// MC-router of memory controller j together. The state machine is PowerGate's (router/power_gate.h);
// state(j) reports the pair: on or gated when both are, otherwise the one still in transition.
#pragma once
#include <functional>

#include "models/noc/router/power_gate.h"

namespace gms {

class McRouterControl {
 public:
  // Called when MC-router j's combined state changes (in the NoC's process, at the cycle it happens).
  using Listener = std::function<void(unsigned mc, GateState s)>;

  virtual ~McRouterControl() = default;
  virtual unsigned mc_routers() const = 0;
  // Gate: the router drains (keeps routing until empty), engages the bypass, powers down. Wake: powers
  // up, then routes again once no packet is crossing the bypass. Either may be called in any state.
  virtual void gate(unsigned mc) = 0;
  virtual void wake(unsigned mc) = 0;
  virtual GateState state(unsigned mc) const = 0;
  virtual void set_listener(Listener l) = 0;
};

}  // namespace gms
