// Switch allocation of one crossbar cycle, behind a small interface so the policy can change (per-output
// round-robin now; iSLIP with several requests per input later) without touching the network logic.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gms {

struct SwitchRequest {
  uint32_t input;
  uint32_t output;
};

class Arbiter {
 public:
  virtual ~Arbiter() = default;
  virtual void resize(unsigned inputs, unsigned outputs) = 0;
  // One cycle: `requests` lists (input, output) pairs (an input may request several); `grants` receives a
  // matching (every input and every output at most once). State (priority pointers) advances per grant.
  virtual void allocate(const std::vector<SwitchRequest>& requests, std::vector<SwitchRequest>& grants) = 0;
};

// Per-output round-robin: each output grants the requesting input that follows its last winner
// (cyclically), skipping inputs another output already granted this cycle.
class RoundRobinArbiter : public Arbiter {
 public:
  void resize(unsigned inputs, unsigned outputs) override;
  void allocate(const std::vector<SwitchRequest>& requests, std::vector<SwitchRequest>& grants) override;

 private:
  // Cyclic distance of the requester from the output's last winner: 0 = the input right after it.
  uint32_t distance(const SwitchRequest& r) const {
    return (r.input + inputs_ - last_[r.output] - 1) % inputs_;
  }

  unsigned inputs_ = 0;
  std::vector<uint32_t> last_;  // per output: last granted input
  // Scratch for one allocate(), reset through touched_ so a cycle costs O(requests), not O(ports).
  std::vector<uint8_t> input_granted_;
  std::vector<uint8_t> output_seen_;
  std::vector<uint32_t> best_, best_dist_;
  std::vector<uint32_t> touched_;  // outputs requested this cycle, in order of first appearance
};

// The arbiter named by NocParams::arbiter ("rr"); ConfigError for unknown names.
std::unique_ptr<Arbiter> make_arbiter(const std::string& kind);

}  // namespace gms
