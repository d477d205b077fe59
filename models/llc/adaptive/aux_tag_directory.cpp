#include "models/llc/adaptive/aux_tag_directory.h"

#include <algorithm>
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

AuxTagDirectory::Shadow::Shadow(uint32_t sets, uint32_t ways)
    : sets(sets), ways(ways), line(size_t(sets) * ways, 0), valid(size_t(sets) * ways, 0), lru(sets, ways) {}

bool AuxTagDirectory::Shadow::access(uint32_t slot, uint64_t l) {
  const size_t base = size_t(slot) * ways;
  uint64_t occupied = 0;
  int free_way = -1;
  for (uint32_t w = 0; w < ways; ++w) {
    if (!valid[base + w]) {
      if (free_way < 0) free_way = int(w);
      continue;
    }
    occupied |= uint64_t(1) << w;
    if (line[base + w] == l) {
      lru.on_hit(slot, w);
      return true;
    }
  }
  // Miss: an invalid way first (lowest), else LRU among all ways, as the slice's TagArray chooses.
  const uint32_t way = free_way >= 0 ? uint32_t(free_way) : lru.victim(slot, occupied);
  line[base + way] = l;
  valid[base + way] = 1;
  lru.on_fill(slot, way);
  return false;
}

void AuxTagDirectory::Shadow::clear() {
  for (uint32_t s = 0; s < sets; ++s)
    for (uint32_t w = 0; w < ways; ++w) {
      if (valid[size_t(s) * ways + w]) lru.on_invalidate(s, w);
      valid[size_t(s) * ways + w] = 0;
    }
}

namespace {
uint32_t checked_ways(uint32_t ways) {
  if (ways == 0 || ways > 64) throw std::invalid_argument("ATD: ways must be in [1, 64]");
  return ways;
}
}  // namespace

uint64_t AuxTagDirectory::footprint(uint32_t ways, uint32_t sampled_sets, uint32_t clusters,
                                    uint32_t private_ways) {
  const uint64_t pw =
      private_ways ? private_ways : std::max<uint32_t>(1, ways / std::max<uint32_t>(1, clusters));
  const uint64_t entries = uint64_t(sampled_sets) * (ways + uint64_t(std::max<uint32_t>(1, clusters)) * pw);
  const uint64_t shadows = 1 + std::max<uint32_t>(1, clusters);
  return entries * (sizeof(uint64_t) + sizeof(uint8_t) + sizeof(uint64_t)) + shadows * sizeof(Shadow);
}

AuxTagDirectory::AuxTagDirectory(uint32_t slice_sets, uint32_t ways, uint32_t sampled_sets, uint32_t clusters,
                                 uint32_t private_ways)
    : sampled_sets_(sampled_sets),
      stride_(sampled_sets ? slice_sets / sampled_sets : 0),
      private_ways_(private_ways ? private_ways
                                 : std::max<uint32_t>(1, ways / std::max<uint32_t>(1, clusters))),
      shared_(sampled_sets, checked_ways(ways)) {
  if (sampled_sets == 0 || sampled_sets > slice_sets)
    throw std::invalid_argument("ATD: sampled_sets (" + std::to_string(sampled_sets) + ") must be in [1, " +
                                std::to_string(slice_sets) + "] (the slice's sets)");
  if (clusters == 0 || clusters > 64) throw std::invalid_argument("ATD: clusters must be in [1, 64]");
  checked_ways(private_ways_);
  private_.reserve(clusters);
  for (uint32_t c = 0; c < clusters; ++c) private_.emplace_back(sampled_sets, private_ways_);
}

AuxTagDirectory::Outcome AuxTagDirectory::access(uint64_t line, uint32_t set, unsigned cluster) {
  if (!sampled(set)) return Outcome::NotSampled;
  if (cluster >= private_.size())
    throw std::out_of_range("ATD: cluster " + std::to_string(cluster) + " of " +
                            std::to_string(private_.size()));
  const uint32_t slot = set / stride_;
  ++accesses_;
  const bool shared_hit = shared_.access(slot, line);
  if (shared_hit) ++shared_hits_;
  if (private_[cluster].access(slot, line)) {
    ++private_hits_;
    return Outcome::PrivateHit;
  }
  if (shared_hit) return Outcome::CrossHit;
  return Outcome::Miss;
}

void AuxTagDirectory::clear() {
  shared_.clear();
  for (Shadow& p : private_) p.clear();
  reset_counters();
}

}  // namespace gms
