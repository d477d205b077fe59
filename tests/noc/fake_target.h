// An LLC-slice stand-in for the interconnect tests: records every BEGIN_REQ (time, requester), can
// withhold END_REQ for a while (fixed or random) to back-pressure its crossbar output, and answers each
// request after a service time (reads return the requested chunks). Also answers b_transport and
// transport_dbg so the functional paths can be checked.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>

#include <cstdint>
#include <deque>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/rng.h"

namespace gms::test {

class FakeTarget : public sc_core::sc_module {
 public:
  static constexpr unsigned kForeign = ~0u;  // Arrival::sm of a payload without MemReq
  struct Arrival {
    sc_core::sc_time at;
    unsigned sm = 0;
    uint64_t id = 0;
    bool write = false;
  };

  tlm_utils::simple_target_socket<FakeTarget> tsock;

  SC_HAS_PROCESS(FakeTarget);
  FakeTarget(sc_core::sc_module_name name, unsigned index);

  // Withhold END_REQ this long after each BEGIN_REQ (plus up to random_ns more).
  void hold_requests(double ns, unsigned random_ns = 0) {
    hold_ns_ = ns;
    hold_random_ns_ = random_ns;
  }
  // BEGIN_RESP this long after the request was accepted (plus up to random_ns more).
  void service(double ns, unsigned random_ns = 0) {
    service_ns_ = ns;
    service_random_ns_ = random_ns;
  }

  const std::vector<Arrival>& arrivals() const { return arrivals_; }
  unsigned functional_calls() const { return functional_; }
  unsigned debug_calls() const { return debug_; }

 private:
  struct Pending {
    Payload* t;
    sc_core::sc_time due;
  };
  tlm::tlm_sync_enum nb_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return port_.nb_transport_fw(t, ph, d);
  }
  bool on_request(Payload& t);
  void accept_held();
  void respond();
  void queue_response(Payload& t);
  void b_transport(Payload& t, sc_core::sc_time& d);
  unsigned transport_dbg(Payload& t);

  unsigned index_;
  AtTargetPort port_;
  std::vector<Arrival> arrivals_;
  std::deque<Pending> responses_;  // in due order (service time is per request, FIFO answers)
  Payload* held_ = nullptr;
  double hold_ns_ = 0, service_ns_ = 10;
  unsigned hold_random_ns_ = 0, service_random_ns_ = 0;
  unsigned functional_ = 0, debug_ = 0;
  Rng rng_;
  sc_core::sc_event accept_ev_, respond_ev_;
};

}  // namespace gms::test
