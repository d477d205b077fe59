// Input-first separable allocator with round-robin arbiters (BookSim 2's separable_input_first with rr):
// each input picks one of its requested outputs, then each output picks one of the inputs that picked it.
// One pass, cheaper than iSLIP, but an input that loses its only pick stays unmatched this round.
#pragma once
#include <cstdint>
#include <vector>

#include "models/noc/router/allocator.h"

namespace gms {

class SeparableRoundRobinAllocator : public Allocator {
 public:
  SeparableRoundRobinAllocator(unsigned inputs, unsigned outputs);

 private:
  void match() override;

  std::vector<uint32_t> in_ptr_;   // per input: the output after its last grant
  std::vector<uint32_t> out_ptr_;  // per output: the input after its last winner
  std::vector<uint64_t> picks_;    // per output: the inputs that picked it (in_words_ each)
  std::vector<uint64_t> picked_;   // outputs picked by some input
  std::vector<uint64_t> none_;     // an empty set of ports: the arbiters skip nothing
};

}  // namespace gms
