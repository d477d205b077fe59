#include "models/llc/adaptive/aux_tag_directory.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace gms {

const char* to_string(AuxTagDirectory::Outcome o) {
  switch (o) {
    case AuxTagDirectory::Outcome::NotSampled:
      return "not_sampled";
    case AuxTagDirectory::Outcome::PrivateHit:
      return "private_hit";
    case AuxTagDirectory::Outcome::CrossHit:
      return "cross_hit";
    case AuxTagDirectory::Outcome::Miss:
      return "miss";
  }
  return "?";
}

AuxTagDirectory::AuxTagDirectory(uint32_t slice_sets, uint32_t ways, uint32_t sampled_sets)
    : ways_(ways),
      sampled_sets_(sampled_sets),
      stride_(sampled_sets ? slice_sets / sampled_sets : 0),
      entries_(size_t(sampled_sets) * ways),
      lru_(sampled_sets, ways) {
  if (ways == 0 || ways > 64) throw std::invalid_argument("ATD: ways must be in [1, 64]");
  if (sampled_sets == 0 || sampled_sets > slice_sets)
    throw std::invalid_argument("ATD: sampled_sets (" + std::to_string(sampled_sets) + ") must be in [1, " +
                                std::to_string(slice_sets) + "] (the slice's sets)");
}

AuxTagDirectory::Outcome AuxTagDirectory::access(uint64_t line, uint32_t set, unsigned cluster) {
  if (!sampled(set)) return Outcome::NotSampled;
  if (cluster > std::numeric_limits<uint16_t>::max()) throw std::out_of_range("ATD: cluster out of range");
  const uint32_t slot = set / stride_;
  Entry* e = set_entries(slot);
  ++accesses_;
  uint64_t occupied = 0;
  int free_way = -1;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!e[w].valid) {
      if (free_way < 0) free_way = int(w);
      continue;
    }
    occupied |= uint64_t(1) << w;
    if (e[w].line != line) continue;
    // The paper's rule: a hit is a private hit only for the cluster that touched the line last; either
    // way the line now belongs to the requester (its private slice would have fetched it).
    const bool same = e[w].cluster == cluster;
    e[w].cluster = uint16_t(cluster);
    lru_.on_hit(slot, w);
    if (same) {
      ++private_hits_;
      return Outcome::PrivateHit;
    }
    ++cross_hits_;
    return Outcome::CrossHit;
  }
  // Miss: an invalid way first (lowest), else LRU among all ways, as the slice's TagArray chooses.
  const uint32_t way = free_way >= 0 ? uint32_t(free_way) : lru_.victim(slot, occupied);
  e[way] = Entry{line, uint16_t(cluster), true};
  lru_.on_fill(slot, way);
  return Outcome::Miss;
}

void AuxTagDirectory::clear() {
  for (uint32_t s = 0; s < sampled_sets_; ++s)
    for (uint32_t w = 0; w < ways_; ++w) {
      if (entries_[size_t(s) * ways_ + w].valid) lru_.on_invalidate(s, w);
      entries_[size_t(s) * ways_ + w] = Entry{};
    }
  reset_counters();
}

}  // namespace gms
