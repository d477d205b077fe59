#include "models/llc/llc_set_hash.h"

#include <numeric>
#include <stdexcept>

#include "models/common/mem_req.h"

namespace gms {

LlcLineKey::LlcLineKey(LlcSetIndex fn, uint32_t sets, uint32_t map_slices, uint32_t map_chunk_lines)
    : fn_(fn), sets_(sets), slices_(map_slices), chunk_lines_(map_chunk_lines) {
  if (sets == 0) throw std::invalid_argument("llc set index: sets must be at least 1");
  if (map_slices == 0 || map_chunk_lines == 0)
    throw std::invalid_argument("llc set index: the address map needs at least 1 slice and 1 line per chunk");
  const bool pow2 = (sets & (sets - 1)) == 0;
  if (fn != LlcSetIndex::XorFold) return;  // Identity: the core's linear or fermi_hash index
  if (pow2) {
    mode_ = Mode::XorFold;
    while ((1u << bits_) < sets) ++bits_;
    return;
  }
  mode_ = Mode::Spread;
  constexpr uint64_t kLines = uint64_t(1) << (64 - kShift);
  const uint64_t period = std::lcm(chunk_lines_, uint64_t(sets));  // <= 2^23 * 2^25
  if (period <= kLines / slices_) spread_end_ = kLines / (period * slices_) * (period * slices_);
}

SetIndexer LlcLineKey::indexer() const {
  return SetIndexer(fn_ == LlcSetIndex::FermiHash ? SetIndexFn::FermiHash : SetIndexFn::Linear, sets_,
                    kLineBytes);
}

uint64_t LlcLineKey::digit_sum(uint64_t q) const {
  uint64_t s = 0;
  for (; q >> 32; q /= sets_) s += q % sets_;
  // The usual case (lines below 2^39 B): 32-bit division is several times faster on x86.
  for (uint32_t q32 = uint32_t(q); q32; q32 /= sets_) s += q32 % sets_;
  return s % sets_;
}

// line number n = (R * slices + W) * chunk_lines + O: round R of the rotation, position W in it (the
// slice-selection digit), line O of the chunk. D = R * chunk_lines + O numbers the lines of one position
// densely; key = set + sets * ((D / sets) * slices + W).
uint64_t LlcLineKey::spread_key(uint64_t line) const {
  const uint64_t n = line >> kShift;
  if (n >= spread_end_) return line;
  const uint64_t chunk = n / chunk_lines_, o = n % chunk_lines_;
  const uint64_t r = chunk / slices_, w = chunk % slices_;
  const uint64_t d = r * chunk_lines_ + o, q = d / sets_;
  const uint64_t set = (d % sets_ + digit_sum(q)) % sets_;
  return (set + sets_ * (q * slices_ + w)) << kShift;
}

uint64_t LlcLineKey::spread_line(uint64_t key) const {
  const uint64_t k = key >> kShift;
  if (k >= spread_end_) return key;
  const uint64_t set = k % sets_, t = k / sets_;
  const uint64_t w = t % slices_, q = t / slices_;
  const uint64_t d = q * sets_ + (set + sets_ - digit_sum(q)) % sets_;
  const uint64_t r = d / chunk_lines_, o = d % chunk_lines_;
  return ((r * slices_ + w) * chunk_lines_ + o) << kShift;
}

}  // namespace gms
