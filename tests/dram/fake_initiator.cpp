#include "tests/dram/fake_initiator.h"

#include <cstring>

#include "models/common/clock.h"
#include "models/common/mem_req.h"

namespace gms_test {

FakeInitiator::FakeInitiator(sc_core::sc_module_name name, gms::PayloadPool& pool, std::vector<Scripted> s)
    : sc_module(name), isock("isock"), script(std::move(s)), pool_(pool) {
  port_ = gms::AtInitiatorPort([this](gms::Payload& t, tlm::tlm_phase& ph,
                                      sc_core::sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
                               [this] {
                                 script[waiting_].accepted_ps = gms::Clock::now_ps();
                                 waiting_ = SIZE_MAX;
                                 send_ev_.notify(sc_core::SC_ZERO_TIME);
                               },
                               [this](gms::Payload& t) { return on_response(t); });
  isock.register_nb_transport_bw(this, &FakeInitiator::nb_transport_bw);
  buffers_.resize(script.size());
  SC_HAS_PROCESS(FakeInitiator);
  SC_METHOD(send_due);
  sensitive << send_ev_;
  SC_METHOD(release_held);
  sensitive << release_ev_;
  dont_initialize();
}

gms::Payload& FakeInitiator::make_payload(size_t i) {
  Scripted& s = script[i];
  gms::Payload* t;
  if (s.foreign) {
    foreign_.push_back(std::make_unique<gms::Payload>());
    t = foreign_.back().get();
    buffers_[i].assign(s.len, 0);
    t->set_data_ptr(buffers_[i].data());
    t->set_streaming_width(s.len);
  } else {
    t = &pool_.allocate();
    gms::MemReq& m = gms::req_of(*t);
    m.chunk_mask = s.chunk_mask;
    m.line_addr = gms::line_of(s.addr);
    m.id = i;
    t->set_streaming_width(s.len);
  }
  t->set_command(s.cmd);
  t->set_address(s.addr);
  t->set_data_length(s.len);
  if (!s.data.empty()) std::memcpy(t->get_data_ptr(), s.data.data(), s.len);
  if (!s.enable.empty()) {
    if (s.foreign) throw std::logic_error("test: byte enables only on pooled payloads");
    std::memcpy(gms::PayloadPool::enable_bytes(*t), s.enable.data(), s.len);
  }
  t->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  index_[t] = i;
  return *t;
}

void FakeInitiator::send_due() {
  const uint64_t now = gms::Clock::now_ps();
  while (next_ < script.size() && port_.can_send() && script[next_].send_ps <= now) {
    size_t i = next_++;
    gms::Payload& t = make_payload(i);
    waiting_ = i;
    if (port_.send(t)) {
      if (script[i].accepted_ps == Scripted::kNever) script[i].accepted_ps = now;
      waiting_ = SIZE_MAX;
    }
  }
  if (next_ < script.size() && port_.can_send())
    send_ev_.notify(sc_core::sc_time(double(script[next_].send_ps - now), sc_core::SC_PS));
}

tlm::tlm_sync_enum FakeInitiator::nb_transport_bw(gms::Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  return port_.nb_transport_bw(t, ph, d);
}

bool FakeInitiator::on_response(gms::Payload& t) {
  size_t i = index_.at(&t);
  Scripted& s = script[i];
  s.response_ps = gms::Clock::now_ps();
  s.status = t.get_response_status();
  s.rdata.assign(t.get_data_ptr(), t.get_data_ptr() + s.len);
  if (gms::MemReq* m = gms::find_req(t)) s.chunks_returned = m->chunks_returned;
  response_order.push_back(i);
  if (hold_end_resp_ps) {
    held_ = &t;
    release_ev_.notify(sc_core::sc_time(double(hold_end_resp_ps), sc_core::SC_PS));
    return false;
  }
  if (!s.foreign) t.release();
  return true;
}

void FakeInitiator::release_held() {
  gms::Payload* t = held_;
  held_ = nullptr;
  port_.release_response(*t);
  if (!script[index_.at(t)].foreign) t->release();
}

}  // namespace gms_test
