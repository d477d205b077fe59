// One direction (request or reply) of a flit-level router network, built from a Topology: injectors that
// split packets into flits and feed the routers (round-robin among the terminals sharing a port, a whole
// packet at a time), routers (router.h), links with their latency, and sinks that reassemble packets and
// hand them downstream (credits for the ejection buffer return when the downstream takes the packet).
//
// Timing (NoC cycles): a packet arriving during cycle a is injected from a + 1, one flit per cycle as
// credits allow; through h routers and links summing L cycles (the ejection link included), an uncontended
// packet of n flits is delivered at cycle a + h x pipeline + L + n (docs/blocks/noc.md "Routers").
//
// Cost: a cycle visits the routers and injectors with flits only, and link traffic sits in a timing wheel;
// with nothing buffered the network sleeps until the next link event or arrival.
//
// Also here: power gating of the gateable routers (power_gate.h; the H-Xbar's MC-routers), the stuck-flit
// watchdog (noc.watchdog_cycles), link activity for the energy model, and per-router VCD probes
// (flit_network_stats.cpp registers the statistics and probes).
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "models/common/clock.h"
#include "models/common/ring_queue.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/noc/active_set.h"
#include "models/noc/delivery_stats.h"
#include "models/noc/noc_params.h"
#include "models/noc/packet_network.h"
#include "models/noc/router/noc_energy.h"
#include "models/noc/router/power_gate.h"
#include "models/noc/router/router.h"
#include "models/noc/router/topology.h"

namespace gms {

class FlitNetwork final : public PacketNetwork {
 public:
  // `vcd` (optional): per-router probes under scopes "<block>.<name>.<router>".
  FlitNetwork(const std::string& name, StatGroup& parent, const NocParams& p, const Clock& clock,
              Hooks& hooks, Topology topology, VcdWriter* vcd = nullptr, const std::string& block = "");
  FlitNetwork(const FlitNetwork&) = delete;
  FlitNetwork& operator=(const FlitNetwork&) = delete;

  // The bytes a network of this topology allocates when built: routers (router.h), injection queues,
  // injectors, sinks, link and energy tables, route tables and per-router statistics. For the memory budget
  // (models/system/memory_budget.h): counted before anything is built.
  static uint64_t footprint(const NocParams& p, const Topology& t);

  // The topology fixes the terminal counts; resize only checks them.
  void resize(unsigned inputs, unsigned outputs) override;
  bool arrive(unsigned in, unsigned out, tlm::tlm_generic_payload& t, uint32_t data_bytes,
              uint64_t arrival_ps, bool force = false) override;
  void unblock(unsigned out) override;
  uint64_t step(uint64_t c) override;
  uint64_t in_flight() const override { return in_flight_; }
  uint64_t zero_load_cycles(unsigned in, unsigned out, uint32_t flits) const override;

  const Topology& topology() const { return topo_; }
  uint64_t clock_period_ps() const { return clock_.period_ps(); }
  Router& router(unsigned r) { return *routers_[r]; }
  const Router& router(unsigned r) const { return *routers_[r]; }
  unsigned routers() const { return unsigned(routers_.size()); }
  uint64_t delivered() const { return delivery_.packets.value; }

  // Power gating: the gateable routers (topology order; the H-Xbar's MC-router j is gate j). A request
  // sets the wanted state; the machine moves from the next cycle (Hooks::gate_changed reports each step).
  unsigned gates() const { return unsigned(gates_.size()); }
  unsigned gate_router(unsigned g) const { return gate_router_[g]; }
  void request_gate(unsigned g, bool gated);
  GateState gate_state(unsigned g) const { return gates_[g].state(); }
  const PowerGate& power_gate(unsigned g) const { return gates_[g]; }

  // Energy in pJ up to cycle `now` (docs/blocks/noc.md "Energy").
  struct Energy {
    double buffer = 0, crossbar = 0, allocator = 0, bypass = 0, link = 0, leakage = 0;
    double dynamic() const { return buffer + crossbar + allocator + bypass + link; }
    double total() const { return dynamic() + leakage; }
  };
  Energy energy(uint64_t now) const;
  Energy router_energy(unsigned r, uint64_t now) const;  // link energy: the router's output links
  uint64_t link_flits() const;                           // flits over all links, terminals' included
  uint64_t link_flits(unsigned link) const { return link_flits_[link]; }

 private:
  struct Packet {
    tlm::tlm_generic_payload* t = nullptr;
    uint32_t src = 0, dest = 0, flits = 0, bytes = 0, received = 0;
    uint64_t arrival_cycle = 0;
  };
  // Where a router input's credits go (its upstream) and where a router output's flits go (downstream).
  struct End {
    bool to_router = true;  // false: an injector (upstream) or a sink port (downstream)
    uint32_t index = 0;     // router, injector or sink port
    uint32_t port = 0;      // the router's port when to_router
    uint32_t latency = 0;   // link cycles
    uint32_t link = 0;      // downstream ends: index in link_flits_
  };
  struct Source {               // one network input (terminal)
    RingQueue<uint32_t> queue;  // packets waiting to be injected, in arrival order
    uint32_t queued_flits = 0;
    uint32_t injector = 0;
    bool has_held = false;
    tlm::tlm_generic_payload* held = nullptr;
    uint32_t held_out = 0, held_bytes = 0;
    uint64_t held_cycle = 0;
  };
  struct Injector {  // a router input port fed by one or more sources
    uint32_t router = 0, port = 0;
    uint32_t link = 0;  // index in link_flits_
    std::vector<uint32_t> sources;
    std::vector<int32_t> credits;  // per VC of the router input
    std::vector<uint8_t> busy;     // per VC: a packet of ours is still being written into it
    uint32_t next = 0;             // round-robin among the sources, a packet at a time
    int32_t current = -1;          // packet being injected
    uint32_t sent = 0;             // its flits injected so far
    uint16_t vc = 0;
  };
  struct Sink {                // one network output (terminal)
    RingQueue<uint32_t> done;  // complete packets waiting for the downstream, in order
    bool blocked = false;
    bool listed = false;  // in ready_sinks_
    uint32_t port = 0;    // sink port it hangs off
  };
  struct SinkPort {  // a router output feeding sinks
    uint32_t router = 0, port = 0;
  };
  struct Event {
    enum Kind : uint8_t { kFlitToRouter, kFlitToSink, kCreditToRouter, kCreditToInjector } kind;
    uint32_t index, port;
    uint64_t cycle;  // when it happens (checked: the wheel must never lap)
    Flit flit;       // kFlit*: the flit; kCredit*: flit.vc is the VC
  };

  void schedule(uint64_t cycle, const Event& e);
  void handle(const Event& e, uint64_t c);
  void inject(uint32_t j, uint64_t c);
  void admit_held(uint32_t s);
  void deliver(uint32_t sink, uint64_t c);
  uint32_t new_packet();
  uint64_t next_work(uint64_t c) const;
  void step_gates(uint64_t c);
  void check_watchdog(uint64_t c);
  [[noreturn]] void report_stuck(unsigned r, uint32_t in, uint32_t vc, uint64_t c) const;
  uint64_t now_cycle() const;
  void register_stats();
  void attach_probes(VcdWriter* vcd);
  void probe_router(unsigned r, size_t grants);

  const NocParams& p_;
  const Clock& clock_;
  Hooks& hooks_;
  Topology topo_;
  std::vector<uint32_t> packet_dest_;  // destination per packet-table entry (read by the routers)
  std::vector<Packet> packets_tab_;
  std::vector<uint32_t> free_packets_;
  std::vector<std::unique_ptr<Router>> routers_;
  std::vector<std::vector<End>> up_, down_;  // [router][port]
  std::vector<Source> sources_;
  std::vector<Injector> injectors_;
  std::vector<Sink> sinks_;
  std::vector<SinkPort> sink_ports_;
  std::vector<std::vector<Event>> wheel_;  // events by cycle modulo its size (> the longest latency + 1)
  uint64_t wheel_mask_ = 0;
  uint64_t wheel_events_ = 0;
  ActiveSet busy_routers_, busy_injectors_;
  std::vector<uint32_t> ready_sinks_;  // sinks with complete packets and an unblocked downstream
  std::vector<Router::Departure> departures_;
  uint64_t in_flight_ = 0;
  uint64_t last_cycle_ = 0;
  std::string name_;  // "<block>.<name>" (messages)

  // Gating: per gateable router its machine and the cycle it must next be stepped (kNever when stable).
  std::vector<PowerGate> gates_;
  std::vector<uint32_t> gate_router_;
  std::vector<int32_t> gate_of_;  // per router: its gate, -1 if not gateable
  std::vector<uint64_t> gate_next_;
  unsigned gates_pending_ = 0;
  uint64_t next_watchdog_ = 0;

  // Energy: flits per link (topology links, then injection links, then ejection links) and their lengths.
  NocEnergyModel energy_model_;
  std::vector<uint64_t> link_flits_;
  std::vector<double> link_mm_;
  std::vector<uint32_t> link_router_;  // the router driving each link (UINT32_MAX: an injector)

  struct RouterProbes {
    std::vector<Probe<uint32_t>> in_flits;  // occupancy per input port
    Probe<uint64_t> grants;                 // switch grants so far (its slope is the throughput)
    Probe<uint8_t> gate;                    // GateState (gateable routers)
  };
  std::vector<RouterProbes> probes_;
  bool traced_ = false;

  DeliveryStats delivery_;
  Counter& held_count_;
  Counter& blocked_count_;
  std::deque<StatGroup> router_groups_;
};

}  // namespace gms
