// The chunk storage of the tag-split cache (paper 000 sec. 3.1-3.3). A set holds `groups` chunk groups
// of 128 B; every chunk of a group shares the group's shared tag and has its own private tag, valid bit,
// inter-chunk offset (its position in its 128 B line) and NRU bit. A line's chunks may sit in any group
// whose shared tag matches, in any slot, so several lines share a group and one line may spread over
// groups. Address split: | shared tag | private tag | set index | inter-chunk offset | intra-chunk |, the
// set index being the 128 B-line cache's (hashed or linear), the tag the line address above it.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cache/set_index.h"
#include "models/common/rng.h"

namespace gms {

class TagSplitStore {
 public:
  using Mask = uint16_t;  // chunk positions of one 128 B line

  TagSplitStore(uint32_t sets, uint32_t groups, uint32_t chunk_bytes, uint32_t private_tag_bits,
                SetIndexer indexer, Rng& rng);

  uint32_t sets() const { return sets_; }
  uint32_t groups() const { return groups_; }
  uint32_t chunks_per_group() const { return per_group_; }
  uint32_t set_of(uint64_t line) const { return indexer_.set_of(line); }

  Mask cached(uint64_t line) const;                      // positions held valid
  void read(uint64_t line, Mask m, unsigned char* dst);  // copies them (128 B-framed), marks NRU
  // Chunks for positions m of line (none valid or reserved now), reserved for their fill: invalid chunks
  // first, else NRU victims (sec. 3.3), all taken in one step. False (nothing changed) when even evicting
  // every unreserved candidate would not make room. `evicted`: valid chunks dropped; `retagged`: groups
  // whose shared tag changed while they held valid chunks.
  bool reserve(uint64_t line, Mask m, uint32_t& evicted, uint32_t& retagged);
  void fill(uint64_t line, Mask m, const unsigned char* src);  // reserved -> valid, with data
  void unreserve(uint64_t line, Mask m);                       // reserved -> free, no data
  unsigned invalidate(uint64_t line, Mask m);                  // valid -> free; how many were valid
  void patch(uint64_t line, unsigned offset, unsigned char byte);
  uint32_t invalidate_all();  // every valid chunk dropped (reserved stay); how many
  uint32_t valid_chunks() const;

 private:
  struct Chunk {
    uint64_t ptag = 0;
    uint8_t offset = 0;  // position in its line
    bool valid = false, reserved = false, nru = false;
  };
  struct Group {
    uint64_t stag = 0;
    uint32_t live = 0;  // valid + reserved chunks; 0 = empty, the shared tag means nothing
  };
  struct Key {
    uint32_t set;
    uint64_t stag, ptag;
  };
  Key key_of(uint64_t line) const;
  Chunk& chunk(uint32_t set, uint32_t i) { return chunks_[size_t(set) * per_set_ + i]; }
  const Chunk& chunk(uint32_t set, uint32_t i) const { return chunks_[size_t(set) * per_set_ + i]; }
  Group& group(uint32_t set, uint32_t g) { return groups_v_[size_t(set) * groups_ + g]; }
  const Group& group(uint32_t set, uint32_t g) const { return groups_v_[size_t(set) * groups_ + g]; }
  unsigned char* data(uint32_t set, uint32_t i) {
    return &data_[(size_t(set) * per_set_ + i) * chunk_bytes_];
  }
  bool holds(const Key& k, uint32_t i) const;  // chunk i of k.set belongs to k's line (valid or reserved)
  void mark_nru(uint32_t set, uint32_t i);
  void drop(uint32_t set, uint32_t i);  // valid or reserved chunk -> free
  // Free chunks usable by a line of shared tag `stag`: in groups of that tag first, then empty groups.
  void usable_free(uint32_t set, uint64_t stag, std::vector<uint32_t>& out) const;

  uint32_t sets_, groups_, chunk_bytes_, per_group_, per_set_;
  unsigned tag_shift_;
  bool pow2_;  // power-of-two set count: the tag is the address above the index bits
  unsigned private_bits_;
  SetIndexer indexer_;
  Rng& rng_;
  std::vector<Chunk> chunks_;
  std::vector<Group> groups_v_;
  std::vector<unsigned char> data_;
  std::vector<uint32_t> scratch_, scratch2_;
};

}  // namespace gms
