// Tag-split cache (designs `tsc` and `tsc_plus`; paper 000): 128 B access granularity, chunk storage
// (TagSplitStore), partial misses, MSHRs with issued-chunk masks (SectoredL1), +extra_hit_latency on a
// hit. `tsc_plus` adds the fine/coarse storage-mode set dueling (TscModeDuel): in coarse mode a miss
// fetches and stores the whole line, as if the coalescer had set every bit of the access chunk mask.
#pragma once
#include <cstdint>
#include <memory>

#include "models/l1/sectored_l1.h"
#include "models/l1/tag_split_store.h"
#include "models/l1/tsc_mode_duel.h"

namespace gms {

class TagSplitCache : public SectoredL1 {
 public:
  // plus: TSC+ (mode dueling) instead of plain TSC (always fine).
  TagSplitCache(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env,
                bool plus);
  ~TagSplitCache() override;

  TagSplitStore& store() { return store_; }
  const TscModeDuel* duel() const { return duel_.get(); }

 protected:
  Mask cached(uint64_t line) override { return store_.cached(line); }
  void read(uint64_t line, Mask m, unsigned char* dst) override { store_.read(line, m, dst); }
  bool reserve(uint64_t line, Mask m) override;
  void fill(uint64_t line, Mask m, const unsigned char* src) override { store_.fill(line, m, src); }
  void unreserve(uint64_t line, Mask m) override { store_.unreserve(line, m); }
  unsigned invalidate(uint64_t line, Mask m) override { return store_.invalidate(line, m); }
  void patch(uint64_t line, unsigned offset, unsigned char byte) override {
    store_.patch(line, offset, byte);
  }
  uint32_t invalidate_storage() override { return store_.invalidate_all(); }
  Mask access_mask(uint64_t line, Mask wanted) override;
  void on_fetch(uint64_t line, Mask fetched) override;

 private:
  TagSplitStore store_;
  std::unique_ptr<TscModeDuel> duel_;
  Counter& retagged_groups_;
  Counter& coarse_misses_;
  Probe<uint32_t> probe_mode_;
};

}  // namespace gms
