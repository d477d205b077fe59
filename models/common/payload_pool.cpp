#include "models/common/payload_pool.h"

#include <cstring>

namespace gms {

// A pooled payload is a Slot, so free() finds its buffers with a checked downcast.
struct PayloadPool::Slot : tlm::tlm_generic_payload {
  MemReq* req = nullptr;
  unsigned char data[kLineBytes];
  unsigned char be[kLineBytes];
  explicit Slot(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {
    req = new MemReq;
    set_extension(req);  // owned by the payload: deleted by its destructor
  }
};

PayloadPool::PayloadPool() = default;
PayloadPool::~PayloadPool() = default;

tlm::tlm_generic_payload& PayloadPool::allocate() {
  Slot* s;
  if (free_.empty()) {
    all_.push_back(std::make_unique<Slot>(this));
    s = all_.back().get();
  } else {
    s = free_.back();
    free_.pop_back();
  }
  ++allocated_;
  ++in_use_;
  tlm::tlm_generic_payload& t = *s;
  t.set_command(tlm::TLM_IGNORE_COMMAND);
  t.set_address(0);
  t.set_data_ptr(s->data);
  t.set_data_length(kLineBytes);
  t.set_streaming_width(kLineBytes);
  t.set_byte_enable_ptr(nullptr);
  t.set_byte_enable_length(0);
  t.set_dmi_allowed(false);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  t.set_gp_option(tlm::TLM_MIN_PAYLOAD);
  s->req->reset();
  t.acquire();
  return t;
}

void PayloadPool::free(tlm::tlm_generic_payload* t) {
  Slot* s = static_cast<Slot*>(t);
  --in_use_;
  free_.push_back(s);
}

unsigned char* PayloadPool::enable_bytes(tlm::tlm_generic_payload& t) {
  Slot* s = static_cast<Slot*>(&t);
  std::memset(s->be, 0, sizeof s->be);
  t.set_byte_enable_ptr(s->be);
  t.set_byte_enable_length(kLineBytes);
  return s->be;
}

}  // namespace gms
