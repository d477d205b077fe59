// BaselineL1: the access path (hit / hit_pending / miss / reservation fail), stores, fills.
#include <cstring>
#include <stdexcept>

#include "models/common/payload_pool.h"
#include "models/l1/baseline_l1.h"

namespace gms {

namespace {
void copy_chunks(unsigned char* dst, const unsigned char* src, uint8_t mask) {
  for (unsigned c = 0; c < kChunksPerLine; ++c)
    if (mask & (1u << c)) std::memcpy(dst + c * kChunkBytes, src + c * kChunkBytes, kChunkBytes);
}
}  // namespace

bool BaselineL1::reservation_fail(Counter& cause) {
  ++st_.reservation_fails;
  ++cause;
  held_cause_ = &cause;
  return false;
}

bool BaselineL1::try_access(Payload& t, uint64_t c) {
  last_access_cycle_ = c;
  ++st_.accesses;
  uint64_t line = tags_.line_of(t.get_address());
  bool well_formed = t.get_address() == line && t.get_data_length() == params_.line_bytes &&
                     (t.is_read() || t.is_write()) && find_req(t) != nullptr;
  if (!well_formed) {  // not a GPU line request: answer with an error, touch nothing
    t.set_response_status(t.is_read() || t.is_write() ? tlm::TLM_BURST_ERROR_RESPONSE
                                                      : tlm::TLM_COMMAND_ERROR_RESPONSE);
    queue_response(t, c + params_.hit_latency);
    return true;
  }
  return t.is_read() ? try_load(t, line, c) : try_store(t, line, c);
}

bool BaselineL1::try_load(Payload& t, uint64_t line, uint64_t c) {
  MemReq& r = req_of(t);
  uint32_t set = tags_.set_of(line);
  int way = tags_.find(line);
  if (way >= 0 && tags_.entry(set, uint32_t(way)).valid) {
    tags_.touch(set, uint32_t(way));
    copy_chunks(t.get_data_ptr(), tags_.data(set, uint32_t(way)), r.chunk_mask);
    r.chunks_returned = r.chunk_mask;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    queue_response(t, c + params_.hit_latency);
    ++st_.loads;
    ++st_.hits;
    update_probes();
    return true;
  }
  if (way >= 0) {  // reserved: the line's fill is in flight
    MshrFile::Entry* e = mshr_.find(line);
    if (!e) throw std::logic_error("L1: reserved line without an MSHR entry");
    if (e->no_fill) return reservation_fail(st_.rf_no_fill);
    if (!mshr_.can_merge(*e)) return reservation_fail(st_.rf_merge);
    e->waiters.push_back(&t);
    ++st_.loads;
    ++st_.hit_pending;
    return true;
  }
  if (mshr_.full()) return reservation_fail(st_.rf_mshr);
  if (miss_queue_used(c) >= params_.miss_queue_entries) return reservation_fail(st_.rf_miss_queue);
  int victim = tags_.choose_victim(line);
  if (victim < 0) return reservation_fail(st_.rf_line);
  if (tags_.entry(set, uint32_t(victim)).valid) ++st_.evictions;
  tags_.install(set, uint32_t(victim), line, /*reserved=*/true);
  MshrFile::Entry& e = mshr_.allocate(line);
  e.cookie = uint64_t(victim);
  e.issued_chunks = kFullChunkMask;
  e.waiters.push_back(&t);
  queue_downstream(new_downstream(&r, tlm::TLM_READ_COMMAND, line), c + 1);
  ++st_.loads;
  ++st_.misses;
  update_probes();
  return true;
}

bool BaselineL1::try_store(Payload& t, uint64_t line, uint64_t c) {
  if (miss_queue_used(c) >= params_.miss_queue_entries) return reservation_fail(st_.rf_miss_queue);
  MemReq& r = req_of(t);
  int way = tags_.find(line);
  if (way >= 0) {
    uint32_t set = tags_.set_of(line);
    if (tags_.entry(set, uint32_t(way)).valid) {
      tags_.invalidate(set, uint32_t(way));  // write-evict
      ++st_.write_evicts;
    } else {
      MshrFile::Entry* e = mshr_.find(line);
      if (!e) throw std::logic_error("L1: reserved line without an MSHR entry");
      if (!e->no_fill) ++st_.no_fill_marks;
      e->no_fill = true;  // the fill would hold pre-store data
    }
  }
  Payload& w = new_downstream(&r, tlm::TLM_WRITE_COMMAND, line);
  std::memcpy(w.get_data_ptr(), t.get_data_ptr(), params_.line_bytes);
  unsigned char* be = PayloadPool::enable_bytes(w);
  const unsigned char* src_be = t.get_byte_enable_ptr();
  unsigned be_len = t.get_byte_enable_length();
  uint8_t mask = r.chunk_mask ? r.chunk_mask : kFullChunkMask;
  for (unsigned i = 0; i < params_.line_bytes; ++i)
    be[i] = src_be && be_len ? src_be[i % be_len] : ((mask >> (i / kChunkBytes)) & 1u ? TLM_BYTE_ENABLED : 0);
  req_of(w).chunk_mask = mask;
  req_of(w).owner_cookie = &t;
  queue_downstream(w, c + 1);
  ++st_.stores;
  return true;
}

Payload& BaselineL1::new_downstream(const MemReq* from, tlm::tlm_command cmd, uint64_t line) {
  Payload& d = env_.pool->allocate();
  d.set_command(cmd);
  d.set_address(line);
  d.set_data_length(params_.line_bytes);
  d.set_streaming_width(params_.line_bytes);
  MemReq& r = req_of(d);
  if (from) {
    r.sm = from->sm;
    r.warp = from->warp;
    r.cta = from->cta;
    r.pc = from->pc;
    r.src_cluster = from->src_cluster;
  } else {
    r.sm = sm_id_;
  }
  r.kind = cmd == tlm::TLM_WRITE_COMMAND ? MemKind::Store : MemKind::Load;
  r.line_addr = line;
  r.chunk_mask = kFullChunkMask;
  r.id = ++next_id_;
  r.issue_ps = Clock::now_ps();
  return d;
}

void BaselineL1::handle_arrival(Payload& down, uint64_t c) {
  unblock_held(c);  // a fill frees an MSHR entry and a way; an acknowledgement changes nothing, cheaply
  if (down.is_read()) return fill(down, c);
  Payload* sm = static_cast<Payload*>(req_of(down).owner_cookie);  // store acknowledged
  sm->set_response_status(down.get_response_status());
  queue_response(*sm, c);
  down.release();
}

void BaselineL1::fill(Payload& down, uint64_t c) {
  MemReq& r = req_of(down);
  MshrFile::Entry* e = mshr_.find(r.line_addr);
  if (!e) throw std::logic_error("L1: fill for a line without an MSHR entry");
  uint32_t set = tags_.set_of(r.line_addr), way = uint32_t(e->cookie);
  const TagEntry& te = tags_.entry(set, way);
  if (!te.reserved || te.line != r.line_addr)
    throw std::logic_error("L1: fill for a way that is not reserved for it");
  bool ok = down.is_response_ok();
  uint8_t got = ok ? r.chunks_returned : 0;
  ++st_.fills;
  st_.from_l2_bytes += uint64_t(popcount8(got)) * kChunkBytes;
  if (!e->no_fill && got == kFullChunkMask) {
    std::memcpy(tags_.data(set, way), down.get_data_ptr(), params_.line_bytes);
    tags_.validate(set, way);
  } else {
    tags_.invalidate(set, way);  // frees the reserved way
    ++st_.fills_dropped;
  }
  auto waiters = mshr_.release(r.line_addr);
  for (Payload* w : waiters) {
    MemReq& wr = req_of(*w);
    wr.chunks_returned = wr.chunk_mask & got;
    copy_chunks(w->get_data_ptr(), down.get_data_ptr(), wr.chunks_returned);
    w->set_response_status(ok ? tlm::TLM_OK_RESPONSE : down.get_response_status());
    queue_response(*w, c);
  }
  mshr_.recycle(std::move(waiters));
  down.release();
  update_probes();
}

void BaselineL1::update_probes() {
  probe_mshr_.set(uint32_t(mshr_.size()));
  probe_hits_.set(st_.hits.value);
  probe_misses_.set(st_.misses.value);
}

}  // namespace gms
