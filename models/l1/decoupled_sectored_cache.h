// Decoupled sectored cache (design `dsc`; Seznec, paper 000 sec. 5.2's DSC-2 / DSC-4 comparator). A set
// has `ways` frames of four 32 B sector slots; each frame has `tags_per_frame` address tags and each slot
// points at the tag it belongs to. So several lines share a frame, but sector p of a line can only sit in
// slot p of its frame: two lines that both want their first sector cannot share one (paper 000 sec. 5.2).
// A line's tag is chosen (and replaced, dropping its sectors) by the shared replacement policy over the
// set's ways x tags_per_frame tags; a sector taking a slot evicts the sector of another tag held there.
// Fetch and MSHR are SectoredL1's (the paper gives DSC the issued-chunk-mask MSHR too).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/cache/replacement.h"
#include "models/cache/set_index.h"
#include "models/l1/sectored_l1.h"

namespace gms {

class DecoupledSectoredCache : public SectoredL1 {
 public:
  DecoupledSectoredCache(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id,
                         const BlockEnv& env);
  ~DecoupledSectoredCache() override;

 protected:
  Mask cached(uint64_t line) override;
  void read(uint64_t line, Mask m, unsigned char* dst) override;
  bool reserve(uint64_t line, Mask m) override;
  void fill(uint64_t line, Mask m, const unsigned char* src) override;
  void unreserve(uint64_t line, Mask m) override;
  unsigned invalidate(uint64_t line, Mask m) override;
  void patch(uint64_t line, unsigned offset, unsigned char byte) override;
  uint32_t invalidate_storage() override;

 private:
  struct Tag {
    uint64_t line = 0;
    uint32_t live = 0;  // valid + reserved sectors pointing at it; 0 = free
  };
  struct Slot {
    uint8_t owner = 0;  // tag index within the frame
    bool valid = false, reserved = false;
  };
  uint32_t frames() const { return params_.ways; }
  Tag& tag(uint32_t set, uint32_t t) { return tags_[size_t(set) * frames() * k_ + t]; }  // t = frame * k + i
  Slot& slot(uint32_t set, uint32_t f, unsigned p) {
    return slots_[(size_t(set) * frames() + f) * kChunksPerLine + p];
  }
  unsigned char* data(uint32_t set, uint32_t f) { return &data_[(size_t(set) * frames() + f) * kLineBytes]; }
  int find(uint64_t line, uint32_t set);  // tag index (frame * k + i) or -1
  void clear_slot(uint32_t set, uint32_t f, unsigned p);
  bool slots_free_of_reserved(uint32_t set, uint32_t f, Mask m);

  uint32_t k_;
  SetIndexer indexer_;
  std::unique_ptr<ReplacementPolicy> policy_;
  std::vector<Tag> tags_;
  std::vector<Slot> slots_;
  std::vector<unsigned char> data_;
};

}  // namespace gms
