#include "models/noc/router/separable_allocator.h"

#include <algorithm>

#include "models/noc/active_set.h"

namespace gms {

SeparableRoundRobinAllocator::SeparableRoundRobinAllocator(unsigned inputs, unsigned outputs)
    : Allocator(inputs, outputs),
      in_ptr_(inputs, 0),  // output 0 and input 0 first in line in the first round
      out_ptr_(outputs, 0),
      picks_(size_t(outputs) * in_words_, 0),
      picked_(out_words_, 0),
      none_(std::max(in_words_, out_words_), 0) {}

void SeparableRoundRobinAllocator::match() {
  // Input stage: each requesting input picks the first requested output at or after its pointer.
  for_each_bit(
      in_words_, [this](size_t w) { return active_in_[w]; },
      [this](unsigned i) {
        const unsigned o = unsigned(cyclic_first(outputs_of(i), none_.data(), out_words_, in_ptr_[i]));
        picks_[size_t(o) * in_words_ + (i >> 6)] |= uint64_t(1) << (i & 63);
        picked_[o >> 6] |= uint64_t(1) << (o & 63);
      });
  // Output stage: each picked output takes the first picker at or after its pointer. Pointers move only
  // for these final grants, so a losing input asks for the same output again next round.
  for_each_bit(
      out_words_,
      [this](size_t w) {
        const uint64_t bits = picked_[w];
        picked_[w] = 0;
        return bits;
      },
      [this](unsigned o) {
        uint64_t* row = &picks_[size_t(o) * in_words_];
        const unsigned i = unsigned(cyclic_first(row, none_.data(), in_words_, out_ptr_[o]));
        std::fill_n(row, in_words_, 0);
        grant(i, o);
        in_ptr_[i] = o + 1 == outputs_ ? 0 : o + 1;
        out_ptr_[o] = i + 1 == inputs_ ? 0 : i + 1;
      });
}

}  // namespace gms
