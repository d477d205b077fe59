#include "models/llc/last_level_cache.h"

#include <map>

#include "models/common/config.h"
#include "models/common/mem_req.h"
#include "models/llc/llc_slice.h"

namespace gms {

LastLevelCache::LastLevelCache(sc_core::sc_module_name name, unsigned slice_id)
    : sc_core::sc_module(name), tsock("tsock"), isock("isock"), slice_id_(slice_id) {
  tsock.register_nb_transport_fw(this, &LastLevelCache::fw_cb);
  tsock.register_b_transport(this, &LastLevelCache::b_cb);
  tsock.register_transport_dbg(this, &LastLevelCache::dbg_cb);
  tsock.register_get_direct_mem_ptr(this, &LastLevelCache::dmi_cb);
  isock.register_nb_transport_bw(this, &LastLevelCache::bw_cb);
  isock.register_invalidate_direct_mem_ptr(this, &LastLevelCache::invalidate_cb);
}

LastLevelCache::~LastLevelCache() = default;

bool LastLevelCache::get_direct_mem_ptr(Payload& t, tlm::tlm_dmi& dmi) {
  const uint64_t line = t.get_address() & ~uint64_t(kLineBytes - 1);
  dmi.allow_none();
  dmi.set_start_address(line);
  dmi.set_end_address(line + kLineBytes - 1);
  return false;
}

namespace {
// The registry: one per process, filled with the built-in design on first use (no static initialisation
// order to depend on).
std::map<std::string, LlcFactory>& registry() {
  static std::map<std::string, LlcFactory> r = {
      {"slice", [](const LlcParams& p, sc_core::sc_module_name n, unsigned id, const BlockEnv& env) {
         return std::unique_ptr<LastLevelCache>(std::make_unique<LlcSlice>(n, p, id, env));
       }}};
  return r;
}
}  // namespace

void register_llc_design(const std::string& name, LlcFactory factory) {
  registry()[name] = std::move(factory);
}

std::vector<std::string> llc_designs() {
  std::vector<std::string> v;
  for (const auto& kv : registry()) v.push_back(kv.first);
  return v;
}

std::unique_ptr<LastLevelCache> make_llc(const LlcParams& p, sc_core::sc_module_name name, unsigned slice_id,
                                         const BlockEnv& env) {
  auto it = registry().find(p.design);
  if (it == registry().end()) {
    std::string known;
    for (const auto& kv : registry()) known += (known.empty() ? "" : ", ") + kv.first;
    throw ConfigError("llc.design: unknown LLC design '" + p.design + "' (known: " + known + ")");
  }
  return it->second(p, name, slice_id, env);
}

}  // namespace gms
