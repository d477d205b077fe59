// L1Pipeline: the functional paths. b_transport walks the hierarchy and keeps the design's cache state
// (a load miss may install its line, a store updates the tags as a timed store would), without
// contention; transport_dbg goes to memory and keeps a cached copy equal to it. Neither touches the
// timed statistics.
#include <cstring>

#include "models/l1/l1_pipeline.h"

namespace gms {

void L1Pipeline::b_transport(Payload& t, sc_core::sc_time& d) {
  uint64_t addr = t.get_address();
  uint64_t line = line_of(addr);  // 128 B framing, whatever the design's line size
  unsigned off = unsigned(addr - line), len = t.get_data_length();
  if (off + len > kLineBytes) {
    t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  d += clk_.cycles(params_.hit_latency);
  // The chunks the access touches (len >= 1 for any read or write that reaches a cache).
  uint8_t chunks = 0;
  for (unsigned c = off / kChunkBytes; c <= (off + (len ? len : 1) - 1) / kChunkBytes; ++c)
    chunks = uint8_t(chunks | (1u << c));
  if (t.is_write()) {
    on_store(line, chunks, /*functional=*/true);
    isock->b_transport(t, d);
    return;
  }
  if (!t.is_read()) {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  MemReq* r = find_req(t);
  unsigned char buf[kLineBytes];
  if (functional_read(line, chunks, buf)) {
    std::memcpy(t.get_data_ptr(), buf + off, len);
    if (r) r->chunks_returned = r->chunk_mask;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  Payload& f = new_downstream(r, tlm::TLM_READ_COMMAND, line, kFullChunkMask);
  isock->b_transport(f, d);
  if (f.is_response_ok()) {
    std::memcpy(t.get_data_ptr(), f.get_data_ptr() + off, len);
    functional_install(line, f.get_data_ptr());
    if (r) r->chunks_returned = r->chunk_mask;
  }
  t.set_response_status(f.get_response_status());
  f.release();
}

unsigned L1Pipeline::transport_dbg(Payload& t) {
  unsigned n = isock->transport_dbg(t);
  if (t.is_write())  // keep a cached copy equal to memory (L1 lines are never dirty)
    for (unsigned i = 0; i < n; ++i) functional_write(t.get_address() + i, t.get_data_ptr()[i]);
  return n;
}

}  // namespace gms
