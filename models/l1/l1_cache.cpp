#include "models/l1/l1_cache.h"

#include <map>
#include <stdexcept>

#include "models/l1/baseline_l1.h"
#include "models/l1/bypass_all_l1.h"
#include "models/l1/decoupled_l1.h"
#include "models/l1/decoupled_sectored_cache.h"
#include "models/l1/gcache_l1.h"
#include "models/l1/sector_l1.h"
#include "models/l1/stall_bypass_l1.h"
#include "models/l1/tag_split_cache.h"

namespace gms {

namespace {
StatGroup& stats_parent(const BlockEnv& env) {
  if (!env.stats) throw std::invalid_argument("L1: BlockEnv without a statistics group");
  return *env.stats;
}
}  // namespace

L1Cache::L1Cache(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env)
    : sc_core::sc_module(name),
      tsock("tsock"),
      isock("isock"),
      params_(p),
      sm_id_(sm_id),
      env_(env),
      clk_(p.clock_mhz),
      stats_(stats_parent(env), basename(), "L1 data cache of SM " + std::to_string(sm_id)),
      rng_(env.seed, basename()) {
  tsock.register_nb_transport_fw(this, &L1Cache::nb_transport_fw);
  tsock.register_b_transport(this, &L1Cache::b_transport);
  tsock.register_transport_dbg(this, &L1Cache::transport_dbg);
  isock.register_nb_transport_bw(this, &L1Cache::nb_transport_bw);
}

L1Cache::~L1Cache() = default;

namespace {
// Built-ins are listed here (not by static registrars, which a static library may drop).
std::map<std::string, L1Factory>& designs() {
  static std::map<std::string, L1Factory> d = {
      {"baseline",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<BaselineL1>(n, p, sm, env); }},
      {"sector",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<SectorL1>(n, p, sm, env); }},
      {"tsc",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<TagSplitCache>(n, p, sm, env, false); }},
      {"tsc_plus",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<TagSplitCache>(n, p, sm, env, true); }},
      {"dsc",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<DecoupledSectoredCache>(n, p, sm, env); }},
      {"gcache",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<GCacheL1>(n, p, sm, env); }},
      {"decoupled",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<DecoupledL1>(n, p, sm, env); }},
      // Bypass comparators of paper 002 (l1-bypass.md).
      {"bypass_all",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<BypassAllL1>(n, p, sm, env); }},
      {"stall_bypass",
       [](const L1Params& p, sc_core::sc_module_name n, unsigned sm, const BlockEnv& env)
           -> std::unique_ptr<L1Cache> { return std::make_unique<StallBypassL1>(n, p, sm, env); }},
  };
  return d;
}
}  // namespace

void register_l1_design(const std::string& name, L1Factory factory) {
  designs()[name] = std::move(factory);
}

std::vector<std::string> l1_design_names() {
  std::vector<std::string> names;
  for (auto& kv : designs()) names.push_back(kv.first);
  return names;
}

std::unique_ptr<L1Cache> make_l1(const L1Params& p, sc_core::sc_module_name name, unsigned sm_id,
                                 const BlockEnv& env) {
  auto it = designs().find(p.design);
  if (it == designs().end()) {
    std::string known;
    for (auto& n : l1_design_names()) known += (known.empty() ? "" : ", ") + n;
    throw ConfigError("l1.design: unknown L1 design '" + p.design + "' (known: " + known + ")");
  }
  // Parsed for the reuse-distance model (issue 14); the SystemC designs write-evict only so far.
  if (p.store_policy == StorePolicy::WriteAllocate)
    throw ConfigError(
        "l1.store_policy: write_allocate is not modelled by the SystemC L1 yet (gpumemsys rd models it)");
  return it->second(p, name, sm_id, env);
}

}  // namespace gms
