// Set-index functions shared by every cache built on the cache core (L1 designs, LLC slices).
// Linear = line number modulo the set count; FermiHash = the XOR hash measured on Fermi's L1
// (paper 003, section 5 / MECHANISMS.md "Set index hash").
#pragma once
#include <cstdint>
#include <string>

namespace gms {

enum class SetIndexFn { Linear, FermiHash };

// "linear" | "fermi_hash"; anything else throws std::invalid_argument.
SetIndexFn parse_set_index(const std::string& name);
const char* to_string(SetIndexFn fn);

class SetIndexer {
 public:
  // Linear: any set count >= 1 (modulo; a mask when a power of two), line_bytes a power of two.
  // FermiHash: 32 or 64 sets with 128 B lines; anything else throws std::invalid_argument.
  SetIndexer(SetIndexFn fn, uint32_t sets, uint32_t line_bytes);

  uint32_t set_of(uint64_t addr) const { return fn_ == SetIndexFn::Linear ? linear(addr) : fermi_hash(addr); }
  uint32_t sets() const { return sets_; }
  SetIndexFn fn() const { return fn_; }
  uint32_t line_bytes() const { return line_bytes_; }

 private:
  uint32_t linear(uint64_t addr) const {
    uint64_t n = addr >> line_shift_;
    return uint32_t(pow2_ ? (n & (sets_ - 1)) : (n % sets_));
  }
  uint32_t fermi_hash(uint64_t addr) const;

  SetIndexFn fn_;
  uint32_t sets_;
  uint32_t line_bytes_;
  unsigned line_shift_ = 0;
  bool pow2_ = false;
};

}  // namespace gms
