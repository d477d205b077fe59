#include "models/l1/sector_l1.h"

#include <stdexcept>

namespace gms {

SectorL1::SectorL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env)
    : SectoredL1(name, p, sm_id, env, kChunkBytes, 0),
      tags_(p.sets(), p.ways, kLineBytes, SetIndexer(p.set_index, p.sets(), kLineBytes),
            make_replacement(p.replacement, p.sets(), p.ways, rng_)),
      pending_(size_t(p.sets()) * p.ways, 0) {
  if (p.line_bytes != kLineBytes) throw ConfigError("l1.line_bytes: the sector cache has 128 B lines");
}

SectorL1::~SectorL1() = default;

int SectorL1::way_of(uint64_t line, uint32_t& set) const {
  set = tags_.set_of(line);
  return tags_.find(line);
}

SectoredL1::Mask SectorL1::cached(uint64_t line) {
  uint32_t set;
  const int way = way_of(line, set);
  return way < 0 ? Mask(0) : Mask(tags_.entry(set, uint32_t(way)).sector_valid);
}

void SectorL1::read(uint64_t line, Mask m, unsigned char* dst) {
  uint32_t set;
  const uint32_t way = uint32_t(way_of(line, set));
  tags_.touch(set, way);
  copy_granules(dst, tags_.data(set, way), m);
}

bool SectorL1::reserve(uint64_t line, Mask m) {
  uint32_t set;
  int way = way_of(line, set);
  if (way < 0) {  // allocate the line: a free way, else the policy's victim among unpinned lines
    way = tags_.choose_victim(line);
    if (way < 0) return false;
    if (tags_.is_valid(set, uint32_t(way))) count_evictions(1);
    tags_.install(set, uint32_t(way), line, /*reserved=*/false);
  }
  tags_.set_reserved(set, uint32_t(way), true);  // pinned until its pending sectors arrive
  pending_[size_t(set) * tags_.ways() + uint32_t(way)] |= uint8_t(m);
  return true;
}

void SectorL1::fill(uint64_t line, Mask m, const unsigned char* src) {
  uint32_t set;
  const int way = way_of(line, set);
  if (way < 0) throw std::logic_error(std::string(basename()) + ": sector fill for a line not allocated");
  TagEntry& e = tags_.entry(set, uint32_t(way));
  copy_granules(tags_.data(set, uint32_t(way)), src, m);
  e.sector_valid |= uint8_t(m);
  uint8_t& p = pending_[size_t(set) * tags_.ways() + uint32_t(way)];
  p &= uint8_t(~m);
  if (!p) tags_.set_reserved(set, uint32_t(way), false);
}

void SectorL1::unreserve(uint64_t line, Mask m) {
  uint32_t set;
  const int way = way_of(line, set);
  if (way < 0) return;
  uint8_t& p = pending_[size_t(set) * tags_.ways() + uint32_t(way)];
  p &= uint8_t(~m);
  if (!p) tags_.set_reserved(set, uint32_t(way), false);
  release_if_empty(set, uint32_t(way));
}

unsigned SectorL1::invalidate(uint64_t line, Mask m) {
  uint32_t set;
  const int way = way_of(line, set);
  if (way < 0) return 0;
  TagEntry& e = tags_.entry(set, uint32_t(way));
  const unsigned n = unsigned(popcount8(uint8_t(e.sector_valid & m)));
  e.sector_valid &= uint8_t(~m);
  release_if_empty(set, uint32_t(way));
  return n;
}

// A line with no valid and no pending sector gives its way back.
void SectorL1::release_if_empty(uint32_t set, uint32_t way) {
  const TagEntry& e = tags_.entry(set, way);
  if (e.valid && !e.sector_valid && !pending_[size_t(set) * tags_.ways() + way]) tags_.invalidate(set, way);
}

void SectorL1::patch(uint64_t line, unsigned offset, unsigned char byte) {
  uint32_t set;
  const int way = way_of(line, set);
  if (way >= 0 && (tags_.entry(set, uint32_t(way)).sector_valid >> (offset / kChunkBytes) & 1u))
    tags_.data(set, uint32_t(way))[offset] = byte;
}

uint32_t SectorL1::invalidate_storage() {
  uint32_t n = 0;
  for (uint32_t s = 0; s < tags_.sets(); ++s)
    for (uint32_t w = 0; w < tags_.ways(); ++w) {
      TagEntry& e = tags_.entry(s, w);
      if (!e.valid || !e.sector_valid) continue;
      ++n;
      e.sector_valid = 0;
      release_if_empty(s, w);
    }
  return n;
}

}  // namespace gms
