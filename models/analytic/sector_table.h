// Per-sector state of one core's L1 in the reuse-distance model when sectors are tracked
// (RdParams::tracks_sectors): lines are allocated whole, but a sector is valid only once brought in since
// the line's allocation (by a load's fetch or a write-allocate store), is being fetched (a load of it
// counts as a sector hit, as Nsight counts a sector whose fill is pending), or neither. Indexed by the
// line's slot in its SetStacks. Whether the line is in the cache is the stacks' business (set distance <
// ways) and is passed in: a line that left the cache lost its sectors, so an effect landing on a line
// outside the cache allocates it anew with only that effect's sectors.
#pragma once
#include <cstdint>
#include <vector>

#include "models/analytic/line_table.h"
#include "models/analytic/rd_params.h"

namespace gms {

// A load's sectors (a mask over the line's sectors) as it finds them at its time stamp.
struct SectorLook {
  uint8_t valid = 0;    // valid: the line is in the cache and holds them, or their fill lands now
  uint8_t pending = 0;  // being fetched (by an earlier miss), landing after now
  uint8_t missing = 0;  // neither: to fetch
  uint8_t evicted = 0;  // missing ones a store invalidated or made stale since the line's allocation (valid
                        // while the line is allocated: in the cache or being filled)
  uint64_t ready = 0;   // when the last pending one lands (0: none pending)
  uint8_t hits() const { return uint8_t(valid | pending); }
};

class SectorTable {
 public:
  static constexpr uint32_t kMax = RdParams::kMaxSectors;

  // Makes `slot` known (slots are dense and handed out in order after clear(); a new one starts empty).
  void ensure(uint32_t slot) {
    while (used_ <= slot) {
      if (used_ == lines_.size()) lines_.emplace_back();
      lines_[used_++] = Line();
    }
  }
  void clear() { used_ = 0; }
  // The `requested` sectors of a load at time stamp `t`; in_cache: the line is in the cache (its valid
  // sectors count).
  SectorLook look(uint32_t slot, bool in_cache, uint8_t requested, uint64_t t) const;
  // A load misses a line that is neither in the cache nor being filled: it is allocated with no sector.
  void allocate(uint32_t slot);
  // A load fetches sectors `m`; they land at `fill`.
  void fetch(uint32_t slot, uint8_t m, uint64_t fill);
  // The effect of an access issued at `seq` lands at `time`: its `fetched` sectors arrive and its `kept`
  // ones (valid when it looked, or written whole by a write-allocate store) are valid, except the sectors
  // a write-evict store wrote after `seq` (the baseline's "no fill" of a stale line, per sector).
  // `sectors` are the access's sectors: when a store wrote all of them after `seq`, the effect is dropped
  // (false), as the baseline drops a line's effects after its write-evict. Otherwise true; a line not
  // `in_cache` is allocated anew (its old sectors are gone).
  bool land(uint32_t slot, bool in_cache, uint64_t seq, uint64_t time, uint8_t sectors, uint8_t fetched,
            uint8_t kept);
  // A write-evict store at `t` writes sectors `w`: valid ones are invalidated, pending ones will not be
  // installed when they land. True when the line, in the cache, is left with no valid and no pending
  // sector: it gives its way back (SectorL1's release_if_empty).
  bool store_evict(uint32_t slot, bool in_cache, uint8_t w, uint64_t t);
  size_t bytes() const { return lines_.capacity() * sizeof(Line); }

 private:
  struct Line {
    uint64_t fill_at[kMax] = {kNever, kNever, kNever, kNever};  // the sector's fill lands then
    uint64_t written_at[kMax] = {0, 0, 0, 0};  // a write-evict store at t sets t + 1: older effects are void
    uint8_t valid = 0;                         // meaningful while the line is in the cache
    uint8_t evicted = 0;                       // invalidated by a store since the line's allocation
  };
  std::vector<Line> lines_;
  uint32_t used_ = 0;
};

}  // namespace gms
