// Forwarding and the phase rules. Every transition is recorded before the call is passed on, so a
// component that answers re-entrantly (END_REQ or BEGIN_RESP from inside BEGIN_REQ) finds the state
// already advanced; what comes back on the return path (TLM_UPDATED / TLM_COMPLETED) is applied after.
#include "models/protocol/protocol_checker.h"

#include <sstream>

namespace gms {

namespace {
// Phases past END_RESP are extended phases of another protocol: passed on, never judged.
bool is_base_phase(const tlm::tlm_phase& ph) {
  return unsigned(ph) <= unsigned(tlm::END_RESP);
}
std::string phase_text(const tlm::tlm_phase& ph) {
  std::ostringstream os;
  os << ph;
  return os.str();
}
}  // namespace

ProtocolChecker::ProtocolChecker(sc_core::sc_module_name name, const BlockEnv& env,
                                 const ProtocolCheckerParams& p)
    : sc_module(name), tsock("tsock"), isock("isock"), p_(p) {
  if (p_.link.empty()) p_.link = this->name();
  const char* desc = "TLM-2.0 base-protocol checker on one link";
  stats_ = env.stats ? std::make_unique<StatGroup>(*env.stats, basename(), desc)
                     : std::make_unique<StatGroup>(basename(), desc);
  total_ = &stats_->counter("violations", "base-protocol violations seen on the link, all checks", "events");
  static const char* const kDesc[kProtocolChecks] = {
      "phases out of sequence for their payload, or on the wrong path",
      "BEGIN_REQ while another request awaited END_REQ",
      "BEGIN_RESP while another response awaited END_RESP",
      "responses whose status was still TLM_INCOMPLETE_RESPONSE",
      "BEGIN_REQ (or b_transport) with a payload whose transaction had not completed",
      "reads/writes with data length 0 or no data pointer",
      "byte-enable pointer and length inconsistent (one set without the other)",
      "reads/writes with streaming width 0",
      "bad DMI grants (start > end, no pointer, address not covered) or accesses refused inside one",
  };
  for (size_t c = 0; c < kProtocolChecks; ++c)
    count_[c] =
        &stats_->counter(std::string("violations_") + to_string(ProtocolCheck(c)), kDesc[c], "events");
  requests_ = &stats_->counter("checked_requests", "BEGIN_REQs that crossed the link", "requests");
  blocking_ = &stats_->counter("checked_blocking", "b_transport calls that crossed the link", "calls");
  dmi_grants_ = &stats_->counter("dmi_grants", "valid DMI grants recorded on the link", "grants");

  tsock.register_nb_transport_fw(this, &ProtocolChecker::nb_transport_fw);
  tsock.register_b_transport(this, &ProtocolChecker::b_transport);
  tsock.register_transport_dbg(this, &ProtocolChecker::transport_dbg);
  tsock.register_get_direct_mem_ptr(this, &ProtocolChecker::get_direct_mem_ptr);
  isock.register_nb_transport_bw(this, &ProtocolChecker::nb_transport_bw);
  isock.register_invalidate_direct_mem_ptr(this, &ProtocolChecker::invalidate_direct_mem_ptr);
}

ProtocolChecker::~ProtocolChecker() = default;

tlm::tlm_sync_enum ProtocolChecker::nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  const tlm::tlm_phase sent = ph;
  if (ph == tlm::BEGIN_REQ) {
    begin_req(t);
  } else if (ph == tlm::END_RESP) {
    end_resp(t, "END_RESP");
  } else if (is_base_phase(ph)) {
    violation(ProtocolCheck::PhaseOrder, &t, phase_text(ph) + " sent on the forward path");
  }
  const tlm::tlm_sync_enum s = isock->nb_transport_fw(t, ph, d);
  after_fw(t, sent, s, ph);
  return s;
}

tlm::tlm_sync_enum ProtocolChecker::nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  const tlm::tlm_phase sent = ph;
  if (ph == tlm::END_REQ) {
    end_req(t, "END_REQ");
  } else if (ph == tlm::BEGIN_RESP) {
    begin_resp(t, "BEGIN_RESP");
  } else if (is_base_phase(ph)) {
    violation(ProtocolCheck::PhaseOrder, &t, phase_text(ph) + " sent on the backward path");
  }
  const tlm::tlm_sync_enum s = tsock->nb_transport_bw(t, ph, d);
  after_bw(t, sent, s, ph);
  return s;
}

// The target's answer to a forward call: TLM_UPDATED carries its next phase (END_REQ or BEGIN_RESP to
// a BEGIN_REQ), TLM_COMPLETED ends the transaction (to a BEGIN_REQ it implies the whole response).
void ProtocolChecker::after_fw(Payload& t, const tlm::tlm_phase& sent, tlm::tlm_sync_enum s,
                               const tlm::tlm_phase& ph) {
  if (s == tlm::TLM_ACCEPTED) {
    if (ph != sent) violation(ProtocolCheck::PhaseOrder, &t, "phase changed on a TLM_ACCEPTED return");
  } else if (s == tlm::TLM_COMPLETED) {
    if (sent == tlm::BEGIN_REQ) check_response(t, "TLM_COMPLETED to BEGIN_REQ");
    completed(t, sent);
  } else if (ph == tlm::END_REQ && sent == tlm::BEGIN_REQ) {
    end_req(t, "TLM_UPDATED/END_REQ");
  } else if (ph == tlm::BEGIN_RESP && sent == tlm::BEGIN_REQ) {
    begin_resp(t, "TLM_UPDATED/BEGIN_RESP");
  } else if (is_base_phase(ph)) {
    violation(ProtocolCheck::PhaseOrder, &t,
              "TLM_UPDATED with " + phase_text(ph) + " returned to " + phase_text(sent));
  }
}

// The initiator's answer to a backward call: TLM_UPDATED may only carry END_RESP to a BEGIN_RESP.
void ProtocolChecker::after_bw(Payload& t, const tlm::tlm_phase& sent, tlm::tlm_sync_enum s,
                               const tlm::tlm_phase& ph) {
  if (s == tlm::TLM_ACCEPTED) {
    if (ph != sent) violation(ProtocolCheck::PhaseOrder, &t, "phase changed on a TLM_ACCEPTED return");
  } else if (s == tlm::TLM_COMPLETED) {
    completed(t, sent);
  } else if (ph == tlm::END_RESP && sent == tlm::BEGIN_RESP) {
    end_resp(t, "TLM_UPDATED/END_RESP");
  } else if (is_base_phase(ph)) {
    violation(ProtocolCheck::PhaseOrder, &t,
              "TLM_UPDATED with " + phase_text(ph) + " returned to " + phase_text(sent));
  }
}

void ProtocolChecker::begin_req(Payload& t) {
  ++*requests_;
  check_attributes(t, "BEGIN_REQ");
  if (state_.count(&t)) {
    violation(ProtocolCheck::PayloadReuse, &t,
              "BEGIN_REQ with a payload whose transaction has not completed");
  } else if (req_in_phase_) {
    violation(ProtocolCheck::RequestExclusion, &t, "BEGIN_REQ before END_REQ of the previous request");
  }
  state_[&t] = Stage::Request;
  req_in_phase_ = &t;
}

void ProtocolChecker::end_req(Payload& t, const char* how) {
  auto it = state_.find(&t);
  if (it == state_.end() || it->second != Stage::Request) {
    violation(ProtocolCheck::PhaseOrder, &t, std::string(how) + " for a payload not in the request phase");
  } else {
    it->second = Stage::Accepted;
  }
  if (req_in_phase_ == &t) req_in_phase_ = nullptr;
}

// BEGIN_RESP may follow BEGIN_REQ directly: it implies END_REQ (IEEE 1666-2011 15.2.4), so only a
// response to a payload with no request on the link, or a second one, is out of order.
void ProtocolChecker::begin_resp(Payload& t, const char* how) {
  auto it = state_.find(&t);
  if (it == state_.end() || it->second == Stage::Response) {
    violation(ProtocolCheck::PhaseOrder, &t,
              std::string(how) + (it == state_.end() ? " for a payload with no request in flight"
                                                     : " for a payload already in the response phase"));
  } else if (resp_in_phase_) {
    violation(ProtocolCheck::ResponseExclusion, &t,
              std::string(how) + " before END_RESP of the previous response");
  }
  check_response(t, how);
  if (req_in_phase_ == &t) req_in_phase_ = nullptr;
  state_[&t] = Stage::Response;
  resp_in_phase_ = &t;
}

void ProtocolChecker::end_resp(Payload& t, const char* how) {
  auto it = state_.find(&t);
  if (it == state_.end() || it->second != Stage::Response) {
    violation(ProtocolCheck::PhaseOrder, &t, std::string(how) + " for a payload not in the response phase");
    return;
  }
  state_.erase(it);
  if (resp_in_phase_ == &t) resp_in_phase_ = nullptr;
}

void ProtocolChecker::completed(Payload& t, const tlm::tlm_phase& sent) {
  if (resp_in_phase_ == &t) resp_in_phase_ = nullptr;
  // An initiator that freed the payload in its response handler may have it handed out and sent again
  // before it returns TLM_COMPLETED (reported as payload_reuse then): that new transaction stays.
  auto it = state_.find(&t);
  if (it == state_.end()) return;
  if (it->second == Stage::Request && sent != tlm::BEGIN_REQ) return;
  if (req_in_phase_ == &t) req_in_phase_ = nullptr;
  state_.erase(it);
}

void ProtocolChecker::b_transport(Payload& t, sc_core::sc_time& d) {
  ++*blocking_;
  check_attributes(t, "b_transport");
  if (state_.count(&t))
    violation(ProtocolCheck::PayloadReuse, &t, "b_transport with a payload in flight on the AT path");
  isock->b_transport(t, d);
  check_response(t, "b_transport return");
}

// Debug transport has no phases and may carry any length (0 included): passed on unchecked.
unsigned ProtocolChecker::transport_dbg(Payload& t) {
  return isock->transport_dbg(t);
}

bool ProtocolChecker::get_direct_mem_ptr(Payload& t, tlm::tlm_dmi& dmi) {
  const bool granted = isock->get_direct_mem_ptr(t, dmi);
  check_dmi_grant(t, dmi, granted);
  return granted;
}

void ProtocolChecker::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  // The initiator drops every pointer overlapping [start, end], whole ranges: so does the record.
  std::vector<DmiRange> kept;
  for (const DmiRange& r : dmi_)
    if (r.end < start || r.start > end) kept.push_back(r);
  dmi_.swap(kept);
  tsock->invalidate_direct_mem_ptr(start, end);
}

}  // namespace gms
