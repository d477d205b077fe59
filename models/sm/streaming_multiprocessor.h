// The SM interface the memory system is built around (as L1Cache, Interconnect and LastLevelCache are for
// their blocks): an initiator socket to the SM's L1 (AT base protocol) and the CTA-level calls the CTA
// dispatcher and the system make. SmCore (the load-store front end driven by a Workload) implements it;
// a transactor or a foreign SM model can stand in by implementing it too (GpuMemSysOptions::make_sm).
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <systemc>

#include <cstdint>
#include <memory>

#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/common/workload.h"
#include "models/sm/sm_params.h"

namespace gms {

class CtaDispatcher;

class StreamingMultiprocessor : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<StreamingMultiprocessor> isock;  // to this SM's L1

  StreamingMultiprocessor(sc_core::sc_module_name name, unsigned sm_id, MemObserver* observer /* nullable */);
  ~StreamingMultiprocessor() override;

  // Who hands out CTAs (the SM calls dispatcher->cta_finished(*this) for each CTA it retires) and who sees
  // the data of every store and load (the golden-memory checker, a host's observer); both may be null.
  void set_dispatcher(CtaDispatcher* d) { dispatcher_ = d; }
  void set_observer(MemObserver* o) { observer_ = o; }
  unsigned sm_id() const { return sm_id_; }

  // CTA interface (CtaDispatcher). Room for one more CTA of this kernel now; whether one fits an empty SM
  // at all; run one (only when can_accept); no resident CTA and no request in flight.
  virtual bool can_accept(const KernelInfo& k) const = 0;
  virtual bool fits_empty(const KernelInfo& k) const = 0;
  virtual void launch(std::unique_ptr<CtaWork> cta, const KernelInfo& k) = 0;
  virtual bool idle() const = 0;

  // System interface. Issue pause (an LLC reorganisation): no new instruction issues, requests already
  // issued still go out and their responses are taken. drained(): nothing of this SM in the memory system.
  virtual void pause_issue(bool paused) = 0;
  virtual bool drained() const = 0;
  // Warp memory instructions issued so far (the dispatcher's per-kernel counts).
  virtual uint64_t warp_insts() const = 0;
  // When the last response arrived (0 before the first): the run's livelock watchdog counts from it.
  virtual uint64_t last_response_ps() const = 0;
  // Since when this SM has had a request in flight without a break (the send that ended its last moment
  // with none), or kNoneInFlight while it has none.
  static constexpr uint64_t kNoneInFlight = ~uint64_t(0);
  virtual uint64_t in_flight_since_ps() const = 0;
  virtual const SmParams& params() const = 0;
  virtual const Clock& clock() const = 0;
  virtual const StatGroup& stats() const = 0;

 protected:
  // The L1's backward path (END_REQ, BEGIN_RESP), registered here and dispatched to the model.
  virtual tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                             sc_core::sc_time& d) = 0;

  const unsigned sm_id_;
  MemObserver* observer_ = nullptr;
  CtaDispatcher* dispatcher_ = nullptr;

 private:
  tlm::tlm_sync_enum bw_cb(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return nb_transport_bw(t, ph, d);
  }
};

}  // namespace gms
