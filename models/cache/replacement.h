// Replacement policies of the cache core: one interface, one file per policy, a name registry so
// configs pick a policy by name ("lru", "nru", "srrip", "random") and later designs can add their own.
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
  virtual ~ReplacementPolicy();
  virtual void on_hit(uint32_t set, uint32_t way) = 0;
  virtual void on_fill(uint32_t set, uint32_t way) = 0;
  virtual void on_invalidate(uint32_t /*set*/, uint32_t /*way*/) {}
  // The way to evict among candidate_ways (bit w set = way w allowed; never empty). May update the
  // policy's own state (SRRIP ages the set) but never the tag array.
  virtual uint32_t victim(uint32_t set, uint64_t candidate_ways) = 0;
  virtual const char* name() const = 0;
};

// Builds a policy for a sets x ways array. rng must outlive the policy (the owning block's Rng).
using ReplacementFactory =
    std::function<std::unique_ptr<ReplacementPolicy>(uint32_t sets, uint32_t ways, Rng& rng)>;

// Adds (or replaces) a named policy. The built-in ones are always present.
void register_replacement(const std::string& name, ReplacementFactory factory);
// Unknown name -> std::invalid_argument listing the known ones.
std::unique_ptr<ReplacementPolicy> make_replacement(const std::string& name, uint32_t sets, uint32_t ways,
                                                    Rng& rng);
// Registered names, sorted (for config choices and messages).
std::vector<std::string> replacement_names();

// Lowest way whose bit is set in mask (mask != 0).
inline uint32_t lowest_way(uint64_t mask) {
  return uint32_t(__builtin_ctzll(mask));
}

}  // namespace gms
