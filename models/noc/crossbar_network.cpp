#include "models/noc/crossbar_network.h"

#include <algorithm>
#include <stdexcept>

#include "models/common/payload_pool.h"
#include "models/common/prefetch.h"

namespace gms {

CrossbarNetwork::CrossbarNetwork(const std::string& name, StatGroup& parent, const NocParams& p,
                                 const Clock& clock, Hooks& hooks, VcdWriter* tf, const std::string& block,
                                 const RtlClock* rtl_clock)
    : p_(p),
      clock_(clock),
      hooks_(hooks),
      arbiter_(make_arbiter(p.arbiter, {name + "_arbiter", tf, block + "." + name + "_arbiter", rtl_clock})),
      delivery_(parent, name),
      held_count_(delivery_.group.counter(
          "held", "arrivals that found their input buffer full (END phase withheld)", "packets")),
      credit_stall_cycles_(delivery_.group.counter(
          "credit_stall_cycles", "cycles arrivals were held upstream waiting for input buffer credits",
          "cycles")),
      blocked_cycles_(delivery_.group.counter("blocked_cycles",
                                              "cycles outputs waited for a downstream END phase", "cycles")),
      busy_cycles_(
          delivery_.group.counter("busy_cycles", "output cycles spent sending flits, all outputs", "cycles")),
      tf_(tf),
      scope_(block + "." + name) {
  delivery_.group.formula("utilization", "busy_cycles / (outputs x elapsed NoC cycles)", "ratio", [this] {
    return out_.empty() ? 0.0 : double(busy_cycles_.value) / double(out_.size() * elapsed_cycles());
  });
  probe_buffered_.attach(tf, block, name + "_buffered_flits");
  probe_delivered_.attach(tf, block, name + "_delivered");
}

void CrossbarNetwork::attach_port_probes() {
  if (!tf_) return;
  if (traced_) {  // declared once: a VCD takes no declarations once the run has started
    if (probe_in_.size() != in_.size() || probe_out_grants_.size() != out_.size())
      throw std::logic_error("interconnect " + scope_ + ": traced ports resized");
    return;
  }
  traced_ = true;
  probe_in_.resize(in_.size());
  for (unsigned i = 0; i < in_.size(); ++i)
    probe_in_[i].attach(tf_, scope_, "in" + std::to_string(i) + "_flits");
  probe_out_grants_.resize(out_.size());
  out_grants_.assign(out_.size(), 0);
  for (unsigned o = 0; o < out_.size(); ++o)
    probe_out_grants_[o].attach(tf_, scope_, "out" + std::to_string(o) + "_grants");
}

uint64_t CrossbarNetwork::footprint(const NocParams& p, unsigned inputs, unsigned outputs) {
  // Per output: a counter and a formula with their names and descriptions, measured.
  constexpr uint64_t kOutputStats = 512;
  uint64_t fifo = 1;  // a RingQueue rounds its capacity up to a power of two
  while (fifo < p.input_buffer_flits) fifo <<= 1;
  const uint64_t in_words = (uint64_t(inputs) + 63) / 64;
  uint64_t b = uint64_t(inputs) * (sizeof(Input) + fifo * sizeof(Packet) + sizeof(SwitchRequest));
  b += uint64_t(outputs) * (sizeof(Output) + 8 * sizeof(Packet) + kOutputStats);
  b += (uint64_t(outputs) + 1) * in_words * sizeof(uint64_t) +
       uint64_t(outputs) * 2 * sizeof(uint64_t);                                 // arbiter
  return b + 4 * (in_words + (uint64_t(outputs) + 63) / 64) * sizeof(uint64_t);  // active sets
}

void CrossbarNetwork::resize(unsigned inputs, unsigned outputs) {
  in_.assign(inputs, Input{});
  out_.assign(outputs, Output{});
  for (Input& in : in_) in.fifo = RingQueue<Packet>(p_.input_buffer_flits);  // a packet is >= 1 flit
  for (unsigned o = 0; o < outputs; ++o) {
    const std::string n = "out" + std::to_string(o);
    out_[o].busy_cycles = &delivery_.group.counter(
        n + "_busy_cycles", "cycles output " + std::to_string(o) + " sent flits", "cycles");
    const Counter* c = out_[o].busy_cycles;
    delivery_.group.formula(n + "_utilization",
                            "busy cycles / elapsed NoC cycles of output " + std::to_string(o), "ratio",
                            [this, c] { return double(c->value) / double(elapsed_cycles()); });
  }
  for (ActiveSet* s : {&queued_, &sending_, &held_}) s->resize(inputs);
  piped_.resize(outputs);
  arbiter_->resize(inputs, outputs);
  grants_.reserve(inputs);
  attach_port_probes();
}

bool CrossbarNetwork::arrive(unsigned i, unsigned out, tlm::tlm_generic_payload& t, uint32_t data_bytes,
                             uint64_t arrival_ps, bool force) {
  if (out >= out_.size())
    throw std::out_of_range("interconnect: route to output " + std::to_string(out) + " of " +
                            std::to_string(out_.size()));
  Input& in = in_[i];
  Packet pk;
  pk.t = &t;
  pk.out = out;
  pk.bytes = p_.ctrl_bytes + data_bytes;
  pk.flits = p_.packet_flits(data_bytes);
  pk.arrival_cycle = arrival_ps / clock_.period_ps();
  pk.ready = pk.arrival_cycle + 1;
  if (pk.flits > p_.input_buffer_flits)
    throw std::runtime_error("interconnect: a " + std::to_string(pk.flits) + "-flit packet exceeds the " +
                             std::to_string(p_.input_buffer_flits) + "-flit input buffer");
  if (in.has_held)
    throw std::logic_error("interconnect: arrival while an earlier one is held at the same input");
  if (t.has_mm()) t.acquire();  // we hold the payload while it is inside the network
  ++in_flight_;
  return_credits(i, pk.arrival_cycle);
  if (!force && in.used_flits + pk.flits > p_.input_buffer_flits) {
    in.has_held = true;
    in.held = pk;
    held_.set(i);
    ++held_count_;
    if (in.sending_flits) next_at_ = std::min(next_at_, in.busy_until);
    hooks_.wake(std::max(in.busy_until, pk.ready));  // credits return when the packet being sent is out
    return false;
  }
  in.used_flits += pk.flits;
  total_buffered_ += pk.flits;
  in.fifo.push_back(pk);
  if (traced_) probe_in_[i].set(in.used_flits);
  if (in.fifo.size() == 1) {  // the new head: its contribution to next_work()
    queued_.set(i);
    new_head(in);
    next_at_ = std::min(next_at_, std::max(in.compete_at, out_[out].free_at));
  }
  hooks_.wake(pk.ready);
  return true;
}

void CrossbarNetwork::unblock(unsigned o) {
  Output& out = out_[o];
  if (!out.blocked) return;  // END phase that came back inside the delivering call itself
  out.blocked = false;
  const uint64_t now = clock_.cycle();
  blocked_cycles_ += now - out.blocked_since;
  out.usable_from = now + 1;
  out.open_at = out.usable_from;
  out.free_at = std::max(out.busy_until, out.open_at);
  if (!out.pipe.empty()) {
    new_front(out);
    deliver_min_ = std::min(deliver_min_, out.deliver_at);
  }
  next_valid_ = false;
  hooks_.wake(now + 1);
}

uint64_t CrossbarNetwork::step(uint64_t c) {
  credits_and_held(c);
  deliver_due(c);
  allocate_switch(c);
  // Probes are written here only: a signal may not be written by two processes (the callers of
  // arrive()) in one delta cycle.
  probe_buffered_.set(total_buffered_);
  probe_delivered_.set(delivery_.packets.value);
  return next_work(c);
}

void CrossbarNetwork::credits_and_held(uint64_t c) {
  // In input order, as the accepted hooks go upstream. Only an input whose credits return can admit its
  // held arrival: buffer space frees at no other time.
  if (credit_min_ > c) return;
  credit_min_ = kNever;
  sending_.for_each([this, c](unsigned i) {
    Input& in = in_[i];
    if (in.busy_until > c) {
      credit_min_ = std::min(credit_min_, in.busy_until);
      return;
    }
    return_credits(i, c);
    if (in.has_held && in.used_flits + in.held.flits <= p_.input_buffer_flits) admit_held(i, c);
  });
}

void CrossbarNetwork::admit_held(unsigned i, uint64_t c) {
  Input& in = in_[i];
  Packet pk = in.held;
  in.has_held = false;
  held_.clear(i);
  credit_stall_cycles_ += c - pk.arrival_cycle;
  pk.ready = c + 1;
  in.used_flits += pk.flits;
  total_buffered_ += pk.flits;
  in.fifo.push_back(pk);
  if (traced_) probe_in_[i].set(in.used_flits);
  if (in.fifo.size() == 1) {
    queued_.set(i);
    new_head(in);
  }
  // Last: the upstream may send its next request from inside this call (re-entering arrive()).
  hooks_.accepted(i, *pk.t);
}

void CrossbarNetwork::deliver_due(uint64_t c) {
  // In output order, as the deliver hooks go downstream; at most one packet per output and cycle. The
  // walk also recomputes deliver_min_ (an unblock() from inside a deliver hook lowers it as usual).
  if (deliver_min_ > c) return;
  deliver_min_ = kNever;
  // First start loading every due payload's header (deliver() reads its memory-manager line, the target
  // its MemReq; cold with thousands of packets in flight): the misses overlap instead of coming one per
  // delivery.
  piped_.for_each([this, c](unsigned o) {
    if (out_[o].deliver_at <= c) PayloadPool::prefetch_header(out_[o].pipe.front().t);
  });
  piped_.for_each([this, c](unsigned o) {
    if (out_[o].deliver_at <= c) deliver(o, c);
    if (piped_.test(o)) deliver_min_ = std::min(deliver_min_, out_[o].deliver_at);
  });
}

void CrossbarNetwork::deliver(unsigned o, uint64_t c) {
  Output& out = out_[o];
  const Packet pk = out.pipe.front();
  out.pipe.pop_front();
  if (out.pipe.empty())
    piped_.clear(o);
  else
    new_front(out);
  // Read before the deliver hook: the payload's memory-manager line is apart from the fields the hook
  // reads, and cold with thousands of packets in flight; the load then overlaps the hook's work.
  const bool held = pk.t->has_mm();
  --in_flight_;
  delivery_.record(pk.flits, pk.bytes, c - pk.arrival_cycle);
  if (!hooks_.deliver(o, *pk.t)) {
    out.blocked = true;
    out.blocked_since = c;
    out.open_at = out.free_at = out.deliver_at = kNever;
  }
  if (held) pk.t->release();
}

void CrossbarNetwork::allocate_switch(uint64_t c) {
  // Requests in input order: the arbiter grants outputs in order of first request. Inputs still sending
  // are left out by mask: after credits_and_held(c), sending_ holds exactly the inputs busy after c.
  for_each_bit(
      queued_.words(), [this](size_t w) { return queued_.word(w) & ~sending_.word(w); },
      [this, c](unsigned i) {
        const Input& in = in_[i];
        if (in.compete_at <= c && out_[in.target].free_at <= c) arbiter_->request(i, in.target);
      });
  if (!arbiter_->has_requests()) return;
  arbiter_->grant(grants_);
  for (const SwitchRequest& g : grants_) grant(g.input, g.output, c);
}

void CrossbarNetwork::grant(unsigned i, unsigned o, uint64_t c) {
  Input& in = in_[i];
  Output& out = out_[o];
  Packet pk = in.fifo.front();
  in.fifo.pop_front();
  in.busy_until = c + pk.flits;
  in.sending_flits = pk.flits;
  if (pk.flits) {
    sending_.set(i);
    credit_min_ = std::min(credit_min_, in.busy_until);
  }
  out.busy_until = c + pk.flits;
  out.free_at = std::max(out.busy_until, out.open_at);
  if (in.fifo.empty())
    queued_.clear(i);
  else
    new_head(in);
  *out.busy_cycles += pk.flits;
  busy_cycles_ += pk.flits;
  if (traced_) probe_out_grants_[o].set(++out_grants_[o]);
  pk.ready = c + p_.latency + pk.flits - 1;
  out.pipe.push_back(pk);
  if (out.pipe.size() == 1) {
    piped_.set(o);
    new_front(out);
    deliver_min_ = std::min(deliver_min_, out.deliver_at);
  }
}

uint64_t CrossbarNetwork::next_work(uint64_t c) {
  uint64_t next = earliest_work(c + 1);
  if (next != kNever) next = std::max(next, c + 1);
  next_at_ = next;
  next_valid_ = true;
  return next;
}

uint64_t CrossbarNetwork::earliest_work(uint64_t soonest) const {
  // Nothing can happen before `soonest`, so the first port with work then ends the search: a busy
  // network rarely looks past its first port or two.
  uint64_t next = deliver_min_;
  if (next <= soonest) return next;
  for (size_t w = 0; w < queued_.words(); ++w)
    for (uint64_t bits = queued_.word(w); bits; bits &= bits - 1) {
      const Input& in = in_[w * 64 + unsigned(__builtin_ctzll(bits))];
      next = std::min(next, std::max(in.compete_at, out_[in.target].free_at));
      if (next <= soonest) return next;
    }
  // A held arrival waits for the credits of the packet being sent.
  for (size_t w = 0; w < held_.words(); ++w)
    for (uint64_t bits = held_.word(w) & sending_.word(w); bits; bits &= bits - 1)
      next = std::min(next, in_[w * 64 + unsigned(__builtin_ctzll(bits))].busy_until);
  return next;
}

}  // namespace gms
