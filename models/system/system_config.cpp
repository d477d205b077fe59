#include "models/system/system_config.h"

namespace gms {

namespace {

// Limits that involve keys of two sections, each checked only when the mode that uses it is on, so that
// no configuration error is left for the blocks' constructors (which would end the run with status 3).
void check_across_sections(const ConfigNode& root, const SystemConfig& c) {
  const ConfigNode l1 = root.child("l1"), llc = root.child("llc"), noc = root.child("noc");
  const std::string sm_count = "sm.count", slices = "llc.slices", channels = "dram.channels";
  const unsigned per_channel = c.llc.slices / c.dram.channels;  // a multiple: AddressMapParams checked it
  // TSC+: the leader SM's sampler sets decide for every SM; an SM that does not exist never decides.
  if (c.l1.design == "tsc_plus" && c.l1.tsc_plus.leader_sm >= c.sm.count)
    l1.child("tsc_plus")
        .fail("leader_sm",
              "SM " + std::to_string(c.l1.tsc_plus.leader_sm) + " does not exist: sm.count is " +
                  std::to_string(c.sm.count) + " (SMs 0.." + std::to_string(c.sm.count - 1) + ")",
              {sm_count});
  // The adaptive controller's ATD keeps one private shadow per SM cluster (one per slice of a channel).
  if (c.llc.mode == "adaptive" && per_channel > 64)
    llc.fail("mode",
             "adaptive needs at most 64 LLC slices per DRAM channel (the ATD's SM clusters), llc.slices / "
             "dram.channels is " +
                 std::to_string(c.llc.slices) + " / " + std::to_string(c.dram.channels) + " = " +
                 std::to_string(per_channel),
             {slices, channels});
  // H-Xbar: one SM-router per slice of a memory controller (paper 004 section 4.1), each with an SM.
  if (c.noc.type == "hxbar") {
    const ConfigNode hx = noc.child("hxbar");
    if (c.noc.hxbar.clusters != 0 && c.noc.hxbar.clusters != per_channel)
      hx.fail("clusters",
              std::to_string(c.noc.hxbar.clusters) +
                  " SM-routers, but the co-design rule (paper 004 section 4.1) needs one per LLC slice of a "
                  "memory controller: llc.slices / dram.channels = " +
                  std::to_string(per_channel) + " (or 0 for that)",
              {slices, channels});
    if (c.sm.count < per_channel)
      noc.fail("type",
               "hxbar needs an SM per cluster: " + std::to_string(per_channel) +
                   " clusters (llc.slices / dram.channels) for sm.count " + std::to_string(c.sm.count),
               {sm_count, slices, channels});
  }
}

}  // namespace

SystemParams SystemParams::from(const ConfigNode& n) {
  SystemParams p;
  p.name = n.get_string("name", p.name);
  p.seed = n.get_uint("seed", p.seed);
  p.watchdog_us = n.get_uint("watchdog_us", p.watchdog_us, 1, 1000000000);
  p.max_time_us = n.get_uint("max_time_us", p.max_time_us);
  p.memory_limit_mb = n.get_uint("memory_limit_mb", p.memory_limit_mb);
  p.cta_order = n.get_choice("cta_order", p.cta_order, {"sm", "clusters"});
  p.protocol_check = n.get_bool("protocol_check", p.protocol_check);
  n.finish();
  return p;
}

SystemConfig SystemConfig::from(const ConfigNode& root) {
  // An empty file (or /dev/null) is a mistake, not "all defaults": most sections are required anyway.
  if (root.keys().empty())
    throw ConfigError(root.file() +
                      ": empty configuration: expected a map with sections system, sm, l1, noc, llc, dram, "
                      "memory_map");
  SystemConfig c;
  c.system = SystemParams::from(root.child("system"));
  c.sm = SmParams::from(root.require_child("sm"));
  c.l1 = L1Params::from(root.require_child("l1"));
  c.noc = NocParams::from(root.require_child("noc"));
  const ConfigNode llc = root.require_child("llc");
  const ConfigNode adaptive = llc.child("adaptive");  // taken before LlcParams::from finishes the map
  c.llc = LlcParams::from(llc);
  // The adaptive keys are range-checked whatever the mode; only the adaptive mode checks them against the
  // slice (a 3-set shared LLC is fine with the default sampled_sets: 8, which it never uses).
  c.llc_adaptive = AdaptiveParams::from(adaptive, c.llc.mode == "adaptive" ? &c.llc : nullptr);
  c.dram = DramParams::from(root.require_child("dram"));
  // The model's raw bandwidths: one slice moves 32 B per LLC cycle; memory is every channel's peak.
  c.llc_adaptive.resolve_bandwidth(c.llc.clock_mhz * 32.0 / 1000.0, c.dram.channels * c.dram.peak_gbps());
  c.memory_map = AddressMapParams::from(root.child("memory_map"), c.llc.slices, c.dram.channels);
  // hynix fixes the DRAM's bank/row/column order too; explicit bit lists would make it another mapping.
  if (c.memory_map.mapping == AddressMapping::Hynix) {
    if (root.child("dram").has("mapping"))
      root.child("memory_map")
          .fail("mapping",
                "hynix sets the DRAM bank/row/column bits itself; remove dram.mapping or use "
                "bitfield");
    c.dram.hynix_mapping();
  }
  check_across_sections(root, c);
  root.finish_all();
  return c;
}

namespace {

SystemConfig with_overrides(ConfigNode doc, const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) doc.apply_override(o);
  return SystemConfig::from(doc);
}

}  // namespace

SystemConfig load_system_config_string(const std::string& yaml, const std::string& origin,
                                       const std::vector<std::string>& overrides) {
  return with_overrides(ConfigNode::load_string(yaml, origin), overrides);
}

SystemConfig load_system_config_file(const std::string& path, const std::vector<std::string>& overrides) {
  return with_overrides(ConfigNode::load_file(path), overrides);
}

}  // namespace gms
