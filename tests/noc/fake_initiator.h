// A scripted L1 stand-in for the interconnect tests: issues line requests at given times through the
// AT base protocol (one BEGIN_REQ in flight until END_REQ), records when each was accepted and answered,
// and optionally withholds END_RESP for a while (fixed or random) to back-pressure the reply network.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>

#include <cstdint>
#include <deque>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/payload_pool.h"
#include "models/common/rng.h"

namespace gms::test {

class FakeInitiator : public sc_core::sc_module {
 public:
  struct Record {
    uint64_t addr = 0;
    bool write = false;
    uint8_t chunk_mask = 0;
    sc_core::sc_time issue, accepted, answered;
    unsigned responses = 0;
    uint8_t chunks_returned = 0;
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  };

  tlm_utils::simple_initiator_socket<FakeInitiator> isock;

  SC_HAS_PROCESS(FakeInitiator);
  FakeInitiator(sc_core::sc_module_name name, unsigned sm, PayloadPool& pool);

  // Requests go out in the order added, each not before its time. Returns the request's id (= index).
  size_t add(double at_ns, uint64_t addr, bool write, uint8_t chunk_mask);
  // Withhold each response's END_RESP for this long (0: complete at once), plus up to `random_ns` more.
  void hold_responses(double ns, unsigned random_ns = 0) {
    hold_ns_ = ns;
    hold_random_ns_ = random_ns;
  }

  // At most n requests without a response (an MSHR limit): later requests wait for responses.
  void max_outstanding(unsigned n) { max_outstanding_ = n; }

  const std::vector<Record>& records() const { return records_; }
  unsigned sm() const { return sm_; }

 private:
  tlm::tlm_sync_enum nb_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return port_.nb_transport_bw(t, ph, d);
  }
  void issue();
  void release_held();
  bool on_response(Payload& t);

  unsigned sm_;
  PayloadPool& pool_;
  AtInitiatorPort port_;
  std::vector<Record> records_;
  size_t next_ = 0;
  Payload* waiting_ = nullptr;  // request awaiting END_REQ
  Payload* held_ = nullptr;     // response whose END_RESP we withhold
  unsigned outstanding_ = 0, max_outstanding_ = ~0u;
  double hold_ns_ = 0;
  unsigned hold_random_ns_ = 0;
  Rng rng_;
  sc_core::sc_event issue_ev_, release_ev_;
};

}  // namespace gms::test
