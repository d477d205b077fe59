// L1Pipeline: the access dispatch, write-through stores, bypassed loads and the arrivals (fills, bypass
// replies, store acknowledgements).
#include <algorithm>
#include <cstring>
#include <iterator>
#include <stdexcept>

#include "models/common/payload_pool.h"
#include "models/l1/l1_pipeline.h"

namespace gms {

void L1Pipeline::copy_chunks(unsigned char* dst, const unsigned char* src, uint8_t mask) {
  for (unsigned c = 0; c < kChunksPerLine; ++c)
    if (mask & (1u << c)) std::memcpy(dst + c * kChunkBytes, src + c * kChunkBytes, kChunkBytes);
}

bool L1Pipeline::reservation_fail(Counter& cause) {
  ++st_.reservation_fails;
  ++cause;
  held_cause_ = &cause;
  return false;
}

bool L1Pipeline::try_access(Payload& t, uint64_t c) {
  last_access_cycle_ = c;
  ++st_.accesses;
  uint64_t line = line_of(t.get_address());
  bool well_formed = t.get_address() == line && t.get_data_length() == kLineBytes &&
                     (t.is_read() || t.is_write()) && find_req(t) != nullptr;
  if (well_formed && params_.line_bytes < kLineBytes && t.is_read()) {
    // Small lines: the SM coalesces to the L1's line size, so a load asks for chunks of one line.
    const uint8_t m = req_of(t).chunk_mask;
    well_formed = m != 0 && (m & ~line_part(m)) == 0;
  }
  if (!well_formed) {  // not a GPU line request: answer with an error, touch nothing
    t.set_response_status(t.is_read() || t.is_write() ? tlm::TLM_BURST_ERROR_RESPONSE
                                                      : tlm::TLM_COMMAND_ERROR_RESPONSE);
    queue_response(t, c + params_.hit_latency);
    return true;
  }
  if (!t.is_write()) return try_load(t, line, c);
  if (req_of(t).kind == MemKind::Atomic) return try_atomic(t, line, c);
  return try_store(t, line, c);
}

// The design serves the load; the pipeline keeps paper 000's per-instruction miss count (an instruction's
// lines reach the L1 one after another, so a change of MemReq::inst starts the next instruction).
bool L1Pipeline::try_load(Payload& t, uint64_t line, uint64_t c) {
  const uint64_t missed_before = st_.misses.value + st_.partial_hits.value + st_.bypasses.value;
  const uint64_t bypassed_before = st_.bypasses.value;
  if (!access_load(t, line, c)) return false;
  if (pulse_hit_.on()) {  // the outcome of this load, as a one-cycle pulse in the VCD
    const uint64_t missed = st_.misses.value + st_.partial_hits.value + st_.bypasses.value;
    Probe<bool>& p = st_.bypasses.value != bypassed_before ? pulse_bypass_
                     : missed != missed_before             ? pulse_miss_
                                                           : pulse_hit_;
    p.pulse(clk_.cycles(1));
  }
  const MemReq& r = req_of(t);
  if (r.inst != last_inst_ || r.inst == 0) {
    last_inst_ = r.inst;
    last_inst_missed_ = false;
    ++st_.load_insts;
  }
  if (!last_inst_missed_ && st_.misses.value + st_.partial_hits.value + st_.bypasses.value != missed_before) {
    last_inst_missed_ = true;
    ++st_.load_insts_missed;
  }
  return true;
}

bool L1Pipeline::try_store(Payload& t, uint64_t line, uint64_t c) {
  if (miss_queue_full(c)) return reservation_fail(st_.rf_miss_queue);
  MemReq& r = req_of(t);
  uint8_t mask = r.chunk_mask ? r.chunk_mask : kFullChunkMask;
  if (params_.store_policy == StorePolicy::WriteAllocate)
    on_store_allocate(t, line, mask);
  else
    on_store(line, mask, /*functional=*/false);
  forward_write(t, line, mask, c);
  ++st_.stores;
  return true;
}

// An atomic is performed at the LLC (docs/atomics.md): whatever the store policy, the L1's copy of the
// line is dropped (write-evict; a fill in flight installs nothing), and the request goes down as it came,
// its operands as data.
bool L1Pipeline::try_atomic(Payload& t, uint64_t line, uint64_t c) {
  if (miss_queue_full(c)) return reservation_fail(st_.rf_miss_queue);
  MemReq& r = req_of(t);
  const uint8_t mask = r.chunk_mask ? r.chunk_mask : kFullChunkMask;
  on_store(line, mask, /*functional=*/false);
  Payload& w = forward_write(t, line, mask, c);
  req_of(w).kind = MemKind::Atomic;
  req_of(w).atomic_width = r.atomic_width;
  ++st_.atomics;
  return true;
}

Payload& L1Pipeline::forward_write(Payload& t, uint64_t line, uint8_t mask, uint64_t c) {
  MemReq& r = req_of(t);
  Payload& w = new_downstream(&r, tlm::TLM_WRITE_COMMAND, line, mask);
  std::memcpy(w.get_data_ptr(), t.get_data_ptr(), kLineBytes);
  unsigned char* be = PayloadPool::enable_bytes(w);
  const unsigned char* src_be = t.get_byte_enable_ptr();
  unsigned be_len = t.get_byte_enable_length();
  if (src_be && be_len >= kLineBytes) {
    std::memcpy(be, src_be, kLineBytes);
  } else if (src_be && be_len) {  // a short pattern repeats (TLM rule)
    for (unsigned i = 0, k = 0; i < kLineBytes; ++i, k = k + 1 == be_len ? 0 : k + 1) be[i] = src_be[k];
  } else {
    for (unsigned i = 0; i < kLineBytes; ++i) be[i] = (mask >> (i / kChunkBytes)) & 1u ? TLM_BYTE_ENABLED : 0;
  }
  req_of(w).owner_cookie = &t;
  queue_downstream(w, c + 1);
  return w;
}

bool L1Pipeline::bypass_load(Payload& t, uint64_t line, uint64_t c) {
  if (miss_queue_full(c)) return reservation_fail(st_.rf_miss_queue);
  MemReq& r = req_of(t);
  Payload& d = new_downstream(&r, tlm::TLM_READ_COMMAND, line, r.chunk_mask ? r.chunk_mask : kFullChunkMask);
  req_of(d).owner_cookie = &t;  // a read with an owner is a bypass: its reply answers t directly
  queue_downstream(d, c + 1);
  count_load(r, kFullChunkMask);
  ++st_.bypasses;
  update_probes();
  return true;
}

Payload& L1Pipeline::new_downstream(const MemReq* from, tlm::tlm_command cmd, uint64_t line, uint8_t chunks) {
  Payload& d = env_.pool->allocate();
  d.set_command(cmd);
  d.set_address(line);
  d.set_data_length(kLineBytes);  // every request is framed as its 128 B line; chunk_mask says which part
  d.set_streaming_width(kLineBytes);
  MemReq& r = req_of(d);
  if (from) {
    r.sm = from->sm;
    r.warp = from->warp;
    r.cta = from->cta;
    r.pc = from->pc;
    r.src_cluster = from->src_cluster;
    // A fill answers its first requester in the same L1 run: the prefetch hook reaches the requester's
    // records through the fill.
    std::copy(std::begin(from->origin_state), std::end(from->origin_state), std::begin(r.origin_state));
  } else {
    r.sm = sm_id_;
  }
  r.kind = cmd == tlm::TLM_WRITE_COMMAND ? MemKind::Store : MemKind::Load;
  r.line_addr = line;
  r.chunk_mask = chunks;
  r.id = ++next_id_;
  r.issue_ps = Clock::now_ps();
  return d;
}

void L1Pipeline::handle_arrival(Payload& down, uint64_t c) {
  unblock_held(c);  // a fill frees an MSHR entry and a way; an acknowledgement changes nothing, cheaply
  Payload* sm = static_cast<Payload*>(req_of(down).owner_cookie);
  if (down.is_read()) {  // fill or bypass reply: its data counted here once, for every design
    st_.from_l2_packets += reply_packets(req_of(down));
    if (down.is_response_ok()) st_.from_l2_bytes += reply_bytes(req_of(down));
  } else if (req_of(down).kind == MemKind::Atomic) {  // the old values of the atomic's bytes
    st_.from_l2_packets += reply_packets(req_of(down));
    if (down.is_response_ok()) st_.from_l2_bytes += reply_bytes(req_of(down));
    if (sm) std::memcpy(sm->get_data_ptr(), down.get_data_ptr(), kLineBytes);
  } else {
    ++st_.from_l2_packets;  // the store's acknowledgement
  }
  if (down.is_read() && !sm) return on_fill(down, c);
  if (down.is_read()) {  // bypass reply: straight to the SM, the cache untouched
    MemReq& d = req_of(down);
    MemReq& r = req_of(*sm);
    uint8_t got = down.is_response_ok() ? d.chunks_returned : 0;
    r.chunks_returned = r.chunk_mask & got;
    copy_chunks(sm->get_data_ptr(), down.get_data_ptr(), r.chunks_returned);
  }
  sm->set_response_status(down.get_response_status());  // store acknowledged or bypass answered
  queue_response(*sm, c);
  down.release();
}

void L1Pipeline::answer_waiters(uint64_t line, Payload& down, uint8_t got, uint64_t c) {
  bool ok = down.is_response_ok();
  auto waiters = mshr_.release(line);
  for (Payload* w : waiters) {
    MemReq& wr = req_of(*w);
    wr.chunks_returned = wr.chunk_mask & got;
    copy_chunks(w->get_data_ptr(), down.get_data_ptr(), wr.chunks_returned);
    w->set_response_status(ok ? tlm::TLM_OK_RESPONSE : down.get_response_status());
    queue_response(*w, c);
  }
  mshr_.recycle(std::move(waiters));
}

void L1Pipeline::write_probes() {
  probe_mshr_.set(uint32_t(mshr_.size()));
  probe_hits_.set(st_.hits.value);
  probe_misses_.set(st_.misses.value);
  probe_partial_hits_.set(st_.partial_hits.value);
  probe_bypasses_.set(st_.bypasses.value);
}

}  // namespace gms
