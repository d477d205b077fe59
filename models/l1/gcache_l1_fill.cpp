// GCacheL1 at fill time (paper 001, sections 4.1-4.2): the victim bit opens the set's bypass switch, a
// switched-on set whose lines are all hot keeps the fill out (bypass on fill) and ages its lines, else
// the fill replaces the SRRIP victim.
#include <cstring>
#include <stdexcept>

#include "models/l1/gcache_l1.h"

namespace gms {

void GCacheL1::maybe_reset_switches(uint64_t c) {
  const uint64_t n = g_.switch_reset_cycles;
  if (n == 0 || c < next_reset_) return;
  next_reset_ = (c / n + 1) * n;  // reset points passed while idle collapse into this one
  if (switches_on_ == 0) return;
  std::fill(switch_.begin(), switch_.end(), uint8_t(0));
  switches_on_ = 0;
  ++switch_resets_;
  update_probes();
}

void GCacheL1::open_switch(uint32_t set) {
  if (switch_[set]) return;
  switch_[set] = 1;
  ++switches_on_;
  ++switch_opens_;
}

// A free way is never bypassed: there is nothing hot to protect by keeping the line out.
bool GCacheL1::bypass_fill(uint32_t set, bool victim_bit) const {
  if (!switch_[set]) return false;
  const uint32_t th = victim_bit ? g_.victim_hot_threshold : g_.hot_threshold;
  for (uint32_t w = 0; w < tags_.ways(); ++w) {
    if (!tags_.entry(set, w).valid) return false;
    if (srrip_->rrpv(set, w) >= th) return false;
  }
  return true;
}

void GCacheL1::age_set(uint32_t set) {
  for (uint32_t w = 0; w < tags_.ways(); ++w)
    if (tags_.entry(set, w).valid) srrip_->set_rrpv(set, w, srrip_->rrpv(set, w) + 1);  // saturates
}

void GCacheL1::install(uint32_t set, uint64_t line, const unsigned char* data) {
  const int way = tags_.choose_victim(line);  // never -1: no way is ever reserved
  if (way < 0) throw std::logic_error("GCacheL1: no way to install a fill");
  if (tags_.entry(set, uint32_t(way)).valid) ++st_.evictions;
  tags_.install(set, uint32_t(way), line, /*reserved=*/false);  // SRRIP inserts at max - 1
  std::memcpy(tags_.data(set, uint32_t(way)), data, params_.line_bytes);
}

void GCacheL1::on_fill(Payload& down, uint64_t c) {
  maybe_reset_switches(c);
  MemReq& r = req_of(down);
  MshrFile::Entry* e = mshr_.find(r.line_addr);
  if (!e) throw std::logic_error("GCacheL1: fill for a line without an MSHR entry");
  const bool ok = down.is_response_ok();
  const uint8_t got = ok ? r.chunks_returned : 0;
  const uint32_t set = tags_.set_of(r.line_addr);
  ++st_.fills;
  const bool victim_bit = ok && r.victim_bit;
  if (victim_bit) {
    ++victim_bits_returned_;
    open_switch(set);  // the LLC saw this L1 ask for the line before: it was evicted too early
  }
  if (e->no_fill || got != kFullChunkMask) {
    ++st_.fills_dropped;
  } else if (bypass_fill(set, victim_bit)) {
    age_set(set);  // so a line that keeps being bypassed gets in once the set cools down
    ++fill_bypasses_;
  } else {
    install(set, r.line_addr, down.get_data_ptr());
  }
  answer_waiters(r.line_addr, down, got, c);
  down.release();
  update_probes();
}

}  // namespace gms
