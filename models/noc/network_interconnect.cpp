#include "models/noc/network_interconnect.h"

#include <algorithm>
#include <stdexcept>

#include "models/common/mem_req.h"
#include "models/noc/crossbar_network.h"
#include "models/noc/packet_size.h"
#include "models/noc/router/topology.h"

namespace gms {

namespace {
// Arrival time of a call with annotated delay d (GPUMemSys blocks pass zero; foreign ones may not).
uint64_t arrival_ps(const sc_core::sc_time& d) {
  if (d == sc_core::SC_ZERO_TIME) return Clock::now_ps();
  return Clock::now_ps() + uint64_t(d.to_seconds() * 1e12 + 0.5);
}
}  // namespace

NetworkInterconnect::NetworkInterconnect(sc_core::sc_module_name name, const NocParams& p, RouteFn route,
                                         const BlockEnv& env, unsigned slices_per_mc)
    : Interconnect(name, std::move(route)),
      p_(p),
      clock_(p.clock_mhz),
      stats_(*env.stats, basename(),
             "interconnect between the L1s and the LLC slices (noc.type " + p.type + ")"),
      requests_(stats_.counter("requests", "requests received from the L1s", "requests")),
      responses_(stats_.counter("responses", "responses delivered to the L1s", "responses")),
      functional_(stats_.counter("functional", "b_transport calls forwarded", "calls")),
      active_cycles_(stats_.counter("active_cycles",
                                    "NoC cycles in which the crossbar process ran (has work)", "cycles")),
      env_(env),
      tf_(env.trace_file(basename())),
      slices_per_mc_(slices_per_mc) {
  wake_event_.bind(
      env.wake, [](void* o) { static_cast<NetworkInterconnect*>(o)->run(); }, this);
  // The one-hop networks exist from the start: their VCD probes must be declared before any value changes.
  // Router networks need the terminal counts, known at end_of_elaboration.
  if (p_.type == "full") {
    if (p_.arbiter == "rtl") {
      // One clock and reset for both networks' Verilated arbiters; free-running, so the scheduler counts it
      // as background activity (the run loop tells it from the model's). Its own trace selection: a clock
      // in a long run's VCD is two changes per NoC cycle.
      const std::string clk = std::string(basename()) + "_rtl_clk";
      rtl_clock_ = std::make_unique<RtlClock>(clk.c_str(), clock_.period_ps(), env.trace_file(clk), clk);
      wake_event_.scheduler().add_background_clock();
    }
    req_ = std::make_unique<CrossbarNetwork>("req", stats_, p_, clock_, req_hooks_, tf_, basename(),
                                             rtl_clock_.get());
    resp_ = std::make_unique<CrossbarNetwork>("resp", stats_, p_, clock_, resp_hooks_, tf_, basename(),
                                              rtl_clock_.get());
    // An RTL arbiter waits delta cycles for its Verilated model inside step(): the scheduler runs us from
    // a thread then (the other blocks of the batch wait with us, so the order of everything is kept).
    if (req_->waits() || resp_->waits()) wake_event_.scheduler().allow_waiting();
  }
}

bool NetworkInterconnect::RequestHooks::deliver(unsigned out, Payload& t) {
  x.completing_ = &t;
  const bool taken = x.down_ports_[out].send(t);
  x.completing_ = nullptr;
  return taken;
}

bool NetworkInterconnect::ReplyHooks::deliver(unsigned out, Payload& t) {
  ++x.responses_;
  return x.up_ports_[out].respond(t);
}

void NetworkInterconnect::end_of_elaboration() {
  const unsigned n_up = up.size(), n_down = down.size();
  up_ports_.clear();
  down_ports_.clear();
  up_ports_.reserve(n_up);
  down_ports_.reserve(n_down);
  for (unsigned i = 0; i < n_up; ++i)
    up_ports_.emplace_back([this, i](Payload& t, tlm::tlm_phase& ph,
                                     sc_core::sc_time& d) { return up[int(i)]->nb_transport_bw(t, ph, d); },
                           [this, i](Payload& t, const sc_core::sc_time& d) { return on_request(i, t, d); },
                           [this, i] { resp_->unblock(i); });
  for (unsigned j = 0; j < n_down; ++j)
    down_ports_.emplace_back(
        [this, j](Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
          return down[int(j)]->nb_transport_fw(t, ph, d);
        },
        [this, j] { req_->unblock(j); }, [this, j](Payload& t) { return on_response(j, t); });
  if (!req_) {
    req_ = make_network("req", req_hooks_, false);
    resp_ = make_network("resp", resp_hooks_, true);
  }
  req_->resize(n_up, n_down);
  resp_->resize(n_down, n_up);
  if (FlitNetwork* rq = request_flits()) {
    FlitNetwork* rs = reply_flits();
    auto sum = [rq, rs](double (*part)(const FlitNetwork::Energy&)) {
      return [rq, rs, part] {
        const uint64_t now = Clock::now_ps() / rq->clock_period_ps();
        return (part(rq->energy(now)) + part(rs->energy(now))) * 1e-3;
      };
    };
    stats_.formula("energy_nj", "NoC energy, both networks (dynamic + static)", "nJ",
                   sum([](const FlitNetwork::Energy& e) { return e.total(); }));
    stats_.formula("energy_dynamic_nj", "NoC dynamic energy, both networks", "nJ",
                   sum([](const FlitNetwork::Energy& e) { return e.dynamic(); }));
    stats_.formula("energy_static_nj", "NoC static energy (router leakage while not gated), both networks",
                   "nJ", sum([](const FlitNetwork::Energy& e) { return e.leakage; }));
    reported_.assign(rq->gates(), GateState::kOn);
  }
}

McRouterControl* NetworkInterconnect::mc_router_control() {
  FlitNetwork* rq = request_flits();
  return rq && rq->gates() ? this : nullptr;
}

unsigned NetworkInterconnect::mc_routers() const {
  const auto* rq = dynamic_cast<const FlitNetwork*>(req_.get());
  return rq ? rq->gates() : 0;
}

void NetworkInterconnect::gate(unsigned mc) {
  if (mc >= mc_routers())
    throw std::out_of_range(std::string(name()) + ": no MC-router " + std::to_string(mc));
  request_flits()->request_gate(mc, true);
  reply_flits()->request_gate(mc, true);
}

void NetworkInterconnect::wake(unsigned mc) {
  if (mc >= mc_routers())
    throw std::out_of_range(std::string(name()) + ": no MC-router " + std::to_string(mc));
  request_flits()->request_gate(mc, false);
  reply_flits()->request_gate(mc, false);
}

GateState NetworkInterconnect::state(unsigned mc) const {
  const auto* rq = dynamic_cast<const FlitNetwork*>(req_.get());
  const auto* rs = dynamic_cast<const FlitNetwork*>(resp_.get());
  const GateState a = rq->gate_state(mc), b = rs->gate_state(mc);
  if (a == b) return a;
  // In transition: report the side that is not done (draining before waking: a gate is still pending).
  for (GateState s : {GateState::kDraining, GateState::kWaking})
    if (a == s || b == s) return s;
  return GateState::kDraining;  // one gated, one on: a request just changed direction
}

void NetworkInterconnect::gate_changed(unsigned g) {
  if (g >= reported_.size()) return;
  const GateState s = state(g);
  if (s == reported_[g]) return;
  reported_[g] = s;
  if (listener_) listener_(g, s);
}

uint64_t NetworkInterconnect::footprint(const NocParams& p, unsigned ups, unsigned downs,
                                        unsigned slices_per_mc) {
  // Per port: the AT port with its callbacks, and the socket binding SystemC keeps, measured.
  constexpr uint64_t kPortBinding = 512;
  uint64_t b = uint64_t(ups) * (sizeof(AtTargetPort) + kPortBinding) +
               uint64_t(downs) * (sizeof(AtInitiatorPort) + kPortBinding);
  if (p.type == "full")
    return b + CrossbarNetwork::footprint(p, ups, downs) + CrossbarNetwork::footprint(p, downs, ups);
  for (bool reply : {false, true}) {
    const Topology t =
        build_topology(p, reply ? downs : ups, reply ? ups : downs, reply, slices_per_mc, false);
    b += FlitNetwork::footprint(p, t) + sizeof(Topology) + t.routers.size() * sizeof(Topology::Router);
  }
  return b;
}

std::unique_ptr<PacketNetwork> NetworkInterconnect::make_network(const char* name,
                                                                 PacketNetwork::Hooks& hooks, bool reply) {
  const unsigned ins = reply ? down.size() : up.size(), outs = reply ? up.size() : down.size();
  return std::make_unique<FlitNetwork>(name, stats_, p_, clock_, hooks,
                                       build_topology(p_, ins, outs, reply, slices_per_mc_), tf_, basename());
}

tlm::tlm_sync_enum NetworkInterconnect::up_nb_transport_fw(int port, Payload& t, tlm::tlm_phase& ph,
                                                           sc_core::sc_time& d) {
  return up_ports_[unsigned(port)].nb_transport_fw(t, ph, d);
}

tlm::tlm_sync_enum NetworkInterconnect::down_nb_transport_bw(int port, Payload& t, tlm::tlm_phase& ph,
                                                             sc_core::sc_time& d) {
  return down_ports_[unsigned(port)].nb_transport_bw(t, ph, d);
}

bool NetworkInterconnect::on_request(unsigned in, Payload& t, const sc_core::sc_time& d) {
  ++requests_;
  const unsigned out = route(t, in);
  push_return_port(t, in);
  return req_->arrive(in, out, t, request_data_bytes(t), arrival_ps(d));
}

bool NetworkInterconnect::on_response(unsigned in, Payload& t) {
  const unsigned out = pop_return_port(t);
  // A target that completes a request inside our BEGIN_REQ call leaves no END_RESP to withhold.
  const bool force = (completing_ == &t);
  return resp_->arrive(in, out, t, reply_data_bytes(t), Clock::now_ps(), force) || force;
}

void NetworkInterconnect::up_b_transport(int port, Payload& t, sc_core::sc_time& d) {
  ++functional_;
  // Functional path, no contention: the uncontended latency each way (docs/blocks/noc.md).
  const unsigned out = route(t, unsigned(port));
  d += clock_.cycles(req_->zero_load_cycles(unsigned(port), out, p_.packet_flits(request_data_bytes(t))));
  down[int(out)]->b_transport(t, d);
  d += clock_.cycles(resp_->zero_load_cycles(out, unsigned(port), p_.packet_flits(reply_data_bytes(t))));
}

void NetworkInterconnect::push_return_port(Payload& t, unsigned port) {
  if (MemReq* r = find_req(t)) {
    if (r->hops >= MemReq::kMaxHops) throw std::logic_error(std::string(name()) + ": MemReq::route is full");
    r->push_route(uint16_t(port));
  } else {
    foreign_.emplace_back(&t, uint16_t(port));
  }
}

unsigned NetworkInterconnect::pop_return_port(Payload& t) {
  if (MemReq* r = find_req(t)) {
    if (r->hops == 0) throw std::logic_error(std::string(name()) + ": response with an empty MemReq::route");
    return r->pop_route();
  }
  for (auto& f : foreign_) {
    if (f.first != &t) continue;
    const unsigned port = f.second;
    f = foreign_.back();
    foreign_.pop_back();
    return port;
  }
  throw std::logic_error(std::string(name()) + ": response for a foreign payload that never came through");
}

void NetworkInterconnect::run() {
  scheduled_ = PacketNetwork::kNever;
  ++active_cycles_;
  const uint64_t c = clock_.cycle();
  const uint64_t next = std::min(req_->step_if_due(c), resp_->step_if_due(c));
  if (next != PacketNetwork::kNever) wake_at(next);
}

void NetworkInterconnect::wake_at(uint64_t cycle) {
  if (cycle >= scheduled_) return;
  scheduled_ = cycle;
  wake_event_.notify_at_ps(clock_.edge_ps(cycle));
}

}  // namespace gms
