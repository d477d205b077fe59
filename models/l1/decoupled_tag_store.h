// The decoupled tag store of the Decoupled L1D (paper 002, sec. 4.1-4.2): as many sets as the data store,
// more ways, and per entry the line tag, a saturating reference count (RC) and a Position (the data way
// holding the line, or none). Replacement is LFU among entries without a data line (a committed entry is
// never dropped, so every data line keeps its tag entry); dynamic aging lowers the RC of a set's entries.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gms {

struct DecoupledTagEntry {
  uint64_t line = 0;      // line address
  bool valid = false;     // holds a tag
  uint32_t rc = 0;        // reference count, saturating at rc_max
  int position = -1;      // data-store way holding the line; -1: none (a candidate entry)
  uint64_t inserted = 0;  // allocation stamp: the LFU tie-break prefers the oldest entry
};

class DecoupledTagStore {
 public:
  DecoupledTagStore(uint32_t sets, uint32_t ways, uint32_t rc_max);

  uint32_t ways() const { return ways_; }
  DecoupledTagEntry& entry(uint32_t set, uint32_t way) { return e_[size_t(set) * ways_ + way]; }
  const DecoupledTagEntry& entry(uint32_t set, uint32_t way) const { return e_[size_t(set) * ways_ + way]; }
  // The way holding `line` in `set`, or -1.
  int find(uint32_t set, uint64_t line) const;
  // LFU victim for a new tag: the lowest free way, else among entries without a data line the smallest
  // RC, ties to the oldest allocation. -1 when every entry holds a data line (impossible while the tag
  // store has more ways than the data store).
  int victim(uint32_t set) const;
  // Puts `line` in `way` with RC = 1 (the reference that allocates it counts) and no data line.
  void allocate(uint32_t set, uint32_t way, uint64_t line);
  // RC += 1, saturating; returns the new RC.
  uint32_t reference(uint32_t set, uint32_t way);
  // Dynamic aging: RC -= steps (floor 0) for every valid entry of the set except ways skip_a and skip_b.
  void age(uint32_t set, uint32_t steps, int skip_a, int skip_b);

 private:
  uint32_t ways_, rc_max_;
  uint64_t stamp_ = 0;
  std::vector<DecoupledTagEntry> e_;
};

}  // namespace gms
