// Set selection for an LLC slice, as a thin adapter over the cache core. A slice only sees the lines the
// address map interleaves onto it (e.g. 2 of every 24 lines with 12 slices and 256 B interleaving), so a
// linear index would leave most sets unused. The slice turns each line address into a key that the
// TagArray stores and indexes with its linear indexer (set = key line number mod sets):
//   linear, fermi_hash  key = line address (the core's functions on global addresses);
//   xor_fold, 2^k sets  key = line with the tag bits, folded to the index width, XORed into the index bits;
//   xor_fold, other     the slice-local dense line number D (the address with the slice-selection digit
//                       removed, as AddressMap::channel_addr packs a channel) picks the set
//                       (D mod sets + the base-`sets` digits of D / sets) mod sets, so consecutive lines of
//                       the slice fill every set in turn and the added higher digits break strides.
// Every key is a bijection on line addresses, so a victim's exact address is recovered from the stored key
// (write-backs, MSHR and write-back lookups) with no extra tag bits: the TagArray keeps the whole 64-bit
// key per way anyway, and the core needs no LLC-specific tag format.
#pragma once
#include <cstdint>

#include "models/cache/set_index.h"
#include "models/llc/llc_params.h"

namespace gms {

class LlcLineKey {
 public:
  // map_slices, map_chunk_lines: the address map's rotation (slices, 128 B lines per interleave chunk);
  // 1, 1 = this slice sees every line. Only the non-power-of-two xor_fold index uses them.
  LlcLineKey(LlcSetIndex fn, uint32_t sets, uint32_t map_slices = 1, uint32_t map_chunk_lines = 1);
  // What the TagArray stores for a line address, and back.
  uint64_t key(uint64_t line) const {
    if (mode_ == Mode::Identity) return line;
    if (mode_ == Mode::XorFold) return line ^ (fold(line) << kShift);
    return spread_key(line);
  }
  uint64_t line(uint64_t key) const {
    if (mode_ == Mode::Identity) return key;
    if (mode_ == Mode::XorFold) return this->key(key);  // the XOR is its own inverse
    return spread_line(key);
  }
  // The core indexer the TagArray must use with these keys.
  SetIndexer indexer() const;

 private:
  enum class Mode : uint8_t { Identity, XorFold, Spread };
  static constexpr unsigned kShift = 7;  // log2(128 B line)
  uint64_t fold(uint64_t line) const {
    if (bits_ == 0) return 0;
    uint64_t f = 0;
    for (uint64_t t = line >> (kShift + bits_); t; t >>= bits_) f ^= t;
    return f & (sets_ - 1);
  }
  uint64_t spread_key(uint64_t line) const;
  uint64_t spread_line(uint64_t key) const;
  uint64_t digit_sum(uint64_t q) const;  // sum of q's base-`sets` digits, mod sets

  LlcSetIndex fn_;
  Mode mode_ = Mode::Identity;
  uint32_t sets_;
  unsigned bits_ = 0;
  uint64_t slices_ = 1, chunk_lines_ = 1;
  // Line numbers below this are spread, the rest keep their number: the spread map is a bijection on
  // [0, m * slices * lcm(chunk_lines, sets)), and this is the largest such bound below 2^57 (every line
  // of a 64-bit space), so keys never overflow and the whole space stays one bijection.
  uint64_t spread_end_ = 0;
};

}  // namespace gms
