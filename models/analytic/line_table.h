// Per-line state of one core's stacks: dense slots 0, 1, ... in order of first reference, stored in
// fixed-size pages (growing never copies and never holds two copies at once), and an open-addressing
// index from line address to slot with 8-byte buckets: a 32-bit tag of the line and the slot, a tag match
// being confirmed against the line kept in its state.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace gms {

constexpr uint64_t kNever = ~uint64_t(0);
constexpr uint32_t kInfDistance = ~uint32_t(0);

struct LineState {
  uint64_t line = 0;              // byte address of the line
  uint64_t fill_time = kNever;    // an MSHR entry is in flight for the line until this time stamp
  uint64_t last_effect = kNever;  // time stamp of the line's last effect on the stack
  uint64_t evict_seq = 0;         // effects issued before this stamp are dropped (store write-evict)
  uint32_t set = 0;
  uint32_t gpos = 0, spos = 0;      // positions in the global and the set tree (0 = not resident)
  uint32_t mshr_warp = 0;           // the warp that holds that entry
  uint32_t sh_node = ~uint32_t(0);  // node in the shadow fully associative LRU (when not exact_global)
  bool seen = false;                // referenced before (not compulsory)
  bool store_evicted = false;       // removed by a store since its last effect
};

class LineTable {
 public:
  static constexpr uint32_t kNoSlot = ~uint32_t(0);
  LineTable();
  LineState& operator[](uint32_t s) { return pages_[s >> kPageBits][s & kPageMask]; }
  const LineState& operator[](uint32_t s) const { return pages_[s >> kPageBits][s & kPageMask]; }
  uint32_t find(uint64_t line) const {
    const uint32_t i = probe(line);
    return table_[i].slot ? table_[i].slot - 1 : kNoSlot;
  }
  // Slot of `line`; a new one (state with only `line` set) if absent, then `added` is set. Inline: the
  // line is almost always there already.
  uint32_t find_or_add(uint64_t line, bool& added) {
    const uint32_t i = probe(line);
    added = !table_[i].slot;
    return added ? add(line, i) : table_[i].slot - 1;
  }
  uint32_t size() const { return size_; }
  void clear();
  size_t bytes() const;

 private:
  static constexpr unsigned kPageBits = 12;
  static constexpr uint32_t kPageMask = (1u << kPageBits) - 1;
  struct Bucket {
    uint32_t tag = 0;
    uint32_t slot = 0;  // slot + 1 (0 = empty)
  };
  static uint32_t tag_of(uint64_t line) { return uint32_t(line >> 4) ^ uint32_t(line >> 36); }
  uint32_t probe(uint64_t line) const {
    const uint32_t tag = tag_of(line);
    uint64_t i = ((line >> 4) * 0x9e3779b97f4a7c15ULL) >> shift_;
    for (;; i = (i + 1) & mask_) {
      const Bucket& b = table_[i];
      if (!b.slot || (b.tag == tag && (*this)[b.slot - 1].line == line)) return uint32_t(i);
    }
  }
  uint32_t add(uint64_t line, uint32_t i);  // a new slot for `line`, whose probe ended at bucket i
  void grow();

  std::vector<std::unique_ptr<LineState[]>> pages_;
  uint32_t size_ = 0;
  std::vector<Bucket> table_;  // linear probing, at most half full
  uint64_t mask_ = 0;
  unsigned shift_ = 54;  // index: top bits of a multiplicative hash
};

}  // namespace gms
