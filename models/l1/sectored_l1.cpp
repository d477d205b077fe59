// SectoredL1: loads, stores and fills of the chunk-masked miss path.
#include "models/l1/sectored_l1.h"

#include <cstring>
#include <stdexcept>

#include "models/common/byte_enables.h"

namespace gms {

SectoredL1::SectoredL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env,
                       unsigned granule_bytes, uint32_t extra_hit_latency)
    : L1Pipeline(name, p, sm_id, env), granule_(granule_bytes), extra_hit_(extra_hit_latency) {
  if (granule_ < kWordBytes || granule_ > kLineBytes / 2 || (granule_ & (granule_ - 1)))
    throw std::invalid_argument(std::string(basename()) + ": granule must be 8, 16, 32 or 64 bytes");
}

SectoredL1::~SectoredL1() = default;

void SectoredL1::invalidate_all() {
  ++st_.flushes;
  st_.flushed_lines += invalidate_storage();
}

SectoredL1::Mask SectoredL1::granules_of_chunks(uint8_t chunks) const {
  Mask m = 0;
  if (granule_ >= kChunkBytes) {
    const unsigned per = granule_ / kChunkBytes;  // chunks per granule
    for (unsigned g = 0; g < granules(); ++g)
      if ((chunks >> (g * per)) & ((1u << per) - 1)) m = Mask(m | 1u << g);
    return m;
  }
  const unsigned per = kChunkBytes / granule_;  // granules per chunk
  for (unsigned c = 0; c < kChunksPerLine; ++c)
    if (chunks >> c & 1u) m = Mask(m | ((1u << per) - 1) << (c * per));
  return m;
}

SectoredL1::Mask SectoredL1::granules_of_words(uint16_t words) const {
  const unsigned per = granule_ / kWordBytes;  // words per granule
  Mask m = 0;
  for (unsigned g = 0; g < granules(); ++g)
    if ((words >> (g * per)) & ((1u << per) - 1)) m = Mask(m | 1u << g);
  return m;
}

uint8_t SectoredL1::chunks_of(Mask m) const {
  uint8_t c = 0;
  for (unsigned g = 0; g < granules(); ++g)
    if (m >> g & 1u)
      for (unsigned b = g * granule_ / kChunkBytes; b <= ((g + 1) * granule_ - 1) / kChunkBytes; ++b)
        c = uint8_t(c | 1u << b);
  return c;
}

uint16_t SectoredL1::words_of(Mask m) const {
  const unsigned per = granule_ / kWordBytes;
  uint16_t w = 0;
  for (unsigned g = 0; g < granules(); ++g)
    if (m >> g & 1u) w = uint16_t(w | ((1u << per) - 1) << (g * per));
  return w;
}

SectoredL1::Mask SectoredL1::wanted_granules(const MemReq& r) const {
  const uint8_t chunks = r.chunk_mask ? r.chunk_mask : kFullChunkMask;
  if (granule_ < kChunkBytes && r.word_mask) {
    const Mask m = granules_of_words(uint16_t(r.word_mask & words_of_chunks(chunks)));
    if (m) return m;
  }
  return granules_of_chunks(chunks);
}

// A granule came back when all of its words (or, without words, all of its chunks) did.
SectoredL1::Mask SectoredL1::granules_returned(const MemReq& reply) const {
  Mask m = 0;
  const uint16_t words = reply.words_returned ? reply.words_returned : words_of_chunks(reply.chunks_returned);
  const unsigned per = granule_ / kWordBytes;
  const unsigned all = (1u << per) - 1;
  for (unsigned g = 0; g < granules(); ++g)
    if (((words >> (g * per)) & all) == all) m = Mask(m | 1u << g);
  return m;
}

void SectoredL1::copy_granules(unsigned char* dst, const unsigned char* src, Mask m) const {
  for (unsigned g = 0; m; ++g, m = Mask(m >> 1))
    if (m & 1u) std::memcpy(dst + g * granule_, src + g * granule_, granule_);
}

bool SectoredL1::access_load(Payload& t, uint64_t line, uint64_t c) {
  MemReq& r = req_of(t);
  const Mask want = wanted_granules(r);
  const Mask access = Mask(access_mask(line, want) | want);
  const Mask have = Mask(cached(line) & access);
  if (have == access) {  // hit: every granule the access asks for is here
    read(line, want, t.get_data_ptr());
    answer_hit(t, chunks_of(want), c + hit_cycles());  // whole granules: 64 B ones carry a neighbour too
    return true;
  }
  MshrFile::Entry* e = mshr_.find(line);
  const Mask missing = Mask(access & ~have);
  const Mask pending = e ? pending_of(*e) : 0;
  if (e && (missing & stale_of(*e))) return reservation_fail(st_.rf_no_fill);
  const Mask fetch = Mask(missing & ~pending);
  const Mask wait = Mask(want & ~have);
  if (wait && e && !mshr_.can_merge(*e)) return reservation_fail(st_.rf_merge);
  if (fetch) {
    if (!e && mshr_.full()) return reservation_fail(st_.rf_mshr);
    if (miss_queue_full(c)) return reservation_fail(st_.rf_miss_queue);
    if (!reserve(line, fetch)) return reservation_fail(st_.rf_line);
  }
  // Committed: read what is here, wait for the rest.
  if (have & want) read(line, Mask(have & want), t.get_data_ptr());
  if (fetch) {
    if (!e) {
      e = &mshr_.allocate(line);
      set_state(*e, 0, 0);
    }
    set_state(*e, Mask(pending_of(*e) | fetch), stale_of(*e));
    Payload& d = new_downstream(&r, tlm::TLM_READ_COMMAND, line, chunks_of(fetch));
    if (granule_ < kChunkBytes) req_of(d).word_mask = words_of(fetch);
    queue_downstream(d, c + 1);
    on_fetch(line, fetch);
  }
  count_load(r, chunks_of(Mask(want & fetch)));
  if (!fetch)
    ++st_.hit_pending;
  else if (have)
    ++st_.partial_hits;
  else
    ++st_.misses;
  if (wait) {
    r.wait_mask = wait;
    e->waiters.push_back(&t);
  } else {  // TSC+ coarse mode: the SM's chunks are all here, the rest of the line is being fetched
    r.chunks_returned = chunks_of(want);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    queue_response(t, c + hit_cycles());
  }
  update_probes();
  return true;
}

void SectoredL1::on_store(uint64_t line, uint8_t chunks, bool functional) {
  const Mask w = granules_of_chunks(chunks);
  const Mask here = Mask(cached(line) & w);
  if (here && invalidate(line, here) && !functional) ++st_.write_evicts;
  mark_stale(line, w, functional);
}

void SectoredL1::mark_stale(uint64_t line, Mask written, bool functional) {
  if (MshrFile::Entry* e = mshr_.find(line)) {
    const Mask newly = Mask(pending_of(*e) & written & ~stale_of(*e));
    if (newly) {
      set_state(*e, pending_of(*e), Mask(stale_of(*e) | newly));
      if (!functional) ++st_.no_fill_marks;
    }
  }
}

// Write-allocate with lazy fetch on read (Accel-Sim's Volta+ L1): valid granules take the written bytes,
// invalid granules the store writes completely are installed (room made as for a miss; none if every
// candidate is pending), partly written invalid ones stay invalid (a later load fetches them; L2 has the
// bytes, the store is written through). A granule whose fill is in flight is marked stale as under
// write-evict.
void SectoredL1::on_store_allocate(Payload& t, uint64_t line, uint8_t chunks) {
  const unsigned char* data = t.get_data_ptr();
  const unsigned char* be = t.get_byte_enable_ptr();
  const unsigned be_len = be ? t.get_byte_enable_length() : 0;
  // Bit i: line byte i is written (its chunk is stored and its enable set; no enables: every byte). A
  // granule's bits never straddle the two words.
  uint64_t written[2] = {~uint64_t(0), ~uint64_t(0)};
  if (be_len) enabled_bits(be, be_len, kLineBytes, written);
  for (unsigned c = 0; c < kChunksPerLine; ++c)
    if (!(chunks >> c & 1u)) written[c / 2] &= ~(uint64_t(0xffffffff) << (32 * (c % 2)));
  const uint64_t granule_bits = granule_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << granule_) - 1;
  const Mask w = granules_of_chunks(chunks);
  const Mask here = Mask(cached(line) & w);
  Mask full = 0;
  for (unsigned g = 0; g < granules(); ++g) {
    if (!(w >> g & 1u)) continue;
    const unsigned first = g * granule_;
    const uint64_t bits = (written[first >> 6] >> (first & 63)) & granule_bits;
    if (bits == granule_bits) full = Mask(full | 1u << g);
    if (here >> g & 1u)
      for (unsigned i = 0; i < granule_; ++i)
        if (bits >> i & 1u) patch(line, first + i, data[first + i]);
  }
  MshrFile::Entry* e = mshr_.find(line);
  const Mask install = Mask(full & ~cached(line) & ~(e ? pending_of(*e) : 0));
  mark_stale(line, w, false);
  if (install && reserve(line, install)) {
    fill(line, install, data);
    st_.store_installs += unsigned(__builtin_popcount(install));
  }
}

void SectoredL1::on_fill(Payload& down, uint64_t c) {
  MemReq& d = req_of(down);
  const uint64_t line = d.line_addr;
  MshrFile::Entry* e = mshr_.find(line);
  if (!e) throw std::logic_error(std::string(basename()) + ": fill for a line without an MSHR entry");
  const bool ok = down.is_response_ok();
  const Mask asked = granule_ < kChunkBytes && d.word_mask ? granules_of_words(d.word_mask)
                                                           : granules_of_chunks(d.chunk_mask);
  const Mask got = ok ? Mask(asked & granules_returned(d)) : Mask(0);
  Mask pending = pending_of(*e), stale = stale_of(*e);
  const Mask install = Mask(got & ~stale);
  ++st_.fills;
  if (install) fill(line, install, down.get_data_ptr());
  if (asked & ~install) {
    unreserve(line, Mask(asked & ~install));
    ++st_.fills_dropped;
  }
  set_state(*e, Mask(pending & ~asked), Mask(stale & ~asked));
  auto& ws = e->waiters;
  size_t kept = 0;
  for (size_t i = 0; i < ws.size(); ++i) {
    Payload* w = ws[i];
    MemReq& wr = req_of(*w);
    const Mask mine = Mask(wr.wait_mask & asked);
    if (mine) {  // stale granules too: the waiter is older than the store that made them stale
      copy_granules(w->get_data_ptr(), down.get_data_ptr(), Mask(mine & got));
      if (mine & ~got)
        w->set_response_status(ok ? tlm::TLM_GENERIC_ERROR_RESPONSE : down.get_response_status());
      wr.wait_mask = Mask(wr.wait_mask & ~asked);
    }
    if (wr.wait_mask) {
      ws[kept++] = w;
      continue;
    }
    if (w->get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
      w->set_response_status(tlm::TLM_OK_RESPONSE);
      wr.chunks_returned = chunks_of(wanted_granules(wr));
    }
    queue_response(*w, c);
  }
  ws.resize(kept);
  if (pending_of(*e) == 0) {
    if (!ws.empty()) throw std::logic_error(std::string(basename()) + ": MSHR entry closed with waiters");
    mshr_.recycle(mshr_.release(line));
  }
  down.release();
  update_probes();
}

bool SectoredL1::functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) {
  const Mask m = granules_of_chunks(chunks);
  if ((cached(line) & m) != m) return false;
  read(line, m, dst);
  return true;
}

void SectoredL1::functional_install(uint64_t line, const unsigned char* data) {
  if (mshr_.find(line)) return;  // a timed fill is on its way: leave the line to it
  const Mask m = Mask(full_mask() & ~cached(line));
  if (!m) return;
  functional_ = true;
  if (reserve(line, m)) fill(line, m, data);
  functional_ = false;
}

void SectoredL1::functional_write(uint64_t addr, unsigned char byte) {
  const uint64_t line = line_of(addr);
  patch(line, unsigned(addr - line), byte);
}

}  // namespace gms
