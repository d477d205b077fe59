#include "models/common/at_port.h"

#include <stdexcept>

namespace gms {

bool AtInitiatorPort::send(Payload& t) {
  if (waiting_end_req_) throw std::logic_error("BEGIN_REQ while an earlier request awaits END_REQ");
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  waiting_end_req_ = &t;
  tlm::tlm_sync_enum s = fw_(t, ph, d);
  if (s == tlm::TLM_ACCEPTED) return waiting_end_req_ == nullptr;  // END_REQ may have come re-entrantly
  if (s == tlm::TLM_COMPLETED) {
    waiting_end_req_ = nullptr;
    on_response_(t);  // complete at once: the response is in the payload
    return true;
  }
  // TLM_UPDATED
  if (ph == tlm::END_REQ) {
    waiting_end_req_ = nullptr;
    return true;
  }
  if (ph == tlm::BEGIN_RESP) {  // implies END_REQ
    waiting_end_req_ = nullptr;
    if (on_response_(t)) {
      tlm::tlm_phase e = tlm::END_RESP;
      sc_core::sc_time z = sc_core::SC_ZERO_TIME;
      fw_(t, e, z);
    }
    return true;
  }
  throw std::logic_error("unexpected phase returned to BEGIN_REQ");
}

tlm::tlm_sync_enum AtInitiatorPort::nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph == tlm::END_REQ) {
    if (waiting_end_req_ != &t) throw std::logic_error("END_REQ for a request not in flight");
    waiting_end_req_ = nullptr;
    if (on_ready_) on_ready_();
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::BEGIN_RESP) {
    bool implied_end_req = (waiting_end_req_ == &t);
    if (implied_end_req) waiting_end_req_ = nullptr;
    bool consumed = on_response_(t);
    if (implied_end_req && on_ready_) on_ready_();
    if (consumed) return tlm::TLM_COMPLETED;
    return tlm::TLM_ACCEPTED;
  }
  throw std::logic_error("unexpected phase on the backward path");
}

void AtInitiatorPort::release_response(Payload& t) {
  tlm::tlm_phase ph = tlm::END_RESP;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  fw_(t, ph, d);
}

tlm::tlm_sync_enum AtTargetPort::nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  if (ph == tlm::BEGIN_REQ) {
    if (held_) throw std::logic_error("BEGIN_REQ before END_REQ of the previous request");
    if (on_request_(t, d)) {
      ph = tlm::END_REQ;
      d = sc_core::SC_ZERO_TIME;
      return tlm::TLM_UPDATED;
    }
    held_ = &t;
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::END_RESP) {
    if (waiting_end_resp_ != &t) throw std::logic_error("END_RESP for a response not in flight");
    waiting_end_resp_ = nullptr;
    if (on_free_) on_free_();
    return tlm::TLM_COMPLETED;
  }
  throw std::logic_error("unexpected phase on the forward path");
}

void AtTargetPort::accept(Payload& t) {
  if (held_ != &t) throw std::logic_error("accept() for a request that is not held");
  held_ = nullptr;
  tlm::tlm_phase ph = tlm::END_REQ;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  bw_(t, ph, d);
}

bool AtTargetPort::respond(Payload& t) {
  if (waiting_end_resp_) throw std::logic_error("BEGIN_RESP while an earlier response awaits END_RESP");
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  waiting_end_resp_ = &t;
  tlm::tlm_sync_enum s = bw_(t, ph, d);
  if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::END_RESP)) {
    waiting_end_resp_ = nullptr;
    return true;
  }
  return waiting_end_resp_ == nullptr;  // TLM_ACCEPTED: END_RESP comes later (maybe already re-entrantly)
}

}  // namespace gms
