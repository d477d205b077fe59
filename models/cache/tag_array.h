// Tags, state and data of a set-associative cache, with a pluggable set index and replacement policy.
// A way is valid (line present), reserved (allocated on a miss, fill pending) or free. Sector bits are
// for sectored designs and the LLC (dirty sectors); the baseline L1 leaves them alone.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/cache/replacement.h"
#include "models/cache/set_index.h"
#include "models/common/prefetch.h"

namespace gms {

struct TagEntry {
  uint64_t line = 0;  // line address (byte address with the offset bits cleared)
  bool valid = false;
  bool reserved = false;  // allocated, fill pending
  uint8_t sector_valid = 0;
  uint8_t sector_dirty = 0;
};

class TagArray {
 public:
  TagArray(uint32_t sets, uint32_t ways, uint32_t line_bytes, SetIndexer indexer,
           std::unique_ptr<ReplacementPolicy> policy);
  // Movable (the hint buffer moves with its pointer), not copyable.
  TagArray(TagArray&&) = default;
  TagArray& operator=(TagArray&&) = default;
  TagArray(const TagArray&) = delete;
  TagArray& operator=(const TagArray&) = delete;

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint32_t line_bytes() const { return line_bytes_; }
  uint32_t set_of(uint64_t addr) const { return indexer_.set_of(addr); }
  uint64_t line_of(uint64_t addr) const { return addr & ~uint64_t(line_bytes_ - 1); }

  // Way holding line (valid or reserved) in its set, or -1.
  int find(uint64_t line) const;
  // An invalid, unreserved way first (lowest index), else the policy's victim among the unreserved
  // ways; -1 if every way is reserved. Changes no tag state (SRRIP may age its RRPVs).
  int choose_victim(uint64_t line);
  // As choose_victim, but a bypassing policy (PDP) may refuse: kBypass when every unreserved way is
  // protected. With any other policy it is choose_victim.
  static constexpr int kBypass = -2;
  int choose_victim_or_bypass(uint64_t line);
  bool policy_may_bypass() const { return may_bypass_; }
  // A served access to the set (way: the line it hit or filled, -1 if none); only bypassing policies
  // are told, so the others pay one predictable branch.
  void note_access(uint32_t set, int way) {
    if (may_bypass_) policy_->on_access(set, way);
  }

  // Software prefetch of what a lookup in `set` reads first (its hints and way masks); changes nothing.
  void prefetch_set(uint32_t set) const {
    prefetch_hint(&masks_[set]);
    prefetch_hint(&hints_[size_t(set) * ways_]);
    prefetch_hint(&hints_[size_t(set) * ways_ + ways_ - 1]);
  }
  TagEntry& entry(uint32_t set, uint32_t way) { return tags_[size_t(set) * ways_ + way]; }
  // entry(set, way).valid and .reserved from the per-set masks, which choose_victim() has just read: a
  // victim's entry need not be loaded to learn whether something is evicted (cold with large caches).
  bool is_valid(uint32_t set, uint32_t way) const { return masks_[set].valid >> way & 1; }
  bool all_reserved(uint32_t set) const { return (masks_[set].reserved & all_ways_) == all_ways_; }
  const TagEntry& entry(uint32_t set, uint32_t way) const { return tags_[size_t(set) * ways_ + way]; }
  void touch(uint32_t set, uint32_t way) { policy_->on_hit(set, way); }
  // Sets the tag, valid = !reserved, clears the sector bits; the policy sees a fill.
  void install(uint32_t set, uint32_t way, uint64_t line, bool reserved);
  // A reserved way's fill arrived: valid, no longer reserved (the policy saw the fill at install).
  void validate(uint32_t set, uint32_t way);
  // Pins a way (fills pending) or unpins it, valid bit untouched. Designs change `reserved` only through
  // here and install/validate/invalidate, which keep the per-set masks choose_victim() reads.
  void set_reserved(uint32_t set, uint32_t way, bool reserved);
  void invalidate(uint32_t set, uint32_t way);
  // Invalidates every valid line; reserved ways stay pending (their fills are still in flight).
  // Returns how many lines were invalidated.
  uint32_t invalidate_all();
  uint32_t valid_lines() const;

  uint8_t* data(uint32_t set, uint32_t way) { return &data_[(size_t(set) * ways_ + way) * line_bytes_]; }
  ReplacementPolicy& policy() { return *policy_; }
  const SetIndexer& indexer() const { return indexer_; }

 private:
  // The unreserved valid ways of the set; `free_way` = the lowest free way, or -1.
  uint64_t candidates(uint32_t set, int& free_way) const;
  // Per set, bit w = way w's valid and reserved flags (mirrors of the entries): choose_victim() reads 16 B
  // instead of scanning every entry of the set (512 B for 32 ways, cold in host caches with 132 L1s).
  struct WayMasks {
    uint64_t valid = 0, reserved = 0;
  };
  void set_masks(uint32_t set, uint32_t way, bool valid, bool reserved) {
    WayMasks& m = masks_[set];
    const uint64_t bit = uint64_t(1) << way;
    m.valid = valid ? m.valid | bit : m.valid & ~bit;
    m.reserved = reserved ? m.reserved | bit : m.reserved & ~bit;
  }
  std::vector<WayMasks> masks_;
  uint64_t all_ways_ = 0;
  uint32_t sets_, ways_, line_bytes_;
  SetIndexer indexer_;
  std::unique_ptr<ReplacementPolicy> policy_;
  bool may_bypass_ = false;
  std::vector<TagEntry> tags_;
  // A 16-bit hash of each way's line, beside the entries: find() scans 2 B per way instead of 16 B, so a
  // 32-way set's hints fit one host cache line (the H100 preset's 132 L1s and 80 slices keep tags cold in
  // host caches). Hashed, not low bits: the lines of one set share their index bits.
  std::vector<uint16_t> hint_store_;  // hints_ points into it, at a 64 B boundary
  uint16_t* hints_ = nullptr;
  static uint16_t hint_of(uint64_t line) { return uint16_t((line * 0x9e3779b97f4a7c15ULL) >> 48); }
  std::vector<uint8_t> data_;
};

}  // namespace gms
