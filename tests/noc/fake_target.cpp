#include "tests/noc/fake_target.h"

#include "models/common/mem_req.h"

namespace gms::test {

using sc_core::SC_NS;
using sc_core::sc_time;

FakeTarget::FakeTarget(sc_core::sc_module_name name, unsigned index)
    : sc_module(name), tsock("tsock"), index_(index), rng_(index + 100, "fake_target") {
  port_ = AtTargetPort(
      [this](Payload& t, tlm::tlm_phase& ph, sc_time& d) { return tsock->nb_transport_bw(t, ph, d); },
      [this](Payload& t, const sc_time&) { return on_request(t); },
      [this] { respond_ev_.notify(sc_core::SC_ZERO_TIME); });
  tsock.register_nb_transport_fw(this, &FakeTarget::nb_fw);
  tsock.register_b_transport(this, &FakeTarget::b_transport);
  tsock.register_transport_dbg(this, &FakeTarget::transport_dbg);
  SC_METHOD(accept_held);
  sensitive << accept_ev_;
  dont_initialize();
  SC_METHOD(respond);
  sensitive << respond_ev_;
  dont_initialize();
}

bool FakeTarget::on_request(Payload& t) {
  const MemReq* m = find_req(t);  // foreign payloads carry none
  arrivals_.push_back({sc_core::sc_time_stamp(), m ? m->sm : kForeign, m ? m->id : 0, t.is_write()});
  if (t.has_mm()) t.acquire();
  const double hold = hold_ns_ + (hold_random_ns_ ? double(rng_.below(hold_random_ns_ + 1)) : 0.0);
  if (hold == 0) {
    queue_response(t);
    return true;
  }
  held_ = &t;
  accept_ev_.notify(sc_time(hold, SC_NS));
  return false;
}

void FakeTarget::accept_held() {
  Payload& t = *held_;
  held_ = nullptr;
  port_.accept(t);
  queue_response(t);
}

void FakeTarget::queue_response(Payload& t) {
  const double s = service_ns_ + (service_random_ns_ ? double(rng_.below(service_random_ns_ + 1)) : 0.0);
  sc_time due = sc_core::sc_time_stamp() + sc_time(s, SC_NS);
  if (!responses_.empty() && due < responses_.back().due) due = responses_.back().due;
  responses_.push_back({&t, due});
  const sc_time now = sc_core::sc_time_stamp();
  respond_ev_.notify(responses_.front().due > now ? responses_.front().due - now : sc_core::SC_ZERO_TIME);
}

void FakeTarget::respond() {
  const sc_time now = sc_core::sc_time_stamp();
  while (!responses_.empty() && port_.can_respond()) {
    Pending& p = responses_.front();
    if (p.due > now) {
      respond_ev_.notify(p.due - now);
      return;
    }
    Payload& t = *p.t;
    responses_.pop_front();
    if (MemReq* m = find_req(t)) m->chunks_returned = t.is_read() ? m->chunk_mask : 0;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    port_.respond(t);  // a held END_RESP wakes us through the free handler
    if (t.has_mm()) t.release();
  }
}

void FakeTarget::b_transport(Payload& t, sc_time& d) {
  ++functional_;
  MemReq& m = req_of(t);
  m.chunks_returned = t.is_read() ? m.chunk_mask : 0;
  m.llc_hit = true;
  d += sc_time(service_ns_, SC_NS);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned FakeTarget::transport_dbg(Payload& t) {
  ++debug_;
  unsigned char* p = t.get_data_ptr();
  for (unsigned i = 0; i < t.get_data_length(); ++i) p[i] = uint8_t(index_ * 16 + i);
  return t.get_data_length();
}

}  // namespace gms::test
