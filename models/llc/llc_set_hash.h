// Set selection for an LLC slice, as a thin adapter over the cache core. A slice only sees the lines the
// address map interleaves onto it (e.g. 2 of every 24 lines with 12 slices and 256 B interleaving), so a
// linear index would leave most sets unused. xor_fold XORs the tag bits, folded to the set-index width,
// into the set-index bits; the result is a bijection on line addresses (the tag bits are unchanged), so
// the TagArray stores this key with its linear indexer and the line address is recovered exactly.
#pragma once
#include <cstdint>

#include "models/cache/set_index.h"
#include "models/llc/llc_params.h"

namespace gms {

class LlcLineKey {
 public:
  LlcLineKey(LlcSetIndex fn, uint32_t sets);
  // What the TagArray stores for a line address, and back.
  uint64_t key(uint64_t line) const {
    return fn_ == LlcSetIndex::XorFold ? line ^ (fold(line) << kShift) : line;
  }
  uint64_t line(uint64_t key) const { return this->key(key); }  // the XOR is its own inverse
  // The core indexer the TagArray must use with these keys.
  SetIndexer indexer() const;

 private:
  static constexpr unsigned kShift = 7;  // log2(128 B line)
  uint64_t fold(uint64_t line) const {
    if (bits_ == 0) return 0;
    uint64_t f = 0;
    for (uint64_t t = line >> (kShift + bits_); t; t >>= bits_) f ^= t;
    return f & (sets_ - 1);
  }
  LlcSetIndex fn_;
  uint32_t sets_;
  unsigned bits_ = 0;
};

}  // namespace gms
