// Allocation of one router cycle as a bipartite matching (BookSim 2's split: the router owns the request
// sources, an Allocator owns the policy). Used for switch allocation (inputs x outputs) and VC allocation
// (input VCs x output VCs). Requests are bitsets of 64-bit words per input and per output, so a cycle costs
// per request and per matched port, not per port: routers have from 2 to a few hundred ports.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gms {

class Allocator {
 public:
  Allocator(unsigned inputs, unsigned outputs);
  virtual ~Allocator() = default;
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  unsigned inputs() const { return inputs_; }
  unsigned outputs() const { return outputs_; }

  // Input `in` (< inputs()) requests output `out` (< outputs()) this round; an input may request several
  // outputs, and asking twice for one pair is the same as once. Unchecked beyond an assert: per-flit path.
  void add_request(unsigned in, unsigned out);
  bool has_requests() const { return pending_; }

  // Computes a matching from the requests since the last allocate(): each input gets at most one output and
  // each output at most one input. Clears the requests afterwards. Priority pointers advance per policy.
  void allocate();

  int grant_of_input(unsigned in) const { return grant_in_[in]; }      // output granted to `in`, or -1
  int grant_of_output(unsigned out) const { return grant_out_[out]; }  // input granted `out`, or -1
  // The (input, output) pairs granted in the last allocate(), in increasing output order.
  const std::vector<std::pair<uint32_t, uint32_t>>& grants() const { return grants_; }

 protected:
  // The policy: fills the matching with grant() from the requests below. Called only with requests.
  virtual void match() = 0;

  // Matches in with out; both must be unmatched.
  void grant(unsigned in, unsigned out);

  // Request rows: the outputs input `in` requests (out_words_ words), the inputs requesting output `out`
  // (in_words_ words).
  const uint64_t* outputs_of(unsigned in) const { return &req_in_[size_t(in) * out_words_]; }
  const uint64_t* inputs_of(unsigned out) const { return &req_out_[size_t(out) * in_words_]; }

  const unsigned inputs_, outputs_;
  const size_t in_words_, out_words_;  // words of a set of inputs, of a set of outputs
  std::vector<uint64_t> active_in_;    // inputs with requests this round (in_words_)
  std::vector<uint64_t> active_out_;   // outputs with requests this round (out_words_)
  std::vector<uint64_t> matched_in_;   // inputs matched so far this round (in_words_)
  std::vector<uint64_t> matched_out_;  // outputs matched so far this round (out_words_)

 private:
  std::vector<uint64_t> req_in_;   // per input: the outputs it requests
  std::vector<uint64_t> req_out_;  // per output: the inputs requesting it
  bool pending_ = false;
  std::vector<int> grant_in_, grant_out_;
  std::vector<std::pair<uint32_t, uint32_t>> grants_;  // capacity min(inputs, outputs): never reallocates
};

// The allocator named `kind`: "islip" (IslipAllocator with `iterations`) or "rr"
// (SeparableRoundRobinAllocator, which has one pass and ignores `iterations`); ConfigError for other names.
std::unique_ptr<Allocator> make_allocator(const std::string& kind, unsigned inputs, unsigned outputs,
                                          unsigned iterations = 1);

// The bytes make_allocator(kind, inputs, outputs) allocates (request bitsets, grants, pointers): the memory
// budget (models/system/memory_budget.h) counts it before anything is built. Quadratic in the ports: a VC
// allocator has inputs x VCs rows of output-VC bits.
uint64_t allocator_bytes(const std::string& kind, unsigned inputs, unsigned outputs);

}  // namespace gms
