#include "models/common/payload_pool.h"

#include <cstring>
#include <typeinfo>

#include "models/common/prefetch.h"

namespace gms {

// A pooled payload is a Slot, so free() finds its buffers with a checked downcast. The MemReq lives in
// the slot beside the payload rather than on the heap: every block reads it per hop, and with hundreds of
// SMs in flight the payloads are cold in host caches, so one neighbouring line beats a pointer chase.
struct PayloadPool::Slot final : tlm::tlm_generic_payload {
  MemReq req;
  unsigned char data[kLineBytes];
  unsigned char be[kLineBytes];
  explicit Slot(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) { set_extension(&req); }
  // The payload's destructor frees the extensions it holds; req is a member, not heap-owned.
  ~Slot() override { clear_extension(&req); }
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
  s->req.reset();
  t.acquire();
  return t;
}

void PayloadPool::free(tlm::tlm_generic_payload* t) {
  Slot* s = static_cast<Slot*>(t);
  --in_use_;
  free_.push_back(s);
}

const MemReq* PayloadPool::pooled_req(const tlm::tlm_generic_payload& t) {
  // Slot is final and its type_info unique in the program: a read of t's vtable pointer and a compare.
  if (typeid(t) != typeid(Slot)) return nullptr;
  return &static_cast<const Slot&>(t).req;
}

void PayloadPool::prefetch_header(const tlm::tlm_generic_payload* t) {
  // The MemReq follows the payload's fields in a Slot (whose layout is private to this file).
  prefetch_lines(t, sizeof(tlm::tlm_generic_payload) + sizeof(MemReq));
}

unsigned char* PayloadPool::enable_bytes(tlm::tlm_generic_payload& t) {
  Slot* s = static_cast<Slot*>(&t);
  std::memset(s->be, 0, sizeof s->be);
  t.set_byte_enable_ptr(s->be);
  t.set_byte_enable_length(kLineBytes);
  return s->be;
}

}  // namespace gms
