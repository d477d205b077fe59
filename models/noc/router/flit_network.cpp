#include "models/noc/router/flit_network.h"

#include <algorithm>
#include <stdexcept>

namespace gms {

FlitNetwork::FlitNetwork(const std::string& name, StatGroup& parent, const NocParams& p, const Clock& clock,
                         Hooks& hooks, Topology topology, VcdWriter* vcd, const std::string& block)
    : p_(p),
      clock_(clock),
      hooks_(hooks),
      topo_(std::move(topology)),
      name_(block.empty() ? name : block + "." + name),
      energy_model_(p.energy, 8 * p.flit_bytes),
      delivery_(parent, name),
      held_count_(delivery_.group.counter(
          "held", "arrivals that found their injection queue full (END phase withheld)", "packets")),
      blocked_count_(delivery_.group.counter("blocked", "deliveries the downstream withheld (output blocked)",
                                             "events")) {
  const size_t nr = topo_.routers.size();
  up_.resize(nr);
  down_.resize(nr);
  for (size_t r = 0; r < nr; ++r) {
    up_[r].assign(topo_.routers[r].inputs, End{false, UINT32_MAX, 0, 0});
    down_[r].assign(topo_.routers[r].outputs, End{false, UINT32_MAX, 0, 0});
  }
  uint32_t max_latency = topo_.eject_latency;
  for (uint32_t k = 0; k < topo_.links.size(); ++k) {
    const Topology::Link& l = topo_.links[k];
    down_[l.from][l.out] = End{true, l.to, l.in, l.latency, k};
    up_[l.to][l.in] = End{true, l.from, l.out, l.latency, 0};
    max_latency = std::max(max_latency, l.latency);
    link_mm_.push_back(l.length_mm);
    link_router_.push_back(l.from);
  }
  // Injectors: one per router input that terminals feed.
  sources_.resize(topo_.sources.size());
  for (uint32_t s = 0; s < topo_.sources.size(); ++s) {
    const Topology::Attach& a = topo_.sources[s];
    End& u = up_[a.router][a.port];
    if (u.to_router && u.index != UINT32_MAX)
      throw std::logic_error("topology " + topo_.kind + ": a terminal feeds a router input a link feeds");
    if (u.index == UINT32_MAX) {
      u = End{false, uint32_t(injectors_.size()), 0, 0, 0};
      Injector inj;
      inj.router = a.router;
      inj.port = a.port;
      inj.link = uint32_t(link_mm_.size());
      link_mm_.push_back(topo_.inject_mm);
      link_router_.push_back(UINT32_MAX);
      inj.credits.assign(p_.router.vcs, int32_t(p_.router.vc_buffer_flits));
      inj.busy.assign(p_.router.vcs, 0);
      injectors_.push_back(inj);
    }
    sources_[s].injector = u.index;
    sources_[s].queue = RingQueue<uint32_t>(p_.input_buffer_flits);
    injectors_[u.index].sources.push_back(s);
  }
  // Sink ports: one per router output that feeds terminals.
  sinks_.resize(topo_.sinks.size());
  for (uint32_t d = 0; d < topo_.sinks.size(); ++d) {
    const Topology::Attach& a = topo_.sinks[d];
    End& dn = down_[a.router][a.port];
    if (dn.to_router && dn.index != UINT32_MAX)
      throw std::logic_error("topology " + topo_.kind +
                             ": a terminal hangs off a router output a link leaves");
    if (dn.index == UINT32_MAX) {
      dn = End{false, uint32_t(sink_ports_.size()), 0, topo_.eject_latency, uint32_t(link_mm_.size())};
      link_mm_.push_back(topo_.eject_mm);
      link_router_.push_back(a.router);
      sink_ports_.push_back(SinkPort{a.router, a.port});
    }
    sinks_[d].port = dn.index;
  }
  // A sink port holds a whole packet: credits for it return only when the downstream takes the packet.
  const uint32_t eject_depth = std::max(p_.router.vc_buffer_flits, p_.max_packet_flits());
  for (size_t r = 0; r < nr; ++r) {
    std::vector<uint32_t> vcs, depth;
    for (const End& dn : down_[r]) {
      vcs.push_back(dn.to_router ? p_.router.vcs : 1);
      depth.push_back(dn.to_router ? p_.router.vc_buffer_flits : eject_depth);
    }
    routers_.push_back(std::make_unique<Router>(topo_.routers[r].name, topo_.routers[r].inputs,
                                                topo_.routers[r].outputs, p_.router, vcs, depth,
                                                topo_.route[r], packet_dest_));
  }
  size_t w = 4;
  while (w < size_t(max_latency) + 2) w <<= 1;
  wheel_.resize(w);
  wheel_mask_ = w - 1;
  busy_routers_.resize(unsigned(nr));
  busy_injectors_.resize(unsigned(injectors_.size()));
  link_flits_.assign(link_mm_.size(), 0);
  gate_of_.assign(nr, -1);
  for (size_t r = 0; r < nr; ++r)
    if (topo_.routers[r].gateable) {
      gate_of_[r] = int32_t(gates_.size());
      gates_.emplace_back(p_.hxbar.gate);
      gate_router_.push_back(uint32_t(r));
      gate_next_.push_back(kNever);
    }
  register_stats();
  attach_probes(vcd);
}

uint64_t FlitNetwork::footprint(const NocParams& p, const Topology& t) {
  // A router's statistics group (5 to 7 formulas with their names and descriptions), its name and probes
  // slot, measured on a network of 1,024 routers.
  constexpr uint64_t kRouterStats = 4096;
  const size_t nr = t.routers.size();
  std::vector<uint8_t> linked_out;  // per router output: 1 when a link leaves it (the downstream has VCs)
  std::vector<size_t> first(nr + 1, 0);
  for (size_t r = 0; r < nr; ++r) first[r + 1] = first[r] + t.routers[r].outputs;
  linked_out.assign(first[nr], 0);
  for (const Topology::Link& l : t.links) linked_out[first[l.from] + l.out] = 1;
  uint64_t b = 0;
  for (size_t r = 0; r < nr; ++r) {
    const Topology::Router& tr = t.routers[r];
    uint64_t out_vcs = 0;
    for (uint32_t o = 0; o < tr.outputs; ++o) out_vcs += linked_out[first[r] + o] ? p.router.vcs : 1;
    b += Router::footprint(tr.inputs, tr.outputs, p.router, out_vcs) + kRouterStats;
    b +=
        (uint64_t(tr.inputs) + tr.outputs) * sizeof(End) + t.sinks.size() * sizeof(uint16_t);  // ends, routes
  }
  uint64_t queue =
      1;  // an injection queue holds input_buffer_flits packets at most (RingQueue: power of two)
  while (queue < p.input_buffer_flits) queue <<= 1;
  b += t.sources.size() * (sizeof(Source) + queue * sizeof(uint32_t) + sizeof(Topology::Attach));
  // Injectors: at most one per source, each with per-VC credits and state.
  b += t.sources.size() * (sizeof(Injector) + p.router.vcs * (sizeof(int32_t) + sizeof(uint8_t)));
  b += t.sinks.size() * (sizeof(Sink) + 8 * sizeof(uint32_t) + sizeof(SinkPort) + sizeof(Topology::Attach));
  // Links (topology, injection, ejection): flits, length, driver, for the energy model.
  const uint64_t links = t.links.size() + t.sources.size() + t.sinks.size();
  b += links * (sizeof(uint64_t) + sizeof(double) + sizeof(uint32_t)) +
       t.links.size() * sizeof(Topology::Link);
  return b;
}

void FlitNetwork::resize(unsigned inputs, unsigned outputs) {
  if (inputs != sources_.size() || outputs != sinks_.size())
    throw std::logic_error("flit network: built for " + std::to_string(sources_.size()) + " x " +
                           std::to_string(sinks_.size()) + " terminals, bound " + std::to_string(inputs) +
                           " x " + std::to_string(outputs));
}

uint64_t FlitNetwork::zero_load_cycles(unsigned in, unsigned out, uint32_t flits) const {
  uint32_t hops;
  uint64_t links;
  topo_.path(in, out, hops, links);
  return uint64_t(hops) * p_.router.pipeline + links + flits;
}

uint32_t FlitNetwork::new_packet() {
  if (!free_packets_.empty()) {
    const uint32_t i = free_packets_.back();
    free_packets_.pop_back();
    return i;
  }
  packets_tab_.emplace_back();
  packet_dest_.push_back(0);
  return uint32_t(packets_tab_.size() - 1);
}

bool FlitNetwork::arrive(unsigned in, unsigned out, tlm::tlm_generic_payload& t, uint32_t data_bytes,
                         uint64_t arrival_ps, bool force) {
  if (in >= sources_.size() || out >= sinks_.size())
    throw std::out_of_range("interconnect: packet from input " + std::to_string(in) + " to output " +
                            std::to_string(out) + " outside the " + std::to_string(sources_.size()) + " x " +
                            std::to_string(sinks_.size()) + " network");
  Source& s = sources_[in];
  const uint32_t n = p_.packet_flits(data_bytes);
  const uint64_t a = arrival_ps / clock_.period_ps();
  ++in_flight_;
  if (!force && (s.has_held || s.queued_flits + n > p_.input_buffer_flits)) {
    if (s.has_held) throw std::logic_error("flit network: a second arrival at a held input");
    s.has_held = true;
    s.held = &t;
    s.held_out = out;
    s.held_bytes = data_bytes;
    s.held_cycle = a;
    ++held_count_;
    return false;
  }
  const uint32_t k = new_packet();
  packets_tab_[k] = Packet{&t, in, out, n, data_bytes, 0, a};
  packet_dest_[k] = out;
  s.queue.push_back(k);
  s.queued_flits += n;
  busy_injectors_.set(s.injector);
  hooks_.wake(std::max(a + 1, last_cycle_ + 1));
  return true;
}

void FlitNetwork::admit_held(uint32_t si) {
  Source& s = sources_[si];
  const uint32_t n = p_.packet_flits(s.held_bytes);
  if (!s.has_held || s.queued_flits + n > p_.input_buffer_flits) return;
  s.has_held = false;
  tlm::tlm_generic_payload* t = s.held;
  const uint32_t k = new_packet();
  packets_tab_[k] = Packet{t, si, s.held_out, n, s.held_bytes, 0, s.held_cycle};
  packet_dest_[k] = s.held_out;
  s.queue.push_back(k);
  s.queued_flits += n;
  busy_injectors_.set(s.injector);
  // Last: the upstream may send its next packet from inside this call (re-entering arrive()).
  hooks_.accepted(si, *t);
}

void FlitNetwork::unblock(unsigned out) {
  Sink& d = sinks_[out];
  d.blocked = false;
  if (!d.done.empty() && !d.listed) {
    d.listed = true;
    ready_sinks_.push_back(out);
  }
  // Unblocked during cycle u: delivers from u + 1, whatever the delta order.
  hooks_.wake(clock_.cycle() + 1);
}

void FlitNetwork::schedule(uint64_t cycle, const Event& e) {
  Event x = e;
  x.cycle = cycle;
  wheel_[cycle & wheel_mask_].push_back(x);
  ++wheel_events_;
}

void FlitNetwork::inject(uint32_t j, uint64_t c) {
  Injector& inj = injectors_[j];
  if (inj.current < 0) {  // a new packet: round-robin among the sources with one ready, then a free VC
    const size_t ns = inj.sources.size();
    int32_t pick = -1;
    for (size_t k = 0; k < ns && pick < 0; ++k) {
      const uint32_t s = inj.sources[(inj.next + k) % ns];
      if (!sources_[s].queue.empty() && packets_tab_[sources_[s].queue.front()].arrival_cycle < c)
        pick = int32_t((inj.next + k) % ns);
    }
    if (pick < 0) {
      bool waiting = false;
      for (uint32_t s : inj.sources) waiting = waiting || !sources_[s].queue.empty();
      if (!waiting) busy_injectors_.clear(j);
      return;
    }
    int32_t vc = -1;
    for (uint32_t v = 0; v < inj.busy.size() && vc < 0; ++v)
      if (!inj.busy[v] && inj.credits[v] > 0) vc = int32_t(v);
    if (vc < 0) return;
    inj.next = uint32_t(pick + 1) % uint32_t(ns);
    inj.current = int32_t(inj.sources[uint32_t(pick)]);
    inj.vc = uint16_t(vc);
    inj.busy[uint32_t(vc)] = 1;
    inj.sent = 0;
  }
  if (inj.credits[inj.vc] <= 0) return;
  const uint32_t si = uint32_t(inj.current);
  Source& s = sources_[si];
  const uint32_t k = s.queue.front();
  const uint32_t n = packets_tab_[k].flits;
  Flit f;
  f.packet = k;
  f.vc = inj.vc;
  f.head = inj.sent == 0;
  f.tail = inj.sent + 1 == n;
  --inj.credits[inj.vc];
  routers_[inj.router]->write(inj.port, f, c);
  ++link_flits_[inj.link];
  if (traced_) probes_[inj.router].in_flits[inj.port].set(routers_[inj.router]->buffered(inj.port));
  busy_routers_.set(inj.router);
  ++inj.sent;
  --s.queued_flits;
  if (f.tail) {
    s.queue.pop_front();
    inj.busy[inj.vc] = 0;
    inj.current = -1;
  }
  if (s.has_held) admit_held(si);  // may re-enter arrive(): no references held past this point
}

void FlitNetwork::handle(const Event& e, uint64_t c) {
  if (e.cycle != c)
    throw std::logic_error("flit network: event for cycle " + std::to_string(e.cycle) + " handled at cycle " +
                           std::to_string(c));
  switch (e.kind) {
    case Event::kFlitToRouter:
      routers_[e.index]->write(e.port, e.flit, c);
      if (traced_) probes_[e.index].in_flits[e.port].set(routers_[e.index]->buffered(e.port));
      busy_routers_.set(e.index);
      break;
    case Event::kFlitToSink: {
      Packet& pk = packets_tab_[e.flit.packet];
      if (sinks_[pk.dest].port != e.index)
        throw std::logic_error("flit network: a packet for output " + std::to_string(pk.dest) +
                               " reached another output port (a bypassed router's wiring does not match)");
      ++pk.received;
      if (!e.flit.tail) break;
      Sink& d = sinks_[pk.dest];
      d.done.push_back(e.flit.packet);
      if (!d.blocked && !d.listed) {
        d.listed = true;
        ready_sinks_.push_back(pk.dest);
      }
      break;
    }
    case Event::kCreditToRouter:
      routers_[e.index]->credit(e.port, e.flit.vc);
      break;
    case Event::kCreditToInjector:
      ++injectors_[e.index].credits[e.flit.vc];
      break;
  }
}

void FlitNetwork::deliver(uint32_t di, uint64_t c) {
  sinks_[di].listed = false;
  while (!sinks_[di].done.empty() && !sinks_[di].blocked) {
    const uint32_t k = sinks_[di].done.front();
    const Packet pk = packets_tab_[k];
    sinks_[di].done.pop_front();
    --in_flight_;
    delivery_.record(pk.flits, p_.ctrl_bytes + pk.bytes, c - pk.arrival_cycle);
    free_packets_.push_back(k);
    const SinkPort& sp = sink_ports_[sinks_[di].port];
    const Event e{Event::kCreditToRouter, sp.router, sp.port, 0, Flit{}};
    for (uint32_t f = 0; f < pk.flits; ++f) schedule(c + 1, e);
    // The downstream has the packet either way; false: it withholds its END phase, and this terminal takes
    // nothing more until unblock(). deliver() may re-enter arrive(): state is re-read through sinks_.
    if (!hooks_.deliver(di, *pk.t)) {
      sinks_[di].blocked = true;
      ++blocked_count_;
    }
  }
}

uint64_t FlitNetwork::step(uint64_t c) {
  last_cycle_ = c;
  std::vector<Event>& slot = wheel_[c & wheel_mask_];
  if (!slot.empty()) {
    std::vector<Event> now;
    now.swap(slot);
    wheel_events_ -= now.size();
    for (const Event& e : now) handle(e, c);
    now.clear();
    if (slot.empty()) slot.swap(now);  // keep the capacity
  }
  if (!ready_sinks_.empty()) {
    std::vector<uint32_t> ready;
    ready.swap(ready_sinks_);
    for (uint32_t d : ready) deliver(d, c);
  }
  busy_injectors_.for_each([this, c](unsigned j) { inject(j, c); });
  busy_routers_.for_each([this, c](unsigned r) {
    departures_.clear();
    Router& rt = *routers_[r];
    rt.step(c, departures_);
    for (const Router::Departure& dep : departures_) {
      const End& dn = down_[r][dep.out];
      ++link_flits_[dn.link];
      schedule(c + 1 + dn.latency, Event{dn.to_router ? Event::kFlitToRouter : Event::kFlitToSink, dn.index,
                                         dn.port, 0, dep.flit});
      const End& up = up_[r][dep.in];
      Flit credit;
      credit.vc = dep.in_vc;
      schedule(c + 1 + up.latency, Event{up.to_router ? Event::kCreditToRouter : Event::kCreditToInjector,
                                         up.index, up.port, 0, credit});
    }
    if (traced_) probe_router(r, departures_.size());
    if (!rt.busy()) busy_routers_.clear(r);
  });
  if (gates_pending_) step_gates(c);
  if (p_.watchdog_cycles && c >= next_watchdog_) check_watchdog(c);
  return next_work(c);
}

void FlitNetwork::request_gate(unsigned g, bool gated) {
  gates_.at(g).request(gated);
  const uint64_t w = std::max(last_cycle_ + 1, clock_.cycle() + 1);
  if (gate_next_[g] == kNever) ++gates_pending_;
  gate_next_[g] = std::min(gate_next_[g], w);
  hooks_.wake(w);
}

void FlitNetwork::step_gates(uint64_t c) {
  for (unsigned g = 0; g < gates_.size(); ++g) {
    if (gate_next_[g] > c) continue;
    const unsigned r = gate_router_[g];
    bool changed = false;
    const uint64_t next = gates_[g].step(c, *routers_[r], changed);
    if (next == PowerGate::kStable) {
      gate_next_[g] = kNever;
      --gates_pending_;
    } else {
      gate_next_[g] = next;
    }
    if (changed) {
      if (traced_) probes_[r].gate.set(uint8_t(gates_[g].state()));
      hooks_.gate_changed(g, gates_[g].state());
    }
  }
}

void FlitNetwork::check_watchdog(uint64_t c) {
  // Checked every eighth of the limit: a stuck flit is reported at most 1/8 late.
  next_watchdog_ = c + std::max<uint64_t>(1, p_.watchdog_cycles / 8);
  busy_routers_.for_each([this, c](unsigned r) {
    uint32_t in, vc;
    if (routers_[r]->stuck_input(c, p_.watchdog_cycles, in, vc)) report_stuck(r, in, vc, c);
  });
}

void FlitNetwork::report_stuck(unsigned r, uint32_t in, uint32_t vc, uint64_t c) const {
  const Router& rt = *routers_[r];
  const Flit& f = *rt.front(in, vc);
  const int32_t o = rt.route_of(in, vc);
  std::string what = std::string(f.head ? "the head" : "a body flit") + " of a packet for output " +
                     std::to_string(packet_dest_[f.packet]);
  if (o >= 0) what += ", routed to output port " + std::to_string(o);
  throw std::runtime_error("NoC watchdog: in network " + name_ + ", router " + rt.name() + " input port " +
                           std::to_string(in) + " VC " + std::to_string(vc) + " holds " + what +
                           " that has not moved for " + std::to_string(p_.watchdog_cycles) +
                           " cycles (noc.watchdog_cycles), at NoC cycle " + std::to_string(c));
}

uint64_t FlitNetwork::now_cycle() const {
  return std::max(last_cycle_, clock_.cycle());
}

uint64_t FlitNetwork::link_flits() const {
  uint64_t n = 0;
  for (uint64_t f : link_flits_) n += f;
  return n;
}

uint64_t FlitNetwork::next_work(uint64_t c) const {
  for (size_t w = 0; w < busy_routers_.words(); ++w)
    if (busy_routers_.word(w)) return c + 1;
  for (size_t w = 0; w < busy_injectors_.words(); ++w)
    if (busy_injectors_.word(w)) return c + 1;
  if (!ready_sinks_.empty()) return c + 1;
  uint64_t next = kNever;
  if (gates_pending_)
    for (uint64_t g : gate_next_) next = std::min(next, std::max(g, c + 1));
  if (wheel_events_ == 0) return next;
  for (uint64_t k = 1; k <= wheel_mask_ + 1; ++k)
    if (!wheel_[(c + k) & wheel_mask_].empty()) return std::min(next, c + k);
  return c + 1;
}

}  // namespace gms
