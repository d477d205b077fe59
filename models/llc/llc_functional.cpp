// LlcSlice: the functional (b_transport) and debug (transport_dbg) paths, and the mode-switch
// maintenance operations. The functional path has the timed path's semantics without contention:
// hits come from the line, misses fetch the missing sectors from DRAM by b_transport and install them,
// writes allocate without fetching; the annotated delay grows by `latency` plus DRAM's own delays.
#include <algorithm>
#include <cstring>

#include "models/llc/llc_slice.h"

namespace gms {

void LlcSlice::b_transport(Payload& t, sc_core::sc_time& delay) {
  changed();
  ++st_.requests;
  const LlcAccess a = decode_access(t);
  if (!a.ok) {
    ++st_.bad_requests;
    t.set_response_status(a.error);
  } else {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (a.write)
      functional_write(t, a, delay);
    else
      functional_read(t, a, delay);
    delay += clock_.cycles(p_.latency);
  }
  ++st_.responses;
}

// A way for key, evicting (and writing back by b_transport) a victim; -1 when every way is reserved.
int LlcSlice::functional_allocate(uint64_t key, sc_core::sc_time& delay) {
  const int way = tags_.choose_victim(key);
  if (way < 0) return -1;
  const uint32_t set = tags_.set_of(key), w = uint32_t(way);
  LlcLineState& s = state(set, w);
  if (tags_.entry(set, w).valid) {
    ++st_.evictions;
    if (s.dirty) {
      Payload& d = env_.pool->allocate();
      make_writeback(d, keys_.line(tags_.entry(set, w).line), tags_.data(set, w), s.dirty);
      isock->b_transport(d, delay);
      ++st_.writebacks;
      st_.writeback_bytes += count_bytes(s.dirty);
      d.release();
    }
  }
  s.clear();
  victim_bits_.clear(size_t(set) * p_.ways + w);
  tags_.install(set, w, key, false);
  return way;
}

void LlcSlice::functional_read(Payload& t, const LlcAccess& a, sc_core::sc_time& delay) {
  const uint64_t key = keys_.key(a.line);
  const uint32_t set = tags_.set_of(key);
  int way = tags_.find(key);
  ++st_.accesses;
  ++st_.reads;
  MemReq* r = find_req(t);
  if (r) {
    r->chunks_returned = a.sectors;
    r->words_returned = a.words;
  }
  if (way >= 0 && covers(state(set, uint32_t(way)).valid, a.bytes)) {
    tags_.touch(set, uint32_t(way));
    ++st_.hits;
    ++st_.read_hits;
    line_to_payload(t, a.offset, tags_.data(set, uint32_t(way)), a.bytes);
    if (r) r->llc_hit = true;
    return;
  }
  ++st_.misses;
  if (way >= 0) {
    tags_.touch(set, uint32_t(way));
    ++st_.sector_misses;
  } else {
    ++st_.line_misses;
    way = functional_allocate(key, delay);  // -1: served from DRAM without installing
  }
  if (r) r->llc_hit = false;
  const ByteMask valid = way >= 0 ? state(set, uint32_t(way)).valid : 0;
  const uint8_t wanted = p_.fetch == LlcFetch::Line ? kFullChunkMask : a.sectors;
  const uint8_t fetch = uint8_t(wanted & ~full_sectors(valid));
  Payload& d = env_.pool->allocate();
  make_fetch(d, a.line, fetch);
  isock->b_transport(d, delay);
  ++st_.dram_reads;
  st_.dram_read_bytes += uint64_t(popcount8(fetch)) * kChunkBytes;
  if (!d.is_response_ok()) {
    t.set_response_status(d.get_response_status());
  } else if (way >= 0) {
    const uint32_t w = uint32_t(way);
    LlcLineState& s = state(set, w);
    const ByteMask arrived = sector_bytes(fetch);
    payload_to_line(tags_.data(set, w), d, 0, arrived & ~s.valid);
    s.valid |= arrived;
    sync_sectors(set, w);
    line_to_payload(t, a.offset, tags_.data(set, w), a.bytes);
  } else {
    copy_masked(t.get_data_ptr(), a.offset, d.get_data_ptr(), 0, a.bytes);
  }
  d.release();
}

void LlcSlice::functional_write(Payload& t, const LlcAccess& a, sc_core::sc_time& delay) {
  const uint64_t key = keys_.key(a.line);
  const uint32_t set = tags_.set_of(key);
  int way = tags_.find(key);
  ++st_.accesses;
  ++st_.writes;
  MemReq* r = find_req(t);
  if (r) r->llc_hit = way >= 0;
  if (way >= 0) {
    tags_.touch(set, uint32_t(way));
    ++st_.hits;
  } else {
    ++st_.misses;
    ++st_.line_misses;
    way = functional_allocate(key, delay);
  }
  if (way < 0) {  // every way reserved by timed misses: write through
    Payload& d = env_.pool->allocate();
    make_writeback(d, a.line, tags_.data(set, 0), 0);
    copy_masked(d.get_data_ptr(), 0, t.get_data_ptr(), a.offset, a.bytes);
    unsigned char* be = d.get_byte_enable_ptr();
    for_each_run(a.bytes,
                 [be](unsigned first, unsigned len) { std::memset(be + first, TLM_BYTE_ENABLED, len); });
    req_of(d).chunk_mask = a.sectors;
    isock->b_transport(d, delay);
    if (!d.is_response_ok()) t.set_response_status(d.get_response_status());
    d.release();
    return;
  }
  const uint32_t w = uint32_t(way);
  LlcLineState& s = state(set, w);
  payload_to_line(tags_.data(set, w), t, a.offset, a.bytes);
  s.valid |= a.bytes;
  s.dirty |= a.bytes;
  sync_sectors(set, w);
}

// Reads: DRAM's bytes (by transport_dbg) overlaid with every valid LLC byte. Writes: the LLC copy (if
// any, state unchanged), queued write-backs of the line (so they do not undo the write) and DRAM.
unsigned int LlcSlice::transport_dbg(Payload& t) {
  changed();
  const uint64_t addr = t.get_address();
  const unsigned len = t.get_data_length();
  unsigned char* data = t.get_data_ptr();
  const bool write = t.get_command() == tlm::TLM_WRITE_COMMAND;
  if (!write && t.get_command() != tlm::TLM_READ_COMMAND) return 0;
  const unsigned char* be = t.get_byte_enable_ptr();
  const unsigned be_len = t.get_byte_enable_length();
  unsigned done = len;
  if (!write) done = isock->transport_dbg(t);
  // Line by line in payload offsets (addr + len and line + kLineBytes are 0 at the top of the space).
  unsigned next = 0;
  for (unsigned first = 0; first < len; first = next) {  // first: payload index of line byte lo
    const uint64_t line = line_of(addr + first);
    const unsigned lo = unsigned(addr + first - line);
    const unsigned hi = unsigned(std::min<uint64_t>(lo + uint64_t(len - first), kLineBytes));
    next = first + (hi - lo);
    ByteMask range = range_bytes(lo, hi - lo);
    if (be && be_len) {
      for (unsigned i = lo; i < hi; ++i)
        if (be[(first + i - lo) % be_len] != TLM_BYTE_ENABLED) range &= ~(ByteMask(1) << i);
    }
    unsigned char* piece = data + first;  // payload byte of line byte i: piece[i - lo]
    const uint64_t key = keys_.key(line);
    const int way = tags_.find(key);
    if (!write) {
      if (way >= 0)
        copy_masked(piece, lo, tags_.data(tags_.set_of(key), uint32_t(way)), 0,
                    range & state(tags_.set_of(key), uint32_t(way)).valid);
      continue;
    }
    if (way >= 0) copy_masked(tags_.data(tags_.set_of(key), uint32_t(way)), 0, piece, lo, range);
    for (const WritebackInFlight& w : wb_in_flight_)
      if (w.line == line) copy_masked(w.t->get_data_ptr(), 0, piece, lo, range);
  }
  if (write) done = isock->transport_dbg(t);
  return done;
}

uint32_t LlcSlice::write_back_all() {
  changed();
  uint32_t n = 0;
  for (uint32_t set = 0; set < tags_.sets(); ++set)
    for (uint32_t way = 0; way < p_.ways; ++way) {
      const TagEntry& e = tags_.entry(set, way);
      if ((e.valid || e.reserved) && state(set, way).dirty) {
        queue_writeback(set, way);
        ++n;
      }
    }
  if (n) wake();
  return n;
}

void LlcSlice::drop_line(uint32_t set, uint32_t way) {
  if (state(set, way).dirty) queue_writeback(set, way);
  state(set, way).clear();
  victim_bits_.clear(size_t(set) * p_.ways + way);
  tags_.invalidate(set, way);
  wake();
}

uint32_t LlcSlice::invalidate_all() {
  changed();
  uint32_t n = 0;
  for (uint32_t set = 0; set < tags_.sets(); ++set)
    for (uint32_t way = 0; way < p_.ways; ++way) {
      const TagEntry& e = tags_.entry(set, way);
      if (e.reserved) {
        mshr_.find(e.line)->no_fill = true;  // dropped by close_miss() after its last fill
      } else if (e.valid) {
        drop_line(set, way);
        ++n;
      }
    }
  return n;
}

}  // namespace gms
