#include "models/noc/packet_size.h"

#include "models/common/mem_req.h"

namespace gms {

uint32_t request_data_bytes(const tlm::tlm_generic_payload& t) {
  if (!t.is_write()) return 0;
  if (const MemReq* r = find_req(t)) return kChunkBytes * uint32_t(popcount8(r->chunk_mask));
  return t.get_data_length();
}

uint32_t reply_data_bytes(const tlm::tlm_generic_payload& t) {
  const MemReq* r = find_req(t);
  if (r && r->kind == MemKind::Atomic) return reply_bytes(*r);  // a write whose reply carries the old values
  if (!t.is_read()) return 0;
  if (r) return reply_bytes(*r);
  return t.get_data_length();
}

}  // namespace gms
