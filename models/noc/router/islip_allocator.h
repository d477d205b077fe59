// iSLIP (McKeown, IEEE/ACM ToN 1999): round-robin request-grant-accept with pointers that move only when a
// grant is accepted in the first iteration, so output pointers desynchronise and uniform all-to-all load
// reaches a full matching every round. Later iterations fill the ports the first one left unmatched.
#pragma once
#include <cstdint>
#include <vector>

#include "models/noc/router/allocator.h"

namespace gms {

class IslipAllocator : public Allocator {
 public:
  // iterations >= 1 (std::invalid_argument otherwise); min(inputs, outputs) iterations give a maximal
  // matching.
  IslipAllocator(unsigned inputs, unsigned outputs, unsigned iterations = 1);
  unsigned iterations() const { return iterations_; }

 private:
  void match() override;

  const unsigned iterations_;
  std::vector<uint32_t> grant_ptr_;   // per output: the input first in line
  std::vector<uint32_t> accept_ptr_;  // per input: the output first in line
  std::vector<uint64_t> offers_;      // per input: the outputs granting it this iteration (out_words_ each)
  std::vector<uint64_t> offered_;     // inputs with offers this iteration
  std::vector<uint64_t> none_;        // an empty set of outputs: accepting skips nothing
};

}  // namespace gms
