// One direction (request or reply) of a network between the interconnect's edges, whatever its inside: the
// one-hop CrossbarNetwork (noc.type full) or the flit-level FlitNetwork of routers and links (crossbar,
// concentrated, hxbar). The interconnect module (NetworkInterconnect) talks to either through this.
#pragma once
#include <tlm.h>

#include <cstdint>

#include "models/noc/router/power_gate.h"

namespace gms {

class PacketNetwork {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  // What the owning module does at the network's edges (virtual calls, not std::function: they are on
  // the per-packet path).
  class Hooks {
   public:
    // Hand the payload to output `out`'s downstream. True: taken; false: the downstream withholds its END
    // phase and the output stays blocked until unblock(out).
    virtual bool deliver(unsigned out, tlm::tlm_generic_payload& t) = 0;
    // A held arrival at input `in` found buffer space: send the END phase that was withheld.
    virtual void accepted(unsigned in, tlm::tlm_generic_payload& t) = 0;
    // The network has work at this cycle (the owner's event must fire then or earlier).
    virtual void wake(uint64_t cycle) = 0;
    // Power-gateable router g (an H-Xbar MC-router) entered state s.
    virtual void gate_changed(unsigned g, GateState s) {
      (void)g;
      (void)s;
    }
    virtual ~Hooks() = default;
  };

  virtual ~PacketNetwork() = default;
  // Port counts are known after binding.
  virtual void resize(unsigned inputs, unsigned outputs) = 0;
  // A packet with data_bytes of payload arrives at input `in` (at time arrival_ps) bound for `out`.
  // True: buffered. False: no room; it is held (at most one per input) until the accepted hook.
  // `force` buffers it even past the credits: for an upstream that cannot be held (a foreign target that
  // completed with TLM_COMPLETED has no END_RESP to withhold).
  virtual bool arrive(unsigned in, unsigned out, tlm::tlm_generic_payload& t, uint32_t data_bytes,
                      uint64_t arrival_ps, bool force = false) = 0;
  // The downstream of `out` sent the END phase it had withheld.
  virtual void unblock(unsigned out) = 0;
  // Does the work of cycle c; returns the next cycle with work, kNever when idle.
  virtual uint64_t step(uint64_t c) = 0;
  // step(c) for a cycle the owner runs anyway; may skip a cycle without work (same result).
  virtual uint64_t step_if_due(uint64_t c) { return step(c); }
  // True when step() may wait delta cycles (sc_core::wait, an RTL co-simulated arbiter): the owner's
  // WakeScheduler must allow waiting.
  virtual bool waits() const { return false; }
  // Packets accepted and not yet delivered.
  virtual uint64_t in_flight() const = 0;
  // Uncontended cycles from arrival to delivery of a packet of `flits` flits from `in` to `out` (the
  // functional path's latency).
  virtual uint64_t zero_load_cycles(unsigned in, unsigned out, uint32_t flits) const = 0;
};

}  // namespace gms
