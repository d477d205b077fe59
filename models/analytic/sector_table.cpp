#include "models/analytic/sector_table.h"

#include <algorithm>

namespace gms {

static_assert(SectorTable::kMax == 4, "Line's initialisers list four sectors");

SectorLook SectorTable::look(uint32_t slot, bool in_cache, uint8_t requested, uint64_t t) const {
  const Line& l = lines_[slot];
  SectorLook r;
  for (uint32_t i = 0; i < kMax; ++i) {
    const uint8_t b = uint8_t(1u << i);
    if (!(requested & b)) continue;
    if ((in_cache && (l.valid & b)) || l.fill_at[i] == t) {
      r.valid |= b;
    } else if (l.fill_at[i] != kNever) {
      r.pending |= b;
      r.ready = std::max(r.ready, l.fill_at[i]);
    } else {
      r.missing |= b;
      if (l.evicted & b) r.evicted |= b;
    }
  }
  return r;
}

void SectorTable::allocate(uint32_t slot) {
  lines_[slot].valid = lines_[slot].evicted = 0;
}

void SectorTable::fetch(uint32_t slot, uint8_t m, uint64_t fill) {
  Line& l = lines_[slot];
  for (uint32_t i = 0; i < kMax; ++i)
    if (m & (1u << i)) l.fill_at[i] = fill;
  l.evicted &= uint8_t(~m);
}

bool SectorTable::land(uint32_t slot, bool in_cache, uint64_t seq, uint64_t time, uint8_t sectors,
                       uint8_t fetched, uint8_t kept) {
  Line& l = lines_[slot];
  uint8_t live = 0;  // sectors of the access no later store wrote
  for (uint32_t i = 0; i < kMax; ++i)
    if (seq >= l.written_at[i]) live |= uint8_t(1u << i);
  if (sectors && !(sectors & live)) return false;
  if (!in_cache) l.valid = l.evicted = 0;
  const uint8_t arrived = uint8_t(fetched & live);
  for (uint32_t i = 0; i < kMax; ++i)
    if ((arrived & (1u << i)) && l.fill_at[i] == time) l.fill_at[i] = kNever;
  const uint8_t now = uint8_t((arrived | kept) & live);
  l.valid |= now;
  l.evicted &= uint8_t(~now);
  return true;
}

bool SectorTable::store_evict(uint32_t slot, bool in_cache, uint8_t w, uint64_t t) {
  Line& l = lines_[slot];
  bool pending = false;
  for (uint32_t i = 0; i < kMax; ++i) {
    const uint8_t b = uint8_t(1u << i);
    if (w & b) {
      l.written_at[i] = t + 1;
      if (l.fill_at[i] != kNever) {  // stale: its fill is not installed
        l.fill_at[i] = kNever;
        l.evicted |= b;
      }
    }
    pending |= l.fill_at[i] != kNever;
  }
  if (!in_cache) return false;
  l.evicted |= uint8_t(l.valid & w);
  l.valid &= uint8_t(~w);
  return !l.valid && !pending;
}

}  // namespace gms
