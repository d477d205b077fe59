#include "tests/noc/fake_initiator.h"

#include <stdexcept>

namespace gms::test {

using sc_core::SC_NS;
using sc_core::sc_time;

FakeInitiator::FakeInitiator(sc_core::sc_module_name name, unsigned sm, PayloadPool& pool)
    : sc_module(name), isock("isock"), sm_(sm), pool_(pool), rng_(sm + 1, "fake_initiator") {
  port_ = AtInitiatorPort(
      [this](Payload& t, tlm::tlm_phase& ph, sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
      [this] {
        records_[req_of(*waiting_).id].accepted = sc_core::sc_time_stamp();
        waiting_ = nullptr;
        issue_ev_.notify(sc_core::SC_ZERO_TIME);
      },
      [this](Payload& t) { return on_response(t); });
  isock.register_nb_transport_bw(this, &FakeInitiator::nb_bw);
  SC_METHOD(issue);
  sensitive << issue_ev_;
  SC_METHOD(release_held);
  sensitive << release_ev_;
  dont_initialize();
}

size_t FakeInitiator::add(double at_ns, uint64_t addr, bool write, uint8_t chunk_mask) {
  Record r;
  r.addr = addr;
  r.write = write;
  r.chunk_mask = chunk_mask;
  r.issue = sc_time(at_ns, SC_NS);
  records_.push_back(r);
  return records_.size() - 1;
}

void FakeInitiator::issue() {
  const sc_time now = sc_core::sc_time_stamp();
  while (next_ < records_.size() && !waiting_ && outstanding_ < max_outstanding_) {
    Record& r = records_[next_];
    if (r.issue > now) {
      issue_ev_.notify(r.issue - now);
      return;
    }
    Payload& t = pool_.allocate();
    MemReq& m = req_of(t);
    m.sm = sm_;
    m.id = next_;
    m.line_addr = r.addr;
    m.chunk_mask = r.chunk_mask;
    m.kind = r.write ? MemKind::Store : MemKind::Load;
    t.set_address(r.addr);
    t.set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    ++next_;
    ++outstanding_;
    waiting_ = &t;
    if (port_.send(t)) {
      r.accepted = now;
      waiting_ = nullptr;
    }
  }
}

bool FakeInitiator::on_response(Payload& t) {
  Record& r = records_.at(req_of(t).id);
  r.answered = sc_core::sc_time_stamp();
  ++r.responses;
  if (outstanding_-- == max_outstanding_) issue_ev_.notify(sc_core::SC_ZERO_TIME);
  r.chunks_returned = req_of(t).chunks_returned;
  r.status = t.get_response_status();
  // A reply for another SM, or one whose interconnect route was not unwound, is an error.
  if (req_of(t).sm != sm_ || req_of(t).hops != 0) r.status = tlm::TLM_GENERIC_ERROR_RESPONSE;
  if (hold_ns_ == 0 && hold_random_ns_ == 0) {
    t.release();
    return true;
  }
  if (held_) throw std::logic_error("BEGIN_RESP while an earlier response awaits END_RESP");
  held_ = &t;
  const double extra = hold_random_ns_ ? double(rng_.below(hold_random_ns_ + 1)) : 0.0;
  release_ev_.notify(sc_time(hold_ns_ + extra, SC_NS));
  return false;
}

void FakeInitiator::release_held() {
  Payload* t = held_;
  held_ = nullptr;
  port_.release_response(*t);
  t->release();
}

}  // namespace gms::test
