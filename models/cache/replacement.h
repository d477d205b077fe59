// Replacement policies of the cache core: one interface, one file per policy, a name registry so
// configs pick a policy by name ("lru", "nru", "srrip", "random", "pdp") and later designs can add their own.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/rng.h"

namespace gms {

class ReplacementPolicy {
 public:
  static constexpr uint32_t kNoVictim = UINT32_MAX;  // victim_or_bypass: every candidate is protected

  virtual ~ReplacementPolicy();
  virtual void on_hit(uint32_t set, uint32_t way) = 0;
  virtual void on_fill(uint32_t set, uint32_t way) = 0;
  virtual void on_invalidate(uint32_t /*set*/, uint32_t /*way*/) {}
  // The way to evict among candidate_ways (bit w set = way w allowed; never empty). May update the
  // policy's own state (SRRIP ages the set) but never the tag array.
  virtual uint32_t victim(uint32_t set, uint64_t candidate_ways) = 0;
  virtual const char* name() const = 0;

  // Bypassing policies (PDP) may refuse to evict and age on every access to a set. They say so once at
  // construction, so a cache asks the two hooks below only of them and the others cost nothing more.
  bool may_bypass() const { return may_bypass_; }
  // victim(), or kNoVictim when the policy wants the incoming line bypassed.
  virtual uint32_t victim_or_bypass(uint32_t set, uint64_t candidate_ways) {
    return victim(set, candidate_ways);
  }
  // One access to the set was served (a load or a store, not a failed retry), after its victim decision;
  // `way` is the line it hit or filled, -1 when it kept no line of the set (bypass, store).
  virtual void on_access(uint32_t /*set*/, int /*way*/) {}

 protected:
  ReplacementPolicy() = default;
  explicit ReplacementPolicy(bool may_bypass) : may_bypass_(may_bypass) {}

 private:
  bool may_bypass_ = false;
};

// What some policies need beyond the geometry. Defaults suit every cache; only a cache that can bypass
// a load (the L1) may build a bypassing policy.
struct ReplacementOptions {
  uint32_t pdp_distance = 16;  // PDP's protection distance, in accesses to the set
  bool can_bypass = false;     // the cache bypasses when victim_or_bypass() refuses
};

// Builds a policy for a sets x ways array. rng must outlive the policy (the owning block's Rng).
using ReplacementFactory =
    std::function<std::unique_ptr<ReplacementPolicy>(uint32_t sets, uint32_t ways, Rng& rng)>;
// The same with the options (a policy that the options can rule out throws std::invalid_argument).
using ReplacementOptionsFactory = std::function<std::unique_ptr<ReplacementPolicy>(
    uint32_t sets, uint32_t ways, Rng& rng, const ReplacementOptions& opts)>;

// Adds (or replaces) a named policy. The built-in ones are always present.
void register_replacement(const std::string& name, ReplacementFactory factory);
void register_replacement(const std::string& name, ReplacementOptionsFactory factory);
// Unknown name (or options the policy cannot honour) -> std::invalid_argument.
std::unique_ptr<ReplacementPolicy> make_replacement(const std::string& name, uint32_t sets, uint32_t ways,
                                                    Rng& rng, const ReplacementOptions& opts = {});
// Registered names, sorted (for config choices and messages).
std::vector<std::string> replacement_names();

// Lowest way whose bit is set in mask (mask != 0).
inline uint32_t lowest_way(uint64_t mask) {
  return uint32_t(__builtin_ctzll(mask));
}

}  // namespace gms
