#include "models/cache/replacement.h"

#include <map>
#include <stdexcept>

#include "models/cache/lru_policy.h"
#include "models/cache/nru_policy.h"
#include "models/cache/pdp_policy.h"
#include "models/cache/random_policy.h"
#include "models/cache/srrip_policy.h"

namespace gms {

ReplacementPolicy::~ReplacementPolicy() = default;

namespace {
// Built-ins are inserted on first use (not by static registrars, which a static library may drop).
using Opts = const ReplacementOptions&;
std::unique_ptr<ReplacementPolicy> make_pdp(uint32_t sets, uint32_t ways, Opts o) {
  if (!o.can_bypass)
    throw std::invalid_argument("pdp bypasses a load when every way is protected; this cache cannot bypass");
  return std::make_unique<PdpPolicy>(sets, ways, o.pdp_distance);
}

std::map<std::string, ReplacementOptionsFactory>& registry() {
  static std::map<std::string, ReplacementOptionsFactory> r = {
      {"lru", [](uint32_t s, uint32_t w, Rng&, Opts) { return std::make_unique<LruPolicy>(s, w); }},
      {"nru", [](uint32_t s, uint32_t w, Rng&, Opts) { return std::make_unique<NruPolicy>(s, w); }},
      {"srrip", [](uint32_t s, uint32_t w, Rng&, Opts) { return std::make_unique<SrripPolicy>(s, w); }},
      {"random",
       [](uint32_t s, uint32_t w, Rng& rng, Opts) { return std::make_unique<RandomPolicy>(s, w, rng); }},
      {"pdp", [](uint32_t s, uint32_t w, Rng&, Opts o) { return make_pdp(s, w, o); }},
  };
  return r;
}
}  // namespace

void register_replacement(const std::string& name, ReplacementFactory factory) {
  registry()[name] = [f = std::move(factory)](uint32_t s, uint32_t w, Rng& rng, Opts) {
    return f(s, w, rng);
  };
}

void register_replacement(const std::string& name, ReplacementOptionsFactory factory) {
  registry()[name] = std::move(factory);
}

std::vector<std::string> replacement_names() {
  std::vector<std::string> names;
  for (auto& kv : registry()) names.push_back(kv.first);
  return names;
}

std::unique_ptr<ReplacementPolicy> make_replacement(const std::string& name, uint32_t sets, uint32_t ways,
                                                    Rng& rng, const ReplacementOptions& opts) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (auto& n : replacement_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown replacement policy '" + name + "' (known: " + known + ")");
  }
  if (ways == 0 || ways > 64) throw std::invalid_argument("replacement: ways must be in [1, 64]");
  if (sets == 0) throw std::invalid_argument("replacement: sets must be at least 1");
  return it->second(sets, ways, rng, opts);
}

}  // namespace gms
