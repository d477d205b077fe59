#include "models/noc/router/islip_allocator.h"

#include <algorithm>
#include <stdexcept>

#include "models/noc/active_set.h"

namespace gms {

IslipAllocator::IslipAllocator(unsigned inputs, unsigned outputs, unsigned iterations)
    : Allocator(inputs, outputs),
      iterations_(iterations),
      grant_ptr_(outputs, 0),  // input 0 and output 0 first in line in the first round
      accept_ptr_(inputs, 0),
      offers_(size_t(inputs) * out_words_, 0),
      offered_(in_words_, 0),
      none_(out_words_, 0) {
  if (iterations == 0) throw std::invalid_argument("islip allocator: needs at least one iteration");
}

void IslipAllocator::match() {
  for (unsigned it = 0; it < iterations_; ++it) {
    // Grant: every unmatched output with requests offers itself to the first unmatched requester at or
    // after its pointer.
    bool any = false;
    for_each_bit(
        out_words_, [this](size_t w) { return active_out_[w] & ~matched_out_[w]; },
        [&](unsigned o) {
          const int in = cyclic_first(inputs_of(o), matched_in_.data(), in_words_, grant_ptr_[o]);
          if (in < 0) return;
          const unsigned i = unsigned(in);
          offers_[size_t(i) * out_words_ + (o >> 6)] |= uint64_t(1) << (o & 63);
          offered_[i >> 6] |= uint64_t(1) << (i & 63);
          any = true;
        });
    if (!any) return;  // no unmatched pair is requested: the matching is maximal
    // Accept: every input with offers takes the first at or after its pointer. Only first-iteration accepts
    // move pointers: moving them for later matches would break the desynchronisation (McKeown, sec. III).
    for_each_bit(
        in_words_,
        [this](size_t w) {
          const uint64_t bits = offered_[w];
          offered_[w] = 0;
          return bits;
        },
        [&](unsigned i) {
          uint64_t* row = &offers_[size_t(i) * out_words_];
          const unsigned o = unsigned(cyclic_first(row, none_.data(), out_words_, accept_ptr_[i]));
          std::fill_n(row, out_words_, 0);
          grant(i, o);
          if (it == 0) {
            grant_ptr_[o] = i + 1 == inputs_ ? 0 : i + 1;
            accept_ptr_[i] = o + 1 == outputs_ ? 0 : o + 1;
          }
        });
  }
}

}  // namespace gms
