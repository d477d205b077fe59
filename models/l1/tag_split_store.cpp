// TagSplitStore: lookup, reads, fills and invalidation (allocation and replacement:
// tag_split_replacement.cpp).
#include "models/l1/tag_split_store.h"

#include <cstring>
#include <stdexcept>

#include "models/common/mem_req.h"

namespace gms {

TagSplitStore::TagSplitStore(uint32_t sets, uint32_t groups, uint32_t chunk_bytes, uint32_t private_tag_bits,
                             SetIndexer indexer, Rng& rng)
    : sets_(sets),
      groups_(groups),
      chunk_bytes_(chunk_bytes),
      per_group_(kLineBytes / chunk_bytes),
      per_set_(groups * (kLineBytes / chunk_bytes)),
      tag_shift_(7 + unsigned(__builtin_ctz(sets))),
      pow2_((sets & (sets - 1)) == 0),
      private_bits_(private_tag_bits),
      indexer_(indexer),
      rng_(rng),
      chunks_(size_t(sets) * per_set_),
      groups_v_(size_t(sets) * groups),
      data_(size_t(sets) * per_set_ * chunk_bytes, 0) {
  if (sets == 0) throw std::invalid_argument("tag-split store: at least one set");
  if (chunk_bytes < 8 || chunk_bytes > 64 || (chunk_bytes & (chunk_bytes - 1)))
    throw std::invalid_argument("tag-split store: chunk_bytes must be 8, 16, 32 or 64");
  if (groups == 0) throw std::invalid_argument("tag-split store: at least one chunk group");
}

// The tag is the line address above the set-index bits (with the Fermi hash too: the hashed index bits
// are recoverable from the tag and the set, so the tag alone still names the line within its set).
TagSplitStore::Key TagSplitStore::key_of(uint64_t line) const {
  // A non-power-of-two set count (linear index, the line number modulo the sets): the tag is the quotient.
  const uint64_t tag = pow2_ ? line >> tag_shift_ : (line / kLineBytes) / sets_;
  const uint64_t pmask = private_bits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << private_bits_) - 1;
  return Key{set_of(line), private_bits_ >= 64 ? 0 : tag >> private_bits_, tag & pmask};
}

bool TagSplitStore::holds(const Key& k, uint32_t i) const {
  const Chunk& c = chunk(k.set, i);
  return (c.valid || c.reserved) && c.ptag == k.ptag && group(k.set, i / per_group_).stag == k.stag;
}

TagSplitStore::Mask TagSplitStore::cached(uint64_t line) const {
  const Key k = key_of(line);
  Mask m = 0;
  for (uint32_t g = 0; g < groups_; ++g) {
    const Group& gr = group(k.set, g);
    if (!gr.live || gr.stag != k.stag) continue;
    for (uint32_t i = g * per_group_; i < (g + 1) * per_group_; ++i) {
      const Chunk& c = chunk(k.set, i);
      if (c.valid && c.ptag == k.ptag) m = Mask(m | 1u << c.offset);
    }
  }
  return m;
}

// Paper 000 sec. 3.3: an accessed chunk's NRU bit is set; when every bit of the set is 1, all reset to 0.
void TagSplitStore::mark_nru(uint32_t set, uint32_t i) {
  chunk(set, i).nru = true;
  for (uint32_t j = 0; j < per_set_; ++j)
    if (!chunk(set, j).nru) return;
  for (uint32_t j = 0; j < per_set_; ++j) chunk(set, j).nru = false;
}

void TagSplitStore::read(uint64_t line, Mask m, unsigned char* dst) {
  const Key k = key_of(line);
  for (uint32_t i = 0; i < per_set_; ++i) {
    Chunk& c = chunk(k.set, i);
    if (!c.valid || !(m >> c.offset & 1u) || !holds(k, i)) continue;
    std::memcpy(dst + c.offset * chunk_bytes_, data(k.set, i), chunk_bytes_);
    mark_nru(k.set, i);
  }
}

void TagSplitStore::drop(uint32_t set, uint32_t i) {
  Chunk& c = chunk(set, i);
  if (!c.valid && !c.reserved) return;
  c.valid = c.reserved = c.nru = false;
  --group(set, i / per_group_).live;
}

void TagSplitStore::fill(uint64_t line, Mask m, const unsigned char* src) {
  const Key k = key_of(line);
  for (uint32_t i = 0; i < per_set_; ++i) {
    Chunk& c = chunk(k.set, i);
    if (!c.reserved || !(m >> c.offset & 1u) || !holds(k, i)) continue;
    std::memcpy(data(k.set, i), src + c.offset * chunk_bytes_, chunk_bytes_);
    c.reserved = false;
    c.valid = true;
    mark_nru(k.set, i);
  }
}

void TagSplitStore::unreserve(uint64_t line, Mask m) {
  const Key k = key_of(line);
  for (uint32_t i = 0; i < per_set_; ++i)
    if (chunk(k.set, i).reserved && (m >> chunk(k.set, i).offset & 1u) && holds(k, i)) drop(k.set, i);
}

unsigned TagSplitStore::invalidate(uint64_t line, Mask m) {
  const Key k = key_of(line);
  unsigned n = 0;
  for (uint32_t i = 0; i < per_set_; ++i)
    if (chunk(k.set, i).valid && (m >> chunk(k.set, i).offset & 1u) && holds(k, i)) {
      drop(k.set, i);
      ++n;
    }
  return n;
}

void TagSplitStore::patch(uint64_t line, unsigned offset, unsigned char byte) {
  const Key k = key_of(line);
  for (uint32_t i = 0; i < per_set_; ++i)
    if (chunk(k.set, i).valid && chunk(k.set, i).offset == offset / chunk_bytes_ && holds(k, i))
      data(k.set, i)[offset % chunk_bytes_] = byte;
}

uint32_t TagSplitStore::invalidate_all() {
  uint32_t n = 0;
  for (uint32_t s = 0; s < sets_; ++s)
    for (uint32_t i = 0; i < per_set_; ++i)
      if (chunk(s, i).valid) {
        drop(s, i);
        ++n;
      }
  return n;
}

uint32_t TagSplitStore::valid_chunks() const {
  uint32_t n = 0;
  for (const Chunk& c : chunks_) n += c.valid;
  return n;
}

}  // namespace gms
