// The interconnect module for every topology (paper 004 section 3): every L1 has a port into a request
// network that reaches every LLC slice, and every slice a port into a separate reply network back to every
// L1. `noc.type: full` makes each network a one-hop CrossbarNetwork (input buffers with credits, per-port
// flit serialization, round-robin switch allocation, `latency` pipeline cycles); crossbar, concentrated and
// hxbar make FlitNetworks of routers and links. One run method (woken through the shared WakeScheduler)
// runs both, only in cycles with work.
#pragma once
#include <systemc>

#include <cstdint>
#include <utility>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/noc/interconnect.h"
#include "models/noc/packet_network.h"
#include "models/noc/router/flit_network.h"
#include "models/noc/rtl/rtl_clock.h"

namespace gms {

class NetworkInterconnect : public Interconnect, private McRouterControl {
 public:
  // slices_per_mc: LLC slices per memory controller (the H-Xbar's MC-routers group them).
  NetworkInterconnect(sc_core::sc_module_name name, const NocParams& p, RouteFn route, const BlockEnv& env,
                      unsigned slices_per_mc = 1);

  // The bytes both networks of noc.type p.type allocate with `ups` L1 ports and `downs` LLC-slice ports,
  // the ports' own state included: what end_of_elaboration builds. For the memory budget
  // (models/system/memory_budget.h); ConfigError when the topology cannot be formed (as building would).
  static uint64_t footprint(const NocParams& p, unsigned ups, unsigned downs, unsigned slices_per_mc);

  const NocParams& params() const { return p_; }
  const PacketNetwork& request_network() const { return *req_; }
  const PacketNetwork& reply_network() const { return *resp_; }
  // The router networks (nullptr for noc.type full).
  FlitNetwork* request_flits() { return dynamic_cast<FlitNetwork*>(req_.get()); }
  FlitNetwork* reply_flits() { return dynamic_cast<FlitNetwork*>(resp_.get()); }
  McRouterControl* mc_router_control() override;

 protected:
  tlm::tlm_sync_enum up_nb_transport_fw(int port, Payload& t, tlm::tlm_phase& ph,
                                        sc_core::sc_time& d) override;
  tlm::tlm_sync_enum down_nb_transport_bw(int port, Payload& t, tlm::tlm_phase& ph,
                                          sc_core::sc_time& d) override;
  void up_b_transport(int port, Payload& t, sc_core::sc_time& d) override;
  void end_of_elaboration() override;

 private:
  void run();
  std::unique_ptr<PacketNetwork> make_network(const char* name, PacketNetwork::Hooks& hooks, bool reply);
  void wake_at(uint64_t cycle);
  void gate_changed(unsigned g);
  // McRouterControl
  unsigned mc_routers() const override;
  void gate(unsigned mc) override;
  void wake(unsigned mc) override;
  GateState state(unsigned mc) const override;
  void set_listener(Listener l) override { listener_ = std::move(l); }
  bool on_request(unsigned in, Payload& t, const sc_core::sc_time& d);
  bool on_response(unsigned in, Payload& t);
  // The up port a reply returns to: popped from MemReq::route, or from the side table for foreign payloads.
  void push_return_port(Payload& t, unsigned port);
  unsigned pop_return_port(Payload& t);

  // The networks' hooks: where a request / a reply goes at the crossbar's edges.
  struct RequestHooks final : PacketNetwork::Hooks {
    explicit RequestHooks(NetworkInterconnect& x) : x(x) {}
    bool deliver(unsigned out, Payload& t) override;
    void accepted(unsigned in, Payload& t) override { x.up_ports_[in].accept(t); }
    void wake(uint64_t cycle) override { x.wake_at(cycle); }
    void gate_changed(unsigned g, GateState) override { x.gate_changed(g); }
    NetworkInterconnect& x;
  };
  struct ReplyHooks final : PacketNetwork::Hooks {
    explicit ReplyHooks(NetworkInterconnect& x) : x(x) {}
    bool deliver(unsigned out, Payload& t) override;
    void accepted(unsigned in, Payload& t) override { x.down_ports_[in].release_response(t); }
    void wake(uint64_t cycle) override { x.wake_at(cycle); }
    void gate_changed(unsigned g, GateState) override { x.gate_changed(g); }
    NetworkInterconnect& x;
  };

  const NocParams p_;
  Clock clock_;
  StatGroup stats_;
  Counter& requests_;
  Counter& responses_;
  Counter& functional_;
  Counter& active_cycles_;
  RequestHooks req_hooks_{*this};
  ReplyHooks resp_hooks_{*this};
  const BlockEnv& env_;
  VcdWriter* tf_;  // asked for at construction: the trace selection is checked before elaboration ends
  const unsigned slices_per_mc_;
  std::unique_ptr<RtlClock> rtl_clock_;        // noc.arbiter rtl: the RTL arbiters' clock and reset
  std::unique_ptr<PacketNetwork> req_, resp_;  // made at end_of_elaboration, when the port counts are known
  std::vector<AtTargetPort> up_ports_;
  std::vector<AtInitiatorPort> down_ports_;
  std::vector<std::pair<Payload*, uint16_t>> foreign_;  // return ports of payloads without a MemReq
  Wakeup wake_event_;
  uint64_t scheduled_ = PacketNetwork::kNever;  // earliest cycle the event is notified for
  const Payload* completing_ = nullptr;         // a request whose target may complete it at once
  Listener listener_;
  std::vector<GateState> reported_;  // per MC-router: the combined state last reported
};

}  // namespace gms
