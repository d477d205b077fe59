#include "models/l1/decoupled_sectored_cache.h"

#include <cstring>

namespace gms {

DecoupledSectoredCache::DecoupledSectoredCache(sc_core::sc_module_name name, const L1Params& p,
                                               unsigned sm_id, const BlockEnv& env)
    : SectoredL1(name, p, sm_id, env, kChunkBytes, 0),
      k_(p.dsc.tags_per_frame),
      indexer_(p.set_index, p.sets(), kLineBytes),
      policy_(make_replacement(p.replacement, p.sets(), p.ways * p.dsc.tags_per_frame, rng_)),
      tags_(size_t(p.sets()) * p.ways * p.dsc.tags_per_frame),
      slots_(size_t(p.sets()) * p.ways * kChunksPerLine),
      data_(size_t(p.sets()) * p.ways * kLineBytes, 0) {
  if (p.line_bytes != kLineBytes)
    throw ConfigError("l1.line_bytes: the decoupled sectored cache has 128 B frames");
  if (p.ways * k_ > 64)
    throw ConfigError("l1.dsc.tags_per_frame: ways x tags_per_frame must be at most 64, is " +
                      std::to_string(p.ways * k_));
}

DecoupledSectoredCache::~DecoupledSectoredCache() = default;

int DecoupledSectoredCache::find(uint64_t line, uint32_t set) {
  for (uint32_t t = 0; t < frames() * k_; ++t)
    if (tag(set, t).live && tag(set, t).line == line) return int(t);
  return -1;
}

SectoredL1::Mask DecoupledSectoredCache::cached(uint64_t line) {
  const uint32_t set = indexer_.set_of(line);
  const int t = find(line, set);
  if (t < 0) return 0;
  Mask m = 0;
  for (unsigned p = 0; p < kChunksPerLine; ++p) {
    const Slot& s = slot(set, uint32_t(t) / k_, p);
    if (s.valid && s.owner == uint32_t(t) % k_) m = Mask(m | 1u << p);
  }
  return m;
}

void DecoupledSectoredCache::read(uint64_t line, Mask m, unsigned char* dst) {
  const uint32_t set = indexer_.set_of(line);
  const int t = find(line, set);
  if (t < 0) return;
  policy_->on_hit(set, uint32_t(t));
  copy_granules(dst, data(set, uint32_t(t) / k_), m);
}

void DecoupledSectoredCache::clear_slot(uint32_t set, uint32_t f, unsigned p) {
  Slot& s = slot(set, f, p);
  if (!s.valid && !s.reserved) return;
  Tag& owner = tag(set, f * k_ + s.owner);
  if (--owner.live == 0) policy_->on_invalidate(set, f * k_ + s.owner);
  s.valid = s.reserved = false;
}

bool DecoupledSectoredCache::slots_free_of_reserved(uint32_t set, uint32_t f, Mask m) {
  for (unsigned p = 0; p < kChunksPerLine; ++p)
    if ((m >> p & 1u) && slot(set, f, p).reserved) return false;
  return true;
}

// A line with a tag takes slots m of its frame (evicting other tags' sectors there). A new line takes a
// free tag whose frame has slots m empty, else a free tag whose frame's slots m hold no pending sector,
// else the policy's victim tag among tags with no pending sector whose frame allows it (its sectors go).
bool DecoupledSectoredCache::reserve(uint64_t line, Mask m) {
  const uint32_t set = indexer_.set_of(line);
  int t = find(line, set);
  if (t >= 0 && !slots_free_of_reserved(set, uint32_t(t) / k_, m)) return false;
  if (t < 0) {
    auto empty = [&](uint32_t f) {
      for (unsigned p = 0; p < kChunksPerLine; ++p)
        if ((m >> p & 1u) && (slot(set, f, p).valid || slot(set, f, p).reserved)) return false;
      return true;
    };
    for (int pass = 0; pass < 2 && t < 0; ++pass)
      for (uint32_t c = 0; c < frames() * k_ && t < 0; ++c)
        if (!tag(set, c).live && (pass == 0 ? empty(c / k_) : slots_free_of_reserved(set, c / k_, m)))
          t = int(c);
    if (t < 0) {
      uint64_t cand = 0;
      for (uint32_t c = 0; c < frames() * k_; ++c) {
        bool pinned = false;
        for (unsigned p = 0; p < kChunksPerLine; ++p) {
          const Slot& s = slot(set, c / k_, p);
          if (s.reserved && s.owner == c % k_) pinned = true;
        }
        if (!pinned && slots_free_of_reserved(set, c / k_, m)) cand |= uint64_t(1) << c;
      }
      if (!cand) return false;
      t = int(policy_->victim(set, cand));
      uint64_t dropped = 0;
      for (unsigned p = 0; p < kChunksPerLine; ++p) {
        const Slot& s = slot(set, uint32_t(t) / k_, p);
        if (s.valid && s.owner == uint32_t(t) % k_) {
          clear_slot(set, uint32_t(t) / k_, p);
          ++dropped;
        }
      }
      count_evictions(dropped);
    }
    tag(set, uint32_t(t)).line = line;
    policy_->on_fill(set, uint32_t(t));
  }
  const uint32_t f = uint32_t(t) / k_;
  uint64_t displaced = 0;
  for (unsigned p = 0; p < kChunksPerLine; ++p) {
    if (!(m >> p & 1u)) continue;
    if (slot(set, f, p).valid) {
      clear_slot(set, f, p);
      ++displaced;
    }
    Slot& s = slot(set, f, p);
    s.owner = uint8_t(uint32_t(t) % k_);
    s.reserved = true;
    ++tag(set, uint32_t(t)).live;
  }
  count_evictions(displaced);
  return true;
}

void DecoupledSectoredCache::fill(uint64_t line, Mask m, const unsigned char* src) {
  const uint32_t set = indexer_.set_of(line);
  const int t = find(line, set);
  if (t < 0) return;
  const uint32_t f = uint32_t(t) / k_;
  for (unsigned p = 0; p < kChunksPerLine; ++p) {
    Slot& s = slot(set, f, p);
    if (!(m >> p & 1u) || !s.reserved || s.owner != uint32_t(t) % k_) continue;
    std::memcpy(data(set, f) + p * kChunkBytes, src + p * kChunkBytes, kChunkBytes);
    s.reserved = false;
    s.valid = true;
  }
}

void DecoupledSectoredCache::unreserve(uint64_t line, Mask m) {
  const uint32_t set = indexer_.set_of(line);
  const int t = find(line, set);
  if (t < 0) return;
  for (unsigned p = 0; p < kChunksPerLine; ++p) {
    const Slot& s = slot(set, uint32_t(t) / k_, p);
    if ((m >> p & 1u) && s.reserved && s.owner == uint32_t(t) % k_) clear_slot(set, uint32_t(t) / k_, p);
  }
}

unsigned DecoupledSectoredCache::invalidate(uint64_t line, Mask m) {
  const uint32_t set = indexer_.set_of(line);
  const int t = find(line, set);
  if (t < 0) return 0;
  unsigned n = 0;
  for (unsigned p = 0; p < kChunksPerLine; ++p) {
    const Slot& s = slot(set, uint32_t(t) / k_, p);
    if ((m >> p & 1u) && s.valid && s.owner == uint32_t(t) % k_) {
      clear_slot(set, uint32_t(t) / k_, p);
      ++n;
    }
  }
  return n;
}

void DecoupledSectoredCache::patch(uint64_t line, unsigned offset, unsigned char byte) {
  const uint32_t set = indexer_.set_of(line);
  const int t = find(line, set);
  if (t < 0) return;
  const Slot& s = slot(set, uint32_t(t) / k_, offset / kChunkBytes);
  if (s.valid && s.owner == uint32_t(t) % k_) data(set, uint32_t(t) / k_)[offset] = byte;
}

uint32_t DecoupledSectoredCache::invalidate_storage() {
  uint32_t n = 0;
  for (uint32_t set = 0; set < params_.sets(); ++set)
    for (uint32_t f = 0; f < frames(); ++f)
      for (unsigned p = 0; p < kChunksPerLine; ++p)
        if (slot(set, f, p).valid) {
          clear_slot(set, f, p);
          ++n;
        }
  return n;
}

}  // namespace gms
