#include "models/l1/decoupled_tag_store.h"

namespace gms {

DecoupledTagStore::DecoupledTagStore(uint32_t sets, uint32_t ways, uint32_t rc_max)
    : ways_(ways), rc_max_(rc_max), e_(size_t(sets) * ways) {}

int DecoupledTagStore::find(uint32_t set, uint64_t line) const {
  for (uint32_t w = 0; w < ways_; ++w) {
    const DecoupledTagEntry& x = entry(set, w);
    if (x.valid && x.line == line) return int(w);
  }
  return -1;
}

int DecoupledTagStore::victim(uint32_t set) const {
  int best = -1;
  for (uint32_t w = 0; w < ways_; ++w) {
    const DecoupledTagEntry& x = entry(set, w);
    if (!x.valid) return int(w);
    if (x.position >= 0) continue;  // committed: its data line needs it
    if (best < 0) {
      best = int(w);
      continue;
    }
    const DecoupledTagEntry& b = entry(set, uint32_t(best));
    if (x.rc < b.rc || (x.rc == b.rc && x.inserted < b.inserted)) best = int(w);
  }
  return best;
}

void DecoupledTagStore::allocate(uint32_t set, uint32_t way, uint64_t line) {
  DecoupledTagEntry& x = entry(set, way);
  x.line = line;
  x.valid = true;
  x.rc = 1;  // rc_max >= 1: rc_bits is at least 1
  x.position = -1;
  x.inserted = ++stamp_;
}

uint32_t DecoupledTagStore::reference(uint32_t set, uint32_t way) {
  DecoupledTagEntry& x = entry(set, way);
  if (x.rc < rc_max_) ++x.rc;
  return x.rc;
}

void DecoupledTagStore::age(uint32_t set, uint32_t steps, int skip_a, int skip_b) {
  for (uint32_t w = 0; w < ways_; ++w) {
    if (int(w) == skip_a || int(w) == skip_b) continue;
    DecoupledTagEntry& x = entry(set, w);
    if (x.valid) x.rc = x.rc > steps ? x.rc - steps : 0;
  }
}

}  // namespace gms
