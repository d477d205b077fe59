// Switch allocation of one crossbar cycle, behind a small interface so the policy can change (per-output
// round-robin now; iSLIP with several requests per input later; the Verilated RTL round-robin of
// models/noc/rtl/) without touching the network logic. Requests are bitmasks of inputs per output, so a
// cycle costs per request, not per port.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/noc/active_set.h"

namespace gms {

class VcdWriter;
class RtlClock;

struct SwitchRequest {
  uint32_t input;
  uint32_t output;
};

class Arbiter {
 public:
  virtual ~Arbiter() = default;
  void resize(unsigned inputs, unsigned outputs);
  // Input `in` requests output `out` this cycle (an input may request several).
  void request(uint32_t in, uint32_t out) {
    if (!requested_.test(out)) {
      requested_.set(out);
      touched_[touched_count_++] = out;
    }
    mask_[out * words_ + (in >> 6)] |= uint64_t(1) << (in & 63);
  }
  bool has_requests() const { return touched_count_ != 0; }
  // Answers the requests made since the last call: `grants` receives a matching (every input and every
  // output at most once), in order of each output's first request. State (priority pointers) advances.
  virtual void grant(std::vector<SwitchRequest>& grants) = 0;
  // True when grant() waits delta cycles for a co-simulated model (sc_core::wait): its caller must run in
  // a thread process (WakeScheduler::allow_waiting()).
  virtual bool waits() const { return false; }
  // The same for a list of (input, output) requests.
  void allocate(const std::vector<SwitchRequest>& requests, std::vector<SwitchRequest>& grants) {
    for (const SwitchRequest& r : requests) request(r.input, r.output);
    grant(grants);
  }

 protected:
  virtual void on_resize() {}
  // Forgets the requests for output o (grant() calls it for each output in touched_, then clears that).
  void clear_requests(uint32_t o) {
    requested_.clear(o);
    for (size_t w = 0; w < words_; ++w) mask_[o * words_ + w] = 0;
  }

  unsigned inputs_ = 0, outputs_ = 0;
  size_t words_ = 1;               // words per input mask
  std::vector<uint64_t> mask_;     // per output: the inputs requesting it (words_ words each)
  std::vector<uint64_t> granted_;  // inputs granted in this cycle's grant()
  ActiveSet requested_;            // outputs with requests
  std::vector<uint32_t> touched_;  // outputs requested this cycle, in order of first request (a fixed
  size_t touched_count_ = 0;       // array and a count: request() is on the per-packet path)
};

// Per-output round-robin: each output grants the requesting input that follows its last winner
// (cyclically), skipping inputs another output already granted this cycle.
class RoundRobinArbiter : public Arbiter {
 public:
  void grant(std::vector<SwitchRequest>& grants) override;

 private:
  void on_resize() override;
  std::vector<uint32_t> next_;  // per output: the input after its last winner (first in line)
};

// Where an arbiter sits. The RTL arbiter is a SystemC module, made during elaboration as a child of the
// module being built, clocked and reset by `clock`, and traces its signals into the block's VCD.
struct ArbiterSite {
  std::string name = "arbiter";     // module name
  VcdWriter* tf = nullptr;          // the block's VCD; nullptr: not traced
  std::string scope;                // VCD scope of its signals
  const RtlClock* clock = nullptr;  // the RTL arbiter's clock and reset (required by it; models/noc/rtl)
};

// The arbiter named by NocParams::arbiter ("rr", "rtl"); ConfigError for unknown names and for "rtl" in a
// build without RTL co-simulation.
std::unique_ptr<Arbiter> make_arbiter(const std::string& kind, const ArbiterSite& site = {});

}  // namespace gms
