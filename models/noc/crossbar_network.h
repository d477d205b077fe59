// One direction of a crossbar (request or reply network): input buffers with credits, per-port
// serialization of multi-flit packets, switch allocation through an Arbiter, a fixed pipeline to the
// outputs, and outputs that stall while their downstream withholds END_REQ / END_RESP.
//
// Timing (NoC cycles; docs/blocks/noc.md): a packet of n flits arriving at time t is buffered during
// cycle floor(t/P) and competes from the next cycle on. When it wins at cycle w it occupies its input and
// its output for cycles w .. w+n-1 (its flits leave the input buffer, returning their credits, at w+n), and
// it is handed downstream at cycle w + latency + n - 1 (its tail flit's arrival). Uncontended, that is
// floor(t/P) + latency + n.
//
// Cost: a cycle walks bitsets of the ports with work (ActiveSet), never all ports, and stops looking for
// the next cycle with work as soon as it finds the next cycle itself.
#pragma once
#include <tlm.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/common/clock.h"
#include "models/common/ring_queue.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/noc/active_set.h"
#include "models/noc/arbiter.h"
#include "models/noc/delivery_stats.h"
#include "models/noc/noc_params.h"
#include "models/noc/packet_network.h"

namespace gms {

class CrossbarNetwork final : public PacketNetwork {
 public:
  using Hooks = PacketNetwork::Hooks;

  // `name` is the statistics group under `parent` ("req" / "resp"); probes attach to `tf` when non-null.
  // Made during elaboration (an RTL arbiter is a child module "<name>_arbiter" of the module being built,
  // clocked by `rtl_clock`).
  CrossbarNetwork(const std::string& name, StatGroup& parent, const NocParams& p, const Clock& clock,
                  Hooks& hooks, VcdWriter* tf, const std::string& block, const RtlClock* rtl_clock = nullptr);
  CrossbarNetwork(const CrossbarNetwork&) = delete;
  CrossbarNetwork& operator=(const CrossbarNetwork&) = delete;

  // The bytes resize(inputs, outputs) allocates: input buffers (input_buffer_flits packets each), output
  // pipes, arbiter state and per-output statistics. For the memory budget (models/system/memory_budget.h).
  static uint64_t footprint(const NocParams& p, unsigned inputs, unsigned outputs);

  // Port counts are known after binding; also registers the per-output statistics.
  void resize(unsigned inputs, unsigned outputs) override;
  unsigned inputs() const { return unsigned(in_.size()); }
  unsigned outputs() const { return unsigned(out_.size()); }

  // A packet with data_bytes of payload arrives at input `in` (at time arrival_ps) bound for `out`.
  // True: it is in the buffer. False: no room; it is held (at most one per input) until the accepted hook.
  // `force` buffers it even past the credits: for an upstream that cannot be held (a foreign target that
  // completed with TLM_COMPLETED has no END_RESP to withhold).
  bool arrive(unsigned in, unsigned out, tlm::tlm_generic_payload& t, uint32_t data_bytes,
              uint64_t arrival_ps, bool force = false) override;
  // The downstream of `out` sent the END phase it had withheld.
  void unblock(unsigned out) override;
  // Does the work of cycle c; returns the next cycle with work, kNever when idle.
  uint64_t step(uint64_t c) override;
  // step(c) for a cycle the owner runs anyway: skipped (same result) when the network has no work at c.
  uint64_t step_if_due(uint64_t c) override {
    if (!next_valid_ || next_at_ <= c || probe_buffered_.on()) return step(c);
    return next_at_ == kNever ? kNever : std::max(next_at_, c + 1);
  }

  uint32_t buffered_flits(unsigned in) const { return in_[in].used_flits; }
  uint64_t in_flight() const override { return in_flight_; }
  bool waits() const override { return arbiter_->waits(); }
  // One hop: `latency` pipeline cycles and the packet's flits (the class comment's timing).
  uint64_t zero_load_cycles(unsigned, unsigned, uint32_t flits) const override { return p_.latency + flits; }

 private:
  struct Packet {
    tlm::tlm_generic_payload* t = nullptr;
    uint32_t out = 0;
    uint32_t flits = 0;
    uint32_t bytes = 0;
    uint64_t arrival_cycle = 0;  // cycle it reached the input (a held packet keeps it: stalls count)
    uint64_t ready = 0;          // input FIFO: first cycle it may compete; output pipe: cycle it is delivered
  };
  // The fields a cycle tests are cached as single times (compete_at, deliver_at, free_at), so each test is
  // one compare; they are updated where the state they summarise changes.
  struct Input {
    RingQueue<Packet> fifo;
    uint32_t used_flits = 0;     // buffered, including the packet being sent
    uint32_t sending_flits = 0;  // flits of the packet being sent; their credits return at busy_until
    uint64_t busy_until = 0;     // first cycle the input can start another packet
    uint64_t compete_at = 0;     // with a head: max(head.ready, busy_until)
    uint32_t target = 0;         // with a head: head.out
    bool has_held = false;
    Packet held;
  };
  struct Output {
    RingQueue<Packet> pipe;    // won, traversing the switch and link, in delivery order
    uint64_t busy_until = 0;   // first cycle the output can start another packet
    bool blocked = false;      // the downstream withholds END_REQ / END_RESP
    uint64_t usable_from = 0;  // unblocked during cycle u: usable from u+1, whatever the delta order
    uint64_t open_at = 0;      // usable_from; kNever while blocked
    uint64_t free_at = 0;      // first cycle it may be granted: max(busy_until, open_at)
    uint64_t deliver_at = 0;   // with a pipe: max(pipe.front().ready, open_at)
    uint64_t blocked_since = 0;
    Counter* busy_cycles = nullptr;
  };

  void attach_port_probes();
  void credits_and_held(uint64_t c);
  void admit_held(unsigned i, uint64_t c);
  void deliver_due(uint64_t c);
  void deliver(unsigned o, uint64_t c);
  void allocate_switch(uint64_t c);
  void grant(unsigned i, unsigned o, uint64_t c);
  uint64_t next_work(uint64_t c);
  uint64_t earliest_work(uint64_t soonest) const;
  void return_credits(unsigned i, uint64_t c) {
    Input& in = in_[i];
    if (in.sending_flits == 0 || in.busy_until > c) return;
    in.used_flits -= in.sending_flits;
    total_buffered_ -= in.sending_flits;
    in.sending_flits = 0;
    sending_.clear(i);
    if (traced_) probe_in_[i].set(in.used_flits);
  }
  // Refresh the cached times after the head / front or the port's own times changed.
  static void new_head(Input& in) {
    in.compete_at = std::max(in.fifo.front().ready, in.busy_until);
    in.target = in.fifo.front().out;
  }
  static void new_front(Output& out) { out.deliver_at = std::max(out.pipe.front().ready, out.open_at); }
  uint64_t elapsed_cycles() const { return std::max<uint64_t>(1, Clock::now_ps() / clock_.period_ps()); }

  const NocParams& p_;
  const Clock& clock_;
  Hooks& hooks_;
  std::unique_ptr<Arbiter> arbiter_;
  std::vector<Input> in_;
  std::vector<Output> out_;
  // Ports with work, by kind: a cycle walks only the members of the sets it needs.
  ActiveSet queued_;                   // inputs with buffered packets not yet granted
  ActiveSet sending_;                  // inputs whose last packet's credits have not returned
  ActiveSet held_;                     // inputs holding an arrival that did not fit
  ActiveSet piped_;                    // outputs with packets in their pipeline
  std::vector<SwitchRequest> grants_;  // reused every cycle
  // Earliest deliver_at over outputs with a pipeline (exact), and a lower bound on the cycle the next
  // credits return: a cycle before them skips that walk.
  uint64_t deliver_min_ = kNever;
  uint64_t credit_min_ = kNever;
  uint64_t in_flight_ = 0;
  uint32_t total_buffered_ = 0;
  // The earliest cycle with work (next_work() stores at least c + 1: nothing earlier can be asked), kept
  // up to date by arrive(); unblock() invalidates it. A cycle before it has nothing to do: step_if_due()
  // skips it. (Credits that return in a skipped cycle return at the next step or arrival, as they would.)
  uint64_t next_at_ = kNever;
  bool next_valid_ = false;

  DeliveryStats delivery_;
  Counter& held_count_;
  Counter& credit_stall_cycles_;
  Counter& blocked_cycles_;
  Counter& busy_cycles_;
  Probe<uint32_t> probe_buffered_;
  Probe<uint64_t> probe_delivered_;
  // Per port, declared by resize() when the counts are known: input buffer occupancy (flits, the packet
  // being sent included, as a router's in<i>_flits) and packets granted to each output so far.
  VcdWriter* tf_;
  std::string scope_;  // "<block>.<name>": xbar.req, xbar.resp
  bool traced_ = false;
  std::vector<Probe<uint32_t>> probe_in_;
  std::vector<Probe<uint64_t>> probe_out_grants_;
  std::vector<uint64_t> out_grants_;  // only while traced
};

}  // namespace gms
