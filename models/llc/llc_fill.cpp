// LlcSlice: a DRAM fill arrives. It writes only the bytes of its sectors that are not valid (stores
// applied while it was in flight win), hands each waiter the bytes it still lacks, answers the waiters
// that are complete, and frees the MSHR entry once every issued sector has arrived.
#include <stdexcept>

#include "models/llc/llc_slice.h"

namespace gms {

void LlcSlice::process_fill(Payload& f, uint64_t c) {
  const MemReq& r = req_of(f);
  const uint64_t key = keys_.key(r.line_addr);
  MshrFile::Entry* e = mshr_.find(key);
  if (!e) throw std::logic_error(std::string(name()) + ": DRAM fill for a line without an MSHR entry");
  const MissSlot& m = miss_[e->cookie];
  // Changes this set's lines and frees MSHR capacity (a dropped line's write-back calls changed()).
  if (m.set == stall_set_)
    changed();
  else
    freed(LlcStall::MshrFull);
  LlcLineState& s = state(m.set, m.way);
  const ByteMask arrived = sector_bytes(r.chunk_mask);
  const bool ok = f.is_response_ok();
  if (ok) {  // an erroneous fill installs nothing; its waiters get the error
    payload_to_line(tags_.data(m.set, m.way), f, 0, arrived & ~s.valid);
    s.valid |= arrived;
    sync_sectors(m.set, m.way);
  }
  ++st_.fills;

  for (size_t i = 0; i < e->waiters.size();) {
    Waiter& w = waiter(e->cookie, i);
    Payload& t = *e->waiters[i];
    const ByteMask add = arrived & w.need & ~w.have;
    if (add) {
      if (!w.atomic_width) copy_masked(t.get_data_ptr(), w.offset, f.get_data_ptr(), 0, add);
      if (!ok) t.set_response_status(f.get_response_status());
      w.have |= add;
    }
    if (w.have != w.need) {
      ++i;
      continue;
    }
    if (t.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (w.atomic_width && t.is_response_ok()) apply_atomic(t, w, m.set, m.way);  // its bytes are valid now
    if (MemReq* q = find_req(t)) {
      q->chunks_returned = w.sectors;
      q->words_returned = w.words;
      q->llc_hit = false;
    }
    serve_victim_bit(t, m.set, m.way);
    answers_.push({&t, c + 1});
    // Keep waiters and their byte masks parallel (a few entries: shifting beats bookkeeping).
    for (size_t k = i + 1; k < e->waiters.size(); ++k) waiter(e->cookie, k - 1) = waiter(e->cookie, k);
    e->waiters.erase(e->waiters.begin() + long(i));
  }

  miss_[e->cookie].filled |= r.chunk_mask;
  if ((miss_[e->cookie].filled & e->issued_chunks) == e->issued_chunks) close_miss(*e);
  f.release();
}

void LlcSlice::close_miss(MshrFile::Entry& e) {
  if (!e.waiters.empty())
    throw std::logic_error(std::string(name()) + ": MSHR entry closed with unanswered waiters");
  const MissSlot m = miss_[e.cookie];
  const bool drop = e.no_fill;  // invalidate_all() ran while the fill was in flight
  free_miss_.push_back(uint32_t(e.cookie));
  mshr_.recycle(mshr_.release(e.line));
  tags_.validate(m.set, m.way);
  if (drop) drop_line(m.set, m.way);
}

}  // namespace gms
