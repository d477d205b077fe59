// Sector cache (design `sector`; LAMAR's storage, paper 000 sec. 5.2 comparator): 128 B lines of four 32 B
// sectors. A miss allocates the whole line but fetches only the sectors the load asks for; a load that
// finds some of its sectors fetches only the missing ones (partial hit), and the line's MSHR entry
// requests only sectors not yet asked for (SectoredL1). Unrequested sectors stay empty: no space reuse.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cache/tag_array.h"
#include "models/l1/sectored_l1.h"

namespace gms {

class SectorL1 : public SectoredL1 {
 public:
  SectorL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~SectorL1() override;

  TagArray& tags() { return tags_; }

 protected:
  Mask cached(uint64_t line) override;
  void read(uint64_t line, Mask m, unsigned char* dst) override;
  bool reserve(uint64_t line, Mask m) override;
  void fill(uint64_t line, Mask m, const unsigned char* src) override;
  void unreserve(uint64_t line, Mask m) override;
  unsigned invalidate(uint64_t line, Mask m) override;
  void patch(uint64_t line, unsigned offset, unsigned char byte) override;
  uint32_t invalidate_storage() override;
  void prefetch_lookup(uint64_t line) const override { tags_.prefetch_set(tags_.set_of(line)); }

 private:
  // A line is valid once allocated; `reserved` pins it while sectors are pending (pending_ per way).
  int way_of(uint64_t line, uint32_t& set) const;
  void release_if_empty(uint32_t set, uint32_t way);
  TagArray tags_;
  std::vector<uint8_t> pending_;  // per way: sectors whose fill is on its way
};

}  // namespace gms
