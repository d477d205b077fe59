#include "models/cache/tag_array.h"

#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gms {

TagArray::TagArray(uint32_t sets, uint32_t ways, uint32_t line_bytes, SetIndexer indexer,
                   std::unique_ptr<ReplacementPolicy> policy)
    : sets_(sets), ways_(ways), line_bytes_(line_bytes), indexer_(indexer), policy_(std::move(policy)) {
  if (ways == 0 || ways > 64) throw std::invalid_argument("tag array: ways must be in [1, 64]");
  if (indexer.sets() != sets) throw std::invalid_argument("tag array: indexer set count differs");
  if (indexer.line_bytes() != line_bytes) throw std::invalid_argument("tag array: indexer line size differs");
  if (!policy_) throw std::invalid_argument("tag array: no replacement policy");
  may_bypass_ = policy_->may_bypass();
  tags_.resize(size_t(sets) * ways);
  masks_.resize(sets);
  all_ways_ = ways == 64 ? ~uint64_t(0) : (uint64_t(1) << ways) - 1;
  // 31 hints of slack to start at a 64 B boundary, 7 more for find()'s last eight-hint group.
  hint_store_.assign(size_t(sets) * ways + 40, hint_of(0));
  const uintptr_t at = reinterpret_cast<uintptr_t>(hint_store_.data());
  hints_ = hint_store_.data() + ((64 - at % 64) % 64) / sizeof(uint16_t);
  data_.assign(size_t(sets) * ways * line_bytes, 0);
}

int TagArray::find(uint64_t line) const {
  line = line_of(line);
  const size_t base = size_t(set_of(line)) * ways_;
  const uint16_t* h = &hints_[base];
  const uint16_t want = hint_of(line);
#if defined(__SSE2__)
  // Eight hints a compare (a 32-way L1 set in four): bits 2w and 2w+1 of the byte mask are way w0+w's.
  // The last group may read up to seven hints past the set (the store's padding) and masks them off.
  const __m128i key = _mm_set1_epi16(int16_t(want));
  for (uint32_t w0 = 0; w0 < ways_; w0 += 8) {
    const __m128i group = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + w0));
    uint32_t m = uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi16(group, key))) & 0x5555u;
    if (ways_ - w0 < 8) m &= (1u << (2 * (ways_ - w0))) - 1;
    for (; m; m &= m - 1) {
      const uint32_t w = w0 + (uint32_t(__builtin_ctz(m)) >> 1);
      const TagEntry& e = tags_[base + w];
      if ((e.valid || e.reserved) && e.line == line) return int(w);
    }
  }
#else
  for (uint32_t w = 0; w < ways_; ++w) {
    if (h[w] != want) continue;
    const TagEntry& e = tags_[base + w];
    if ((e.valid || e.reserved) && e.line == line) return int(w);
  }
#endif
  return -1;
}

uint64_t TagArray::candidates(uint32_t set, int& free_way) const {
  const WayMasks& m = masks_[set];
  const uint64_t free = all_ways_ & ~m.valid & ~m.reserved;
  free_way = free ? int(__builtin_ctzll(free)) : -1;
  return free ? 0 : m.valid & ~m.reserved;
}

int TagArray::choose_victim(uint64_t line) {
  uint32_t set = set_of(line);
  int free_way;
  uint64_t mask = candidates(set, free_way);
  if (free_way >= 0) return free_way;
  if (!mask) return -1;
  return int(policy_->victim(set, mask));
}

int TagArray::choose_victim_or_bypass(uint64_t line) {
  if (!may_bypass_) return choose_victim(line);
  uint32_t set = set_of(line);
  int free_way;
  uint64_t mask = candidates(set, free_way);
  if (free_way >= 0) return free_way;
  if (!mask) return -1;
  uint32_t v = policy_->victim_or_bypass(set, mask);
  return v == ReplacementPolicy::kNoVictim ? kBypass : int(v);
}

void TagArray::install(uint32_t set, uint32_t way, uint64_t line, bool reserved) {
  TagEntry& e = entry(set, way);
  e.line = line_of(line);
  hints_[size_t(set) * ways_ + way] = hint_of(e.line);
  e.valid = !reserved;
  e.reserved = reserved;
  e.sector_valid = 0;
  e.sector_dirty = 0;
  set_masks(set, way, !reserved, reserved);
  policy_->on_fill(set, way);
}

void TagArray::validate(uint32_t set, uint32_t way) {
  TagEntry& e = entry(set, way);
  e.valid = true;
  e.reserved = false;
  set_masks(set, way, true, false);
}

void TagArray::set_reserved(uint32_t set, uint32_t way, bool reserved) {
  TagEntry& e = entry(set, way);
  e.reserved = reserved;
  set_masks(set, way, e.valid, reserved);
}

void TagArray::invalidate(uint32_t set, uint32_t way) {
  TagEntry& e = entry(set, way);
  e.valid = false;
  e.reserved = false;
  e.sector_valid = 0;
  e.sector_dirty = 0;
  set_masks(set, way, false, false);
  policy_->on_invalidate(set, way);
}

uint32_t TagArray::invalidate_all() {
  uint32_t n = 0;
  for (uint32_t s = 0; s < sets_; ++s)
    for (uint32_t w = 0; w < ways_; ++w)
      if (entry(s, w).valid) {
        invalidate(s, w);
        ++n;
      }
  return n;
}

uint32_t TagArray::valid_lines() const {
  uint32_t n = 0;
  for (const TagEntry& e : tags_) n += e.valid;
  return n;
}

}  // namespace gms
