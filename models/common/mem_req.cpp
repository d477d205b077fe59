#include "models/common/mem_req.h"

#include "models/common/payload_pool.h"

#include <stdexcept>

namespace gms {

const char* to_string(MemKind k) {
  switch (k) {
    case MemKind::Load:
      return "load";
    case MemKind::Store:
      return "store";
    case MemKind::Atomic:
      return "atomic";
    case MemKind::Flush:
      return "flush";
    case MemKind::Writeback:
      return "writeback";
    case MemKind::Barrier:
      return "barrier";
  }
  return "?";
}

tlm::tlm_extension_base* MemReq::clone() const {
  return new MemReq(*this);
}

void MemReq::copy_from(const tlm::tlm_extension_base& other) {
  *this = static_cast<const MemReq&>(other);
}

MemReq& req_of(tlm::tlm_generic_payload& t) {
  if (MemReq* p = PayloadPool::pooled_req(t)) return *p;
  MemReq* r = t.get_extension<MemReq>();
  if (!r) throw std::logic_error("payload without gms::MemReq extension");
  return *r;
}

const MemReq* find_req(const tlm::tlm_generic_payload& t) {
  if (const MemReq* p = PayloadPool::pooled_req(t)) return p;
  return t.get_extension<MemReq>();
}

MemReq* find_req(tlm::tlm_generic_payload& t) {
  if (MemReq* p = PayloadPool::pooled_req(t)) return p;
  return t.get_extension<MemReq>();
}

}  // namespace gms
