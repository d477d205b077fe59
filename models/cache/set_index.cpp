#include "models/cache/set_index.h"

#include <stdexcept>

namespace gms {

SetIndexFn parse_set_index(const std::string& name) {
  if (name == "linear") return SetIndexFn::Linear;
  if (name == "fermi_hash") return SetIndexFn::FermiHash;
  throw std::invalid_argument("unknown set index function '" + name + "' (expected linear or fermi_hash)");
}

const char* to_string(SetIndexFn fn) {
  return fn == SetIndexFn::Linear ? "linear" : "fermi_hash";
}

SetIndexer::SetIndexer(SetIndexFn fn, uint32_t sets, uint32_t line_bytes)
    : fn_(fn), sets_(sets), line_bytes_(line_bytes) {
  if (sets == 0) throw std::invalid_argument("set index: set count must be at least 1");
  if (line_bytes == 0 || (line_bytes & (line_bytes - 1)))
    throw std::invalid_argument("set index: line size must be a power of two");
  while ((1u << line_shift_) < line_bytes) ++line_shift_;
  pow2_ = (sets & (sets - 1)) == 0;
  if (fn == SetIndexFn::FermiHash) {
    if (line_bytes != 128) throw std::invalid_argument("fermi_hash set index needs 128 B lines");
    if (sets != 32 && sets != 64) throw std::invalid_argument("fermi_hash set index needs 32 or 64 sets");
  }
}

// Set bit i = address bit (7 + i) XOR address bit {13, 14, 15, 17, 19}[i]; with 64 sets address bit 12
// becomes set bit 5 (the 48 KB configuration of paper 003).
uint32_t SetIndexer::fermi_hash(uint64_t addr) const {
  // Bits 13,14,15 line up with set bits 0..2; bits 17 and 19 are gathered into set bits 3 and 4.
  const uint32_t high =
      uint32_t((addr >> 13) & 7u) | uint32_t((addr >> 14) & 8u) | uint32_t((addr >> 15) & 16u);
  uint32_t set = (uint32_t(addr >> 7) & 31u) ^ high;
  if (sets_ == 64) set |= uint32_t((addr >> 12) & 1u) << 5;
  return set;
}

}  // namespace gms
