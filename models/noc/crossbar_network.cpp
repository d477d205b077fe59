#include "models/noc/crossbar_network.h"

#include <algorithm>
#include <stdexcept>

namespace gms {

CrossbarNetwork::CrossbarNetwork(const std::string& name, StatGroup& parent, const NocParams& p,
                                 const Clock& clock, Hooks hooks, sc_core::sc_trace_file* tf,
                                 const std::string& block)
    : p_(p),
      clock_(clock),
      hooks_(std::move(hooks)),
      arbiter_(make_arbiter(p.arbiter)),
      stats_(parent, name,
             name == "req" ? "request network (L1s -> LLC slices)" : "reply network (LLC slices -> L1s)"),
      packets_(stats_.counter("packets", "packets delivered to an output", "packets")),
      flits_(stats_.counter("flits", "flits delivered to an output", "flits")),
      bytes_(stats_.counter("bytes", "bytes delivered (header + data)", "bytes")),
      held_(stats_.counter("held", "arrivals that found their input buffer full (END phase withheld)",
                           "packets")),
      credit_stall_cycles_(
          stats_.counter("credit_stall_cycles",
                         "cycles arrivals were held upstream waiting for input buffer credits", "cycles")),
      blocked_cycles_(
          stats_.counter("blocked_cycles", "cycles outputs waited for a downstream END phase", "cycles")),
      busy_cycles_(stats_.counter("busy_cycles", "output cycles spent sending flits, all outputs", "cycles")),
      latency_(stats_.histogram(
          "latency", "arrival at the input -> delivery downstream (queueing + transfer)", "cycles", 4, 64)) {
  stats_.formula("mean_latency", "mean of latency", "cycles", [this] { return latency_.mean(); });
  stats_.formula("utilization", "busy_cycles / (outputs x elapsed NoC cycles)", "ratio", [this] {
    return out_.empty() ? 0.0 : double(busy_cycles_.value) / double(out_.size() * elapsed_cycles());
  });
  probe_buffered_.attach(tf, block, name + "_buffered_flits");
  probe_delivered_.attach(tf, block, name + "_delivered");
}

void CrossbarNetwork::resize(unsigned inputs, unsigned outputs) {
  in_.assign(inputs, Input{});
  out_.assign(outputs, Output{});
  for (Input& in : in_) in.fifo = RingQueue<Packet>(p_.input_buffer_flits);  // a packet is >= 1 flit
  for (unsigned o = 0; o < outputs; ++o) {
    const std::string n = "out" + std::to_string(o);
    out_[o].busy_cycles =
        &stats_.counter(n + "_busy_cycles", "cycles output " + std::to_string(o) + " sent flits", "cycles");
    const Counter* c = out_[o].busy_cycles;
    stats_.formula(n + "_utilization", "busy cycles / elapsed NoC cycles of output " + std::to_string(o),
                   "ratio", [this, c] { return double(c->value) / double(elapsed_cycles()); });
  }
  busy_in_.resize(inputs);
  busy_out_.resize(outputs);
  arbiter_->resize(inputs, outputs);
  requests_.reserve(inputs);
  grants_.reserve(inputs);
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
  busy_in_.set(i);
  if (!force && in.used_flits + pk.flits > p_.input_buffer_flits) {
    in.has_held = true;
    in.held = pk;
    ++held_;
    if (in.sending_flits) next_at_ = std::min(next_at_, in.busy_until);
    hooks_.wake(std::max(in.busy_until, pk.ready));  // credits return when the packet being sent is out
    return false;
  }
  in.used_flits += pk.flits;
  total_buffered_ += pk.flits;
  in.fifo.push_back(pk);
  if (in.fifo.size() == 1) {  // the new head: its contribution to next_work()
    const Output& o = out_[out];
    if (!o.blocked)
      next_at_ = std::min(next_at_, std::max({pk.ready, in.busy_until, o.busy_until, o.usable_from}));
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
  next_valid_ = false;
  hooks_.wake(now + 1);
}

uint64_t CrossbarNetwork::step(uint64_t c) {
  busy_in_.for_each([this, c](unsigned i) {
    Input& in = in_[i];
    if (in.sending_flits && in.busy_until <= c) return_credits(i, c);  // the check inline: most wait
    if (in.has_held && in.used_flits + in.held.flits <= p_.input_buffer_flits) admit_held(i, c);
  });
  deliver_due(c);
  allocate_switch(c);
  // Probes are written here only: a signal may not be written by two processes (the callers of
  // arrive()) in one delta cycle.
  probe_buffered_.set(total_buffered_);
  probe_delivered_.set(packets_.value);
  return next_work(c);
}

void CrossbarNetwork::return_credits(unsigned i, uint64_t c) {
  Input& in = in_[i];
  if (in.sending_flits == 0 || in.busy_until > c) return;
  in.used_flits -= in.sending_flits;
  total_buffered_ -= in.sending_flits;
  in.sending_flits = 0;
  if (in.fifo.empty() && !in.has_held) busy_in_.clear(i);
}

void CrossbarNetwork::admit_held(unsigned i, uint64_t c) {
  Input& in = in_[i];
  Packet pk = in.held;
  in.has_held = false;
  credit_stall_cycles_ += c - pk.arrival_cycle;
  pk.ready = c + 1;
  in.used_flits += pk.flits;
  total_buffered_ += pk.flits;
  in.fifo.push_back(pk);
  // Last: the upstream may send its next request from inside this call (re-entering arrive()).
  hooks_.accepted(i, *pk.t);
}

void CrossbarNetwork::deliver_due(uint64_t c) {
  busy_out_.for_each([this, c](unsigned o) {
    Output& out = out_[o];
    if (out.blocked || out.usable_from > c || out.pipe.front().ready > c) return;
    const Packet pk = out.pipe.front();
    out.pipe.pop_front();
    if (out.pipe.empty()) busy_out_.clear(o);
    --in_flight_;
    ++packets_;
    flits_ += pk.flits;
    bytes_ += pk.bytes;
    latency_.add(c - pk.arrival_cycle);
    if (!hooks_.deliver(o, *pk.t)) {
      out_[o].blocked = true;
      out_[o].blocked_since = c;
    }
    if (pk.t->has_mm()) pk.t->release();
  });
}

void CrossbarNetwork::allocate_switch(uint64_t c) {
  requests_.clear();
  busy_in_.for_each([this, c](unsigned i) {
    const Input& in = in_[i];
    if (in.fifo.empty() || in.busy_until > c) return;
    const Packet& head = in.fifo.front();
    const Output& out = out_[head.out];
    if (head.ready > c || out.busy_until > c || out.blocked || out.usable_from > c) return;
    requests_.push_back({i, head.out});
  });
  if (requests_.empty()) return;
  arbiter_->allocate(requests_, grants_);
  for (const SwitchRequest& g : grants_) {
    Input& in = in_[g.input];
    Output& out = out_[g.output];
    Packet pk = in.fifo.front();
    in.fifo.pop_front();
    in.busy_until = c + pk.flits;
    in.sending_flits = pk.flits;
    out.busy_until = c + pk.flits;
    *out.busy_cycles += pk.flits;
    busy_cycles_ += pk.flits;
    pk.ready = c + p_.latency + pk.flits - 1;
    out.pipe.push_back(pk);
    busy_out_.set(g.output);
  }
}

uint64_t CrossbarNetwork::next_work(uint64_t c) {
  uint64_t next = kNever;
  auto consider = [&next](uint64_t at) { next = std::min(next, at); };
  busy_out_.for_each([&](unsigned o) {
    const Output& out = out_[o];
    if (!out.blocked) consider(std::max(out.pipe.front().ready, out.usable_from));
  });
  busy_in_.for_each([&](unsigned i) {
    const Input& in = in_[i];
    if (!in.fifo.empty()) {
      const Packet& head = in.fifo.front();
      const Output& out = out_[head.out];
      if (!out.blocked)  // else unblock() wakes
        consider(std::max({head.ready, in.busy_until, out.busy_until, out.usable_from}));
    }
    if (in.has_held && in.sending_flits) consider(in.busy_until);
  });
  next_at_ = next;
  next_valid_ = true;
  return next == kNever ? kNever : std::max(next, c + 1);
}

}  // namespace gms
