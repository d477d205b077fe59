// LlcSlice: one timed access of the input-queue head. Every try_* checks all the resources it needs
// first and changes nothing when one is missing (the head is retried), then commits.
#include <stdexcept>

#include "models/llc/llc_slice.h"

namespace gms {

bool LlcSlice::try_access(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why) {
  if (a.ok && a.write && find_req(t) && req_of(t).kind == MemKind::Atomic) return try_atomic(t, a, c, why);
  if (a.ok) return a.write ? try_write(t, a, c, why) : try_read(t, a, c, why);
  if (hit_pipe_.size() >= p_.response_queue) {
    why = LlcStall::ResponseQueueFull;
    return false;
  }
  ++st_.bad_requests;
  t.set_response_status(a.error);
  respond_after_latency(t, c);
  return true;
}

bool LlcSlice::writeback_in_flight(uint64_t line) const {
  for (const WritebackInFlight& w : wb_in_flight_)
    if (w.line == line) return true;
  return false;
}

// A way for a line that has no tag. Waits while a write-back of that line (or of a dirty victim that
// already has one) is unacknowledged: DRAM may reorder requests to one line, a later read or write
// must not overtake it.
bool LlcSlice::plan_allocation(uint64_t key, Allocation& al, unsigned& dram_slots, LlcStall& why) {
  if (!wb_in_flight_.empty() && writeback_in_flight(keys_.line(key))) {
    why = LlcStall::WritebackPending;
    return false;
  }
  const int way = tags_.choose_victim(key);
  if (way < 0) {
    why = LlcStall::WaysReserved;
    return false;
  }
  const uint32_t set = tags_.set_of(key);
  al.way = way;
  al.evict = tags_.is_valid(set, uint32_t(way));
  al.writeback = al.evict && state(set, uint32_t(way)).dirty != 0;
  if (al.writeback) {
    if (!wb_in_flight_.empty() && writeback_in_flight(keys_.line(tags_.entry(set, uint32_t(way)).line))) {
      why = LlcStall::WritebackPending;
      return false;
    }
    ++dram_slots;
  }
  return true;
}

// A new line's fetch cannot enter a full miss queue, and plan_allocation would not fail first (nothing
// written back is pending, some way is unreserved): the result is known without searching for a victim,
// when that search changes nothing (a blocked head's first try, typically).
bool LlcSlice::miss_queue_blocks_allocation(uint32_t set) const {
  if (!victim_pure_ || out_.size() < p_.miss_queue || !wb_in_flight_.empty()) return false;
  return !tags_.all_reserved(set);
}

void LlcSlice::commit_allocation(uint64_t key, uint32_t set, const Allocation& al, bool reserved) {
  const uint32_t way = uint32_t(al.way);
  if (al.evict) {
    ++st_.evictions;
    if (al.writeback) queue_writeback(set, way);
  }
  state(set, way).clear();
  victim_bits_.clear(size_t(set) * p_.ways + way);  // the old line left, the new one starts clear
  tags_.install(set, way, key, reserved);
}

void LlcSlice::serve_victim_bit(Payload& t, uint32_t set, uint32_t way) {
  if (!victim_bits_.enabled() || !t.is_response_ok()) return;
  if (MemReq* r = find_req(t)) r->victim_bit = victim_bits_.serve(size_t(set) * p_.ways + way, r->sm);
}

bool LlcSlice::try_write(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why) {
  if (hit_pipe_.size() >= p_.response_queue) {
    why = LlcStall::ResponseQueueFull;
    return false;
  }
  const uint64_t key = keys_.key(a.line);
  const uint32_t set = tags_.set_of(key);
  int way = tags_.find(key);
  const bool hit = way >= 0;
  // Write-through sends the line's written bytes to DRAM now: one more miss-queue slot, and not while an
  // earlier write of the line is unacknowledged (DRAM may reorder two writes to one line).
  unsigned through = write_through_ ? 1 : 0;
  // A write-through of this line still waiting in the miss queue takes the new bytes too (write
  // combining: no second DRAM write, no wait); one already sent must be acknowledged first.
  WritebackInFlight* merge = nullptr;
  if (through && !wb_in_flight_.empty() && writeback_in_flight(a.line)) {
    merge = hit ? unsent_writeback(a.line) : nullptr;
    if (!merge) {
      why = LlcStall::WritebackPending;
      return false;
    }
    through = 0;
  }
  if (hit && out_.size() + through > p_.miss_queue) {
    why = LlcStall::MissQueueFull;
    return false;
  }
  if (!hit) {
    Allocation al;
    unsigned slots = through;
    if (!plan_allocation(key, al, slots, why)) return false;
    if (out_.size() + slots > p_.miss_queue) {
      why = LlcStall::MissQueueFull;
      return false;
    }
    commit_allocation(key, set, al, false);  // write-allocate without fetch
    way = al.way;
    ++st_.misses;
    ++st_.line_misses;
  } else {
    tags_.touch(set, uint32_t(way));
    ++st_.hits;
  }
  ++st_.accesses;
  ++st_.writes;
  const unsigned written = unsigned(__builtin_popcount(a.sectors));
  st_.sectors += written;
  st_.sector_hits += written;
  // Applied at once, also under a fill in flight: the fill only writes bytes that are not valid.
  LlcLineState& s = state(set, uint32_t(way));
  payload_to_line(tags_.data(set, uint32_t(way)), t, a.offset, a.bytes);
  s.valid |= a.bytes;
  s.dirty |= a.bytes;
  sync_sectors(set, uint32_t(way));
  if (through) queue_writeback(set, uint32_t(way));  // the bytes written so far, the line stays clean
  if (merge) {
    st_.writeback_bytes += count_bytes(a.bytes & ~merge->bytes);
    merge->bytes |= a.bytes;
    make_writeback(*merge->t, a.line, tags_.data(set, uint32_t(way)), merge->bytes);
    ++st_.write_combined;
    s.dirty = 0;
    sync_sectors(set, uint32_t(way));
  }
  if (MemReq* r = find_req(t)) r->llc_hit = hit;
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  respond_after_latency(t, c);
  return true;
}

void LlcSlice::count_read_sectors(uint8_t asked, uint8_t fetched) {
  const unsigned n = unsigned(__builtin_popcount(asked));
  const unsigned hit = n - unsigned(__builtin_popcount(asked & fetched));
  st_.sectors += n;
  st_.sector_hits += hit;
  st_.read_sectors += n;
  st_.read_sector_hits += hit;
}

bool LlcSlice::try_read(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why, uint8_t atomic_width) {
  const uint64_t key = keys_.key(a.line);
  const uint32_t set = tags_.set_of(key);
  int way = tags_.find(key);
  const ByteMask valid = way >= 0 ? state(set, uint32_t(way)).valid : 0;
  if (!atomic_width && way >= 0 && covers(valid, a.bytes)) {  // hit, also on a line with a fill in flight
    if (hit_pipe_.size() >= p_.response_queue) {
      why = LlcStall::ResponseQueueFull;
      return false;
    }
    tags_.touch(set, uint32_t(way));
    ++st_.accesses;
    ++st_.reads;
    ++st_.hits;
    ++st_.read_hits;
    count_read_sectors(a.sectors, 0);
    line_to_payload(t, a.offset, tags_.data(set, uint32_t(way)), a.bytes);
    if (MemReq* r = find_req(t)) {
      r->chunks_returned = a.sectors;
      r->words_returned = a.words;
      r->llc_hit = true;
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    serve_victim_bit(t, set, uint32_t(way));
    respond_after_latency(t, c);
    return true;
  }

  MshrFile::Entry* e = mshr_.find(key);
  if (e ? !mshr_.can_merge(*e) : mshr_.full()) {
    why = e ? LlcStall::MergeFull : LlcStall::MshrFull;
    return false;
  }
  if (way < 0 && miss_queue_blocks_allocation(set)) {  // a new line always fetches
    why = LlcStall::MissQueueFull;
    return false;
  }
  Allocation al;
  unsigned slots = 0;
  if (way < 0 && !plan_allocation(key, al, slots, why)) return false;
  // Sectors not fully valid (a partially written sector is fetched and merged) and not yet requested.
  const uint8_t wanted = p_.fetch == LlcFetch::Line ? kFullChunkMask : a.sectors;
  const uint8_t fetch = uint8_t(wanted & ~full_sectors(valid) & ~(e ? e->issued_chunks : 0));
  if (fetch) ++slots;
  if (out_.size() + slots > p_.miss_queue) {
    why = LlcStall::MissQueueFull;
    return false;
  }

  ++st_.accesses;
  ++st_.reads;
  ++st_.misses;
  count_read_sectors(a.sectors, fetch);
  if (way < 0) {
    commit_allocation(key, set, al, true);
    way = al.way;
    ++st_.line_misses;
  } else {
    tags_.touch(set, uint32_t(way));
    ++st_.sector_misses;
  }
  if (!e) {
    e = &mshr_.allocate(key);
    const uint32_t slot = free_miss_.back();
    free_miss_.pop_back();
    e->cookie = slot;
    miss_[slot] = MissSlot{set, uint32_t(way), 0};
    tags_.set_reserved(set, uint32_t(way), true);  // pinned until the last fill (valid stays as it is)
  } else {
    ++st_.mshr_merges;
  }
  add_waiter(*e, t, a, set, uint32_t(way), atomic_width);
  if (fetch) {
    e->issued_chunks |= fetch;
    queue_fetch(a.line, fetch, t, set, uint32_t(way), e->cookie);
  }
  return true;
}

// The waiter takes the bytes valid now (its view of the line at its access); the rest come from fills.
void LlcSlice::add_waiter(MshrFile::Entry& e, Payload& t, const LlcAccess& a, uint32_t set, uint32_t way,
                          uint8_t atomic_width) {
  Waiter& w = waiter(e.cookie, e.waiters.size());
  w.need = a.bytes;
  w.have = a.bytes & state(set, way).valid;
  w.offset = uint8_t(a.offset);
  w.sectors = a.sectors;
  w.words = a.words;
  w.atomic_width = atomic_width;
  if (!atomic_width)
    line_to_payload(t, a.offset, tags_.data(set, way), w.have);  // an atomic keeps its operands
  e.waiters.push_back(&t);
}

void LlcSlice::queue_fetch(uint64_t line, uint8_t sectors, Payload& origin, uint32_t set, uint32_t way,
                           uint64_t slot) {
  Payload& d = env_.pool->allocate();
  make_fetch(d, line, sectors);
  MemReq& r = req_of(d);
  r.origin_state[0] = &state(set, way);  // what process_fill() reads, for prefetch()
  r.origin_state[1] = &miss_[slot];
  r.origin_state[2] = &waiter(slot, 0);
  if (const MemReq* o = find_req(origin)) {  // who caused it, for DRAM statistics
    r.sm = o->sm;
    r.warp = o->warp;
    r.cta = o->cta;
    r.pc = o->pc;
    r.src_cluster = o->src_cluster;
  }
  r.issue_ps = Clock::now_ps();
  out_.push(&d);
  ++st_.dram_reads;
  st_.dram_read_bytes += uint64_t(popcount8(sectors)) * kChunkBytes;
}

LlcSlice::WritebackInFlight* LlcSlice::unsent_writeback(uint64_t line) {
  for (WritebackInFlight& w : wb_in_flight_)
    if (w.line == line && !w.sent) return &w;
  return nullptr;
}

void LlcSlice::queue_writeback(uint32_t set, uint32_t way) {
  LlcLineState& s = state(set, way);
  const uint64_t line = keys_.line(tags_.entry(set, way).line);
  Payload& d = env_.pool->allocate();
  make_writeback(d, line, tags_.data(set, way), s.dirty);
  req_of(d).issue_ps = Clock::now_ps();
  out_.push(&d);
  wb_in_flight_.push_back({line, &d, s.dirty, false});
  changed();
  ++st_.writebacks;
  st_.writeback_bytes += count_bytes(s.dirty);
  s.dirty = 0;
  sync_sectors(set, way);
}

}  // namespace gms
