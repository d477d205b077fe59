// The whole system's configuration: one typed struct per block, filled from one YAML document whose
// tree mirrors the object tree (system, sm, l1, noc, llc, dram, memory_map).
#pragma once
#include <string>
#include <vector>

#include "models/common/address_map.h"
#include "models/common/config.h"
#include "models/dram/dram_params.h"
#include "models/l1/l1_params.h"
#include "models/llc/adaptive/adaptive_params.h"
#include "models/llc/llc_params.h"
#include "models/noc/noc_params.h"
#include "models/sm/sm_params.h"

namespace gms {

struct SystemParams {
  std::string name = "gpu";
  uint64_t seed = 1;
  // A run with no completed request for this long (simulated) is a livelock: it fails, never hangs.
  uint64_t watchdog_us = 2000;
  uint64_t max_time_us = 0;  // 0 = no limit
  // The memory the system's blocks may need (memory_budget.h); 0 = the machine's memory and ulimits.
  uint64_t memory_limit_mb = 0;
  // The order in which the CTA scheduler fills the SMs: "sm" (SM 0, 1, 2, ...) or "clusters" (paper 004's
  // two-level round-robin: across the SM clusters first, then across a cluster's SMs; the clusters are
  // the H-Xbar's, one per LLC slice of a memory controller, models/common/sm_clusters.h).
  std::string cta_order = "sm";
  // Insert a TLM base-protocol checker (models/protocol) on every link: SM-L1, L1-NoC, NoC-LLC, LLC-DRAM.
  bool protocol_check = false;
  static SystemParams from(const ConfigNode& n);
};

struct SystemConfig {
  SystemParams system;
  SmParams sm;
  L1Params l1;
  NocParams noc;
  LlcParams llc;
  AdaptiveParams llc_adaptive;  // llc.adaptive (used when llc.mode is adaptive); bandwidths resolved
  DramParams dram;
  AddressMapParams memory_map;

  // Reads and validates the whole document (unknown keys anywhere are errors).
  static SystemConfig from(const ConfigNode& root);
};

// Reads a configuration document (YAML text or a file) with `overrides` ("key=value", as --set) applied.
SystemConfig load_system_config_string(const std::string& yaml, const std::string& origin = "<string>",
                                       const std::vector<std::string>& overrides = {});
SystemConfig load_system_config_file(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace gms
