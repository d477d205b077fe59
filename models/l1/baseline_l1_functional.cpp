// BaselineL1: the functional paths. b_transport walks the hierarchy and keeps the cache state (a load
// miss installs its line, a store write-evicts), without contention; transport_dbg goes to memory.
// Neither touches the timed statistics.
#include <cstring>

#include "models/l1/baseline_l1.h"

namespace gms {

void BaselineL1::b_transport(Payload& t, sc_core::sc_time& d) {
  uint64_t addr = t.get_address();
  uint64_t line = tags_.line_of(addr);
  unsigned off = unsigned(addr - line), len = t.get_data_length();
  if (off + len > params_.line_bytes) {
    t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t set = tags_.set_of(line);
  int way = tags_.find(line);
  d += clk_.cycles(params_.hit_latency);
  if (t.is_write()) {
    if (way >= 0 && tags_.entry(set, uint32_t(way)).valid) {
      tags_.invalidate(set, uint32_t(way));
    } else if (way >= 0) {
      if (MshrFile::Entry* e = mshr_.find(line)) e->no_fill = true;
    }
    isock->b_transport(t, d);
    return;
  }
  if (!t.is_read()) {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  MemReq* r = find_req(t);
  if (way >= 0 && tags_.entry(set, uint32_t(way)).valid) {
    tags_.touch(set, uint32_t(way));
    std::memcpy(t.get_data_ptr(), tags_.data(set, uint32_t(way)) + off, len);
    if (r) r->chunks_returned = r->chunk_mask;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  Payload& f = new_downstream(r, tlm::TLM_READ_COMMAND, line);
  isock->b_transport(f, d);
  if (f.is_response_ok()) {
    std::memcpy(t.get_data_ptr(), f.get_data_ptr() + off, len);
    if (way < 0) {  // a reserved way (timed fill in flight) is left to its fill
      int v = tags_.choose_victim(line);
      if (v >= 0) {
        tags_.install(set, uint32_t(v), line, /*reserved=*/false);
        std::memcpy(tags_.data(set, uint32_t(v)), f.get_data_ptr(), params_.line_bytes);
      }
    }
    if (r) r->chunks_returned = r->chunk_mask;
  }
  t.set_response_status(f.get_response_status());
  f.release();
}

unsigned BaselineL1::transport_dbg(Payload& t) {
  unsigned n = isock->transport_dbg(t);
  if (t.is_write()) {  // keep a cached copy equal to memory (L1 lines are never dirty)
    for (unsigned i = 0; i < n; ++i) {
      uint64_t a = t.get_address() + i, line = tags_.line_of(a);
      int way = tags_.find(line);
      uint32_t set = tags_.set_of(line);
      if (way >= 0 && tags_.entry(set, uint32_t(way)).valid)
        tags_.data(set, uint32_t(way))[a - line] = t.get_data_ptr()[i];
    }
  }
  return n;
}

}  // namespace gms
