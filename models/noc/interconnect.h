// The network between the SM-side L1s and the LLC slices, as one module whatever its topology: N L1
// initiators bind to `up` (index = SM port), M LLC-slice targets bind to `down` (index = slice). Each
// topology (full crossbar now; concentrated, hierarchical H-Xbar, flit-level routers later: paper 004)
// derives from Interconnect and is chosen by make_interconnect() from NocParams::type, so the system
// builder never names a topology.
#pragma once
#include <tlm.h>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <functional>
#include <memory>
#include <vector>

#include "models/common/block_env.h"
#include "models/noc/mc_router_control.h"
#include "models/noc/noc_params.h"

namespace gms {

class Interconnect : public sc_core::sc_module {
 public:
  // The down index (LLC slice) a request from up port `up_port` (its SM) goes to; the system builder passes
  // its SliceSelector (shared LLC: by address only; private: by address and the SM's cluster).
  using RouteFn = std::function<unsigned(const tlm::tlm_generic_payload&, unsigned up_port)>;

  tlm_utils::multi_passthrough_target_socket<Interconnect> up;
  tlm_utils::multi_passthrough_initiator_socket<Interconnect> down;

  Interconnect(sc_core::sc_module_name name, RouteFn route);
  ~Interconnect() override = default;

  // The slices a debug write of the line at `addr` from up port `up_port` must reach (every slice that may
  // hold a copy: a private LLC keeps one per cluster); unset = the routed slice only.
  using DebugTargetsFn = std::function<void(uint64_t addr, unsigned up_port, std::vector<unsigned>& out)>;
  void set_debug_targets(DebugTargetsFn fn) { debug_targets_ = std::move(fn); }

  // The MC-routers' gating control (noc.type hxbar, after elaboration); nullptr for other topologies.
  virtual McRouterControl* mc_router_control() { return nullptr; }

 protected:
  using Payload = tlm::tlm_generic_payload;

  // Timed traffic (base protocol, AT): requests and END_RESP from up[port]; END_REQ and responses from
  // down[port].
  virtual tlm::tlm_sync_enum up_nb_transport_fw(int port, Payload& t, tlm::tlm_phase& ph,
                                                sc_core::sc_time& d) = 0;
  virtual tlm::tlm_sync_enum down_nb_transport_bw(int port, Payload& t, tlm::tlm_phase& ph,
                                                  sc_core::sc_time& d) = 0;
  // Functional access: forwards to down[route(t, port)]; a topology adds its uncontended latency to d.
  virtual void up_b_transport(int port, Payload& t, sc_core::sc_time& d);
  // Backdoor access, no timing, no state change: split line by line (128 B), each piece to its own slice
  // (reads: the routed slice, which a private LLC may differ by port; writes: every debug target), so an
  // access spanning slices sees every slice's copy.
  virtual unsigned up_transport_dbg(int port, Payload& t);

  // route_(t, up_port), checked against the number of bound targets.
  unsigned route(const Payload& t, unsigned up_port);

 private:
  // Socket callbacks: non-virtual trampolines registered once in the constructor.
  tlm::tlm_sync_enum fw_cb(int port, Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return up_nb_transport_fw(port, t, ph, d);
  }
  tlm::tlm_sync_enum bw_cb(int port, Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return down_nb_transport_bw(port, t, ph, d);
  }
  void b_cb(int port, Payload& t, sc_core::sc_time& d) { up_b_transport(port, t, d); }
  unsigned dbg_cb(int port, Payload& t) { return up_transport_dbg(port, t); }
  // No DMI through the network: direct pointers would bypass the LLC slices behind it.
  bool dmi_cb(int port, Payload& t, tlm::tlm_dmi& dmi);
  void invalidate_cb(int port, sc_dt::uint64 start, sc_dt::uint64 end);

  RouteFn route_;
  DebugTargetsFn debug_targets_;
  std::vector<unsigned> dbg_targets_;  // scratch
};

// The topology NocParams::type names (full, crossbar, concentrated, hxbar); ConfigError for an unknown
// type. slices_per_mc: LLC slices per memory controller (the H-Xbar groups slices by controller).
std::unique_ptr<Interconnect> make_interconnect(const NocParams& p, sc_core::sc_module_name name,
                                                Interconnect::RouteFn route, const BlockEnv& env,
                                                unsigned slices_per_mc = 1);

}  // namespace gms
