// Miss-status holding registers: one entry per line in flight, with the requests waiting for it.
// Fixed storage: entries and their waiter lists are allocated once, so steady state allocates nothing
// (hand released waiter lists back with recycle()). A list starts with room for kReservedWaiters and
// grows, once, the first time more requests merge into one line: reserving max_merge for every entry
// took 35 MB on the H100 preset (132 L1s x 512 entries x 64 waiters), nearly all of it never used.
#pragma once
#include <tlm.h>

#include <cstdint>
#include <vector>

#include "models/common/prefetch.h"

namespace gms {

class MshrFile {
 public:
  struct Entry {
    uint64_t line = 0;
    uint8_t issued_chunks = 0;  // chunks already requested downstream (TSC: only new chunks are fetched)
    bool no_fill = false;       // a store overtook the fill: answer the waiters, do not install the line
    std::vector<tlm::tlm_generic_payload*> waiters;  // requests answered by the fill, oldest first
    uint64_t cookie = 0;                             // free for the owning design (e.g. the reserved set/way)
  };

  // entries >= 1; max_merge >= 1 = most waiters on one entry, the first miss included.
  MshrFile(uint32_t entries, uint32_t max_merge);

  Entry* find(uint64_t line);
  // Software prefetch of the index bucket find(line) reads first; changes nothing.
  void prefetch(uint64_t line) const { prefetch_hint(&index_[home(line)]); }
  bool full() const { return used_ == slots_.size(); }
  size_t size() const { return used_; }
  uint32_t capacity() const { return uint32_t(slots_.size()); }
  uint32_t max_merge() const { return max_merge_; }
  bool can_merge(const Entry& e) const { return e.waiters.size() < max_merge_; }
  // Precondition: !full() && !find(line). The entry starts with no waiters, no issued chunks, cookie 0.
  Entry& allocate(uint64_t line);
  // Frees the entry and returns its waiters (oldest first). Throws std::logic_error if line has no entry.
  std::vector<tlm::tlm_generic_payload*> release(uint64_t line);
  // Gives a list returned by release() back for reuse (its capacity serves a later allocate()).
  void recycle(std::vector<tlm::tlm_generic_payload*>&& list);

 private:
  static constexpr uint32_t kReservedWaiters = 8;
  uint32_t max_merge_;
  uint32_t reserved_;  // initial waiter-list capacity: min(max_merge, kReservedWaiters)
  std::vector<Entry> slots_;
  size_t used_ = 0;  // entries in use
  // Line -> slot, open addressing with linear probing (table at least 2x the entries, so probes stay
  // short): find() runs several times per access in every cache, and a scan of 32-64 entries showed in
  // profiles. Each bucket keeps 16 other bits of its line's hash, so a probe reads the entry only on a
  // likely match. Buckets are 4 B: with 132 L1s and 80 L2 slices every probe is cold in host caches, and
  // a dense table (4 KiB for 512 entries) keeps more of them cached than 8 B buckets at 4x the entries did.
  struct Bucket {
    uint16_t slot1 = 0;  // slot + 1; 0: empty
    uint16_t hint = 0;
  };
  static uint64_t hash_of(uint64_t line) { return (line >> 5) * 0x9e3779b97f4a7c15ULL; }
  static uint16_t hint_of(uint64_t line) { return uint16_t(hash_of(line) >> 24); }
  std::vector<Bucket> index_;
  uint64_t index_mask_ = 0;
  size_t home(uint64_t line) const { return size_t(hash_of(line) >> 40) & index_mask_; }
  int32_t slot_of(uint64_t line) const;  // -1: no entry
  void index_insert(uint64_t line, uint32_t slot);
  void index_erase(uint64_t line);
  std::vector<uint32_t> free_;
  std::vector<std::vector<tlm::tlm_generic_payload*>> spare_lists_;
};

}  // namespace gms
