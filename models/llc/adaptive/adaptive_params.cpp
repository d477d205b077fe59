#include "models/llc/adaptive/adaptive_params.h"

#include <string>
#include <vector>

#include "models/llc/llc_params.h"

namespace gms {

namespace {

// The first cross-field inconsistency of p, or "" (shared by from() with file positions and check()).
std::string problem(const AdaptiveParams& p, std::string& key) {
  // A window must end before its epoch does, or the next epoch would start while still profiling.
  if (p.profile_cycles >= p.epoch_cycles) {
    key = "profile_cycles";
    return "profile_cycles (" + std::to_string(p.profile_cycles) + ") must be below epoch_cycles (" +
           std::to_string(p.epoch_cycles) + ")";
  }
  if (p.warmup_cycles + p.profile_cycles >= p.epoch_cycles) {
    key = "warmup_cycles";
    return "warmup_cycles + profile_cycles (" + std::to_string(p.warmup_cycles + p.profile_cycles) +
           ") must be below epoch_cycles (" + std::to_string(p.epoch_cycles) + ")";
  }
  return "";
}

}  // namespace

AdaptiveParams AdaptiveParams::from(const ConfigNode& n, const LlcParams* llc) {
  AdaptiveParams p;
  p.epoch_cycles = n.get_uint("epoch_cycles", p.epoch_cycles, 2, uint64_t(1) << 40);
  p.profile_cycles = n.get_uint("profile_cycles", p.profile_cycles, 1, uint64_t(1) << 40);
  p.warmup_cycles = n.get_uint("warmup_cycles", p.warmup_cycles, 0, uint64_t(1) << 40);
  p.rule1_miss_rate_delta = n.get_double("rule1_miss_rate_delta", p.rule1_miss_rate_delta, 0.0, 1.0);
  p.sampled_sets = uint32_t(n.get_uint("sampled_sets", p.sampled_sets, 1, 1u << 20));
  p.sampled_slice = uint32_t(n.get_uint("sampled_slice", p.sampled_slice, 0, 1023));
  p.lsp_counter_bits = uint32_t(n.get_uint("lsp_counter_bits", p.lsp_counter_bits, 1, 32));
  p.llc_slice_gbps = n.get_double("llc_slice_gbps", p.llc_slice_gbps, 0.0, 1e6);
  p.mem_gbps = n.get_double("mem_gbps", p.mem_gbps, 0.0, 1e6);
  std::string key;
  std::string why = problem(p, key);
  // Name the key the user wrote: with profile_cycles left at its default, epoch_cycles is the culprit.
  if (key == "profile_cycles" && !n.has("profile_cycles")) key = "epoch_cycles";
  if (why.empty() && llc) {
    if (p.sampled_sets > llc->sets()) {
      key = "sampled_sets";
      why = "sampled_sets (" + std::to_string(p.sampled_sets) + ") exceeds the slice's sets (" +
            std::to_string(llc->sets()) + ")";
    } else if (p.sampled_slice >= llc->slices) {
      key = "sampled_slice";
      why = "sampled_slice (" + std::to_string(p.sampled_slice) + ") must be below llc.slices (" +
            std::to_string(llc->slices) + ")";
    }
  }
  if (!why.empty()) {
    // Either factor may be the one just typed on the command line.
    const std::vector<std::string> related =
        key == "sampled_sets" ? std::vector<std::string>{"llc.size_bytes", "llc.ways"}
        : key == "sampled_slice"
            ? std::vector<std::string>{"llc.slices"}
            : std::vector<std::string>{n.key_path("epoch_cycles"), n.key_path("profile_cycles"),
                                       n.key_path("warmup_cycles")};
    n.fail(key, why, related);
  }
  n.finish();
  return p;
}

void AdaptiveParams::resolve_bandwidth(double llc_slice_gbps_default, double mem_gbps_default) {
  if (llc_slice_gbps == 0.0) llc_slice_gbps = llc_slice_gbps_default;
  if (mem_gbps == 0.0) mem_gbps = mem_gbps_default;
}

void AdaptiveParams::check() const {
  std::string key;
  std::string why = problem(*this, key);
  if (!why.empty()) throw ConfigError("llc.adaptive." + key + ": " + why);
  if (epoch_cycles < 2 || profile_cycles == 0)
    throw ConfigError("llc.adaptive: epoch_cycles must be at least 2 and profile_cycles at least 1");
  if (!(rule1_miss_rate_delta >= 0.0 && rule1_miss_rate_delta <= 1.0))
    throw ConfigError("llc.adaptive.rule1_miss_rate_delta: must lie in [0, 1]");
  if (sampled_sets == 0) throw ConfigError("llc.adaptive.sampled_sets: must be at least 1");
  if (lsp_counter_bits == 0 || lsp_counter_bits > 32)
    throw ConfigError("llc.adaptive.lsp_counter_bits: must lie in [1, 32]");
  if (!(llc_slice_gbps > 0.0) || !(mem_gbps > 0.0))
    throw ConfigError("llc.adaptive: llc_slice_gbps and mem_gbps must be positive (0 = not yet resolved)");
}

}  // namespace gms
