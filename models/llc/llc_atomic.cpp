// LlcSlice: atomics (docs/atomics.md). An atomic is a write whose enabled bytes are operands: each element
// of MemReq::atomic_width bytes (4 or 8, aligned) gets its operand added, modulo 2^(8 width), and the reply
// carries the element's old bytes. When the line holds every such byte valid the atomic is applied at once
// through the write path (dirty bytes, write-through, write combining as for a store); otherwise it waits in
// the MSHR like a read of those bytes and is applied when the fill has made them valid, in arrival order
// with the other waiters of the line. A slice in write-through (a private LLC, paper 004 section 4.1:
// several clusters' slices may hold the line, so none is the point of coherence) forwards the atomic to the
// memory controller, which performs it, and drops its own copy of those bytes.
#include <cstring>

#include "models/common/payload_pool.h"

#include "models/common/atomic_add.h"
#include "models/llc/llc_slice.h"

namespace gms {

namespace {

// For each element whose first byte is in `bytes`: new = line's element + operand (ops indexed from
// `offset`), to out_new, and the line's old bytes to out_old (both indexed from `offset`).
void add_elements(const uint8_t* line, const uint8_t* ops, unsigned offset, ByteMask bytes, unsigned width,
                  uint8_t* out_new, uint8_t* out_old) {
  uint8_t next[kLineBytes];
  std::memcpy(next + offset, line + offset, kLineBytes - offset);
  atomic_add_elements(
      next + offset, ops, kLineBytes - offset, width,
      [&](unsigned i) { return bool(bytes >> (i + offset) & 1); }, out_old);
  std::memcpy(out_new, next + offset, kLineBytes - offset);
}

}  // namespace

bool LlcSlice::try_atomic(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why) {
  const uint8_t width = req_of(t).atomic_width;
  if ((width != 4 && width != 8) || a.offset % width || a.length % width) {  // not a well-formed atomic
    if (hit_pipe_.size() >= p_.response_queue) {
      why = LlcStall::ResponseQueueFull;
      return false;
    }
    ++st_.bad_requests;
    t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    respond_after_latency(t, c);
    return true;
  }
  if (write_through_) return forward_atomic(t, a, why);
  const uint64_t key = keys_.key(a.line);
  const uint32_t set = tags_.set_of(key);
  const int way = tags_.find(key);
  if (way >= 0 && covers(state(set, uint32_t(way)).valid, a.bytes)) {
    // Hit: the new values go through the write path; the reply then carries the old ones.
    uint8_t ops[kLineBytes], old[kLineBytes];
    std::memcpy(ops, t.get_data_ptr(), a.length);
    add_elements(tags_.data(set, uint32_t(way)), ops, a.offset, a.bytes, width, t.get_data_ptr(), old);
    if (!try_write(t, a, c, why)) {
      std::memcpy(t.get_data_ptr(), ops, a.length);  // retried later: nothing changed
      return false;
    }
    copy_masked(t.get_data_ptr(), a.offset, old, a.offset, a.bytes);
    req_of(t).chunks_returned = a.sectors;
    ++st_.atomics;
    ++st_.atomic_hits;
    return true;
  }
  if (!try_read(t, a, c, why, width)) return false;
  ++st_.atomics;
  return true;
}

void LlcSlice::apply_atomic(Payload& t, const Waiter& w, uint32_t set, uint32_t way) {
  uint8_t* line = tags_.data(set, way);
  uint8_t old[kLineBytes];
  // New values straight into the line, old ones into the payload (the operands are read first per element).
  uint8_t next[kLineBytes];
  add_elements(line, t.get_data_ptr(), w.offset, w.need, w.atomic_width, next, old);
  copy_masked(line, 0, next, w.offset, w.need);
  copy_masked(t.get_data_ptr(), w.offset, old, w.offset, w.need);
  LlcLineState& s = state(set, way);
  s.dirty |= w.need;  // written back on eviction or by the kernel-end flush, also under write-through
  sync_sectors(set, way);
}

bool LlcSlice::forward_atomic(Payload& t, const LlcAccess& a, LlcStall& why) {
  if (out_.size() >= p_.miss_queue) {
    why = LlcStall::MissQueueFull;
    return false;
  }
  if (atomics_forwarded_ >= p_.mshr_entries) {
    why = LlcStall::MshrFull;
    return false;
  }
  if (!wb_in_flight_.empty() && writeback_in_flight(a.line)) {  // DRAM may reorder two writes of a line
    why = LlcStall::WritebackPending;
    return false;
  }
  const uint64_t key = keys_.key(a.line);
  const int way = tags_.find(key);
  if (way >= 0) {  // its bytes change in memory: a later read here fetches them again
    const uint32_t set = tags_.set_of(key);
    state(set, uint32_t(way)).valid &= ~a.bytes;
    sync_sectors(set, uint32_t(way));
  }
  Payload& d = env_.pool->allocate();
  d.set_command(tlm::TLM_WRITE_COMMAND);
  d.set_address(t.get_address());
  d.set_data_length(t.get_data_length());
  d.set_streaming_width(t.get_data_length());
  std::memcpy(d.get_data_ptr(), t.get_data_ptr(), t.get_data_length());
  unsigned char* be = PayloadPool::enable_bytes(d);
  std::memset(be, 0, kLineBytes);
  for (unsigned i = 0; i < t.get_data_length(); ++i)
    if (a.bytes >> (a.offset + i) & 1) be[i] = TLM_BYTE_ENABLED;
  const MemReq& o = req_of(t);
  MemReq& r = req_of(d);
  r.sm = o.sm;
  r.warp = o.warp;
  r.cta = o.cta;
  r.pc = o.pc;
  r.src_cluster = o.src_cluster;
  r.kind = MemKind::Atomic;
  r.atomic_width = o.atomic_width;
  r.line_addr = a.line;
  r.chunk_mask = a.sectors;
  r.owner_cookie = &t;
  r.issue_ps = Clock::now_ps();
  out_.push(&d);
  ++atomics_forwarded_;
  ++st_.accesses;
  ++st_.atomics;
  ++st_.atomics_forwarded;
  return true;
}

// The memory controller's answer to a forwarded atomic: the old bytes go to the requester.
void LlcSlice::answer_forwarded_atomics(uint64_t c) {
  while (!atomic_replies_.empty() && hit_pipe_.size() < p_.response_queue) {
    Payload& d = *atomic_replies_.front();
    atomic_replies_.pop_front();
    Payload& t = *static_cast<Payload*>(req_of(d).owner_cookie);
    std::memcpy(t.get_data_ptr(), d.get_data_ptr(), t.get_data_length());
    req_of(t).chunks_returned = req_of(d).chunk_mask;
    req_of(t).llc_hit = false;
    t.set_response_status(d.get_response_status());
    respond_after_latency(t, c);
    d.release();
    --atomics_forwarded_;
    freed(LlcStall::MshrFull);
  }
}

}  // namespace gms
