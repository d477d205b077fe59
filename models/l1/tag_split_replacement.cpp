// TagSplitStore allocation and replacement (paper 000 sec. 3.3). An invalid chunk is usable for a miss
// only if its group is empty or has the miss's shared tag: taking one in a group of another shared tag
// would change the tag and so invalidate the group. Without enough usable chunks, victims are chosen by
// NRU among the chunks that may be replaced (not reserved, not the missing line's own): NRU-0 chunks
// first, randomly (the block's seeded Rng), then NRU-1 randomly. A victim in a group of the miss's shared
// tag frees that chunk; a victim in a group of another shared tag retags the group, so all its chunks are
// invalidated and usable. Every victim is invalidated in the same step (write-evict L1: no write-back).
#include "models/l1/tag_split_store.h"

namespace gms {

void TagSplitStore::usable_free(uint32_t set, uint64_t stag, std::vector<uint32_t>& out) const {
  out.clear();
  for (int pass = 0; pass < 2; ++pass)  // groups of the same shared tag, then empty groups
    for (uint32_t g = 0; g < groups_; ++g) {
      const Group& gr = group(set, g);
      const bool take = pass == 0 ? (gr.live && gr.stag == stag) : gr.live == 0;
      if (!take) continue;
      for (uint32_t i = g * per_group_; i < (g + 1) * per_group_; ++i)
        if (!chunk(set, i).valid && !chunk(set, i).reserved) out.push_back(i);
    }
}

bool TagSplitStore::reserve(uint64_t line, Mask m, uint32_t& evicted, uint32_t& retagged) {
  evicted = retagged = 0;
  const Key k = key_of(line);
  const uint32_t need = uint32_t(__builtin_popcount(m));
  std::vector<uint32_t>& free = scratch_;
  usable_free(k.set, k.stag, free);
  if (free.size() < need) {
    // Room if every replaceable chunk went: same-tag chunks one by one, other-tag groups whole.
    auto foreign_ok = [&](uint32_t g) {
      const Group& gr = group(k.set, g);
      if (!gr.live || gr.stag == k.stag) return false;
      for (uint32_t i = g * per_group_; i < (g + 1) * per_group_; ++i)
        if (chunk(k.set, i).reserved) return false;
      return true;
    };
    auto replaceable = [&](uint32_t i) {
      const Chunk& c = chunk(k.set, i);
      if (!c.valid) return false;
      const uint32_t g = i / per_group_;
      if (group(k.set, g).stag == k.stag) return c.ptag != k.ptag;
      return foreign_ok(g);
    };
    uint64_t room = free.size();
    for (uint32_t g = 0; g < groups_; ++g) {
      if (foreign_ok(g)) {
        room += per_group_;
        continue;
      }
      const Group& gr = group(k.set, g);
      if (gr.live && gr.stag == k.stag)
        for (uint32_t i = g * per_group_; i < (g + 1) * per_group_; ++i) room += replaceable(i);
    }
    if (room < need) return false;
    std::vector<uint32_t>& cand = scratch2_;
    uint32_t have = uint32_t(free.size());
    while (have < need) {
      cand.clear();
      for (int nru = 0; nru < 2 && cand.empty(); ++nru)
        for (uint32_t i = 0; i < per_set_; ++i)
          if (replaceable(i) && chunk(k.set, i).nru == bool(nru)) cand.push_back(i);
      const uint32_t v = cand[rng_.below(cand.size())];
      const uint32_t g = v / per_group_;
      if (group(k.set, g).stag == k.stag) {
        drop(k.set, v);
        ++evicted;
        ++have;
      } else {  // the group takes the miss's shared tag: everything in it goes
        for (uint32_t i = g * per_group_; i < (g + 1) * per_group_; ++i)
          if (chunk(k.set, i).valid) {
            drop(k.set, i);
            ++evicted;
          }
        ++retagged;
        have += per_group_;
      }
    }
    usable_free(k.set, k.stag, free);
  }
  uint32_t used = 0;
  for (uint32_t pos = 0; pos < per_group_ && used < need; ++pos) {
    if (!(m >> pos & 1u)) continue;
    const uint32_t i = free[used++];
    Chunk& c = chunk(k.set, i);
    Group& gr = group(k.set, i / per_group_);
    gr.stag = k.stag;  // an empty group takes the shared tag (a same-tag group keeps it)
    ++gr.live;
    c.ptag = k.ptag;
    c.offset = uint8_t(pos);
    c.valid = false;
    c.reserved = true;
    mark_nru(k.set, i);
  }
  return true;
}

}  // namespace gms
