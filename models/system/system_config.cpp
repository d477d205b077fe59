#include "models/system/system_config.h"

namespace gms {

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
  c.llc_adaptive = AdaptiveParams::from(adaptive, &c.llc);
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
