// Parameters of an L1 data cache (YAML section `l1:`), shared by every L1 design.
#pragma once
#include <cstdint>
#include <string>

#include "models/cache/set_index.h"
#include "models/common/config.h"
#include "models/l1/decoupled_params.h"
#include "models/l1/gcache_params.h"
#include "models/l1/l1_design_params.h"
#include "models/l1/pdp_params.h"

namespace gms {

// What a store does to the L1's copy (every design writes through to L2).
enum class StorePolicy : uint8_t {
  WriteEvict,     // no allocation; written sectors (baseline: lines) are invalidated (Fermi)
  WriteAllocate,  // completely written sectors are installed (a line allocated on a miss), partly written
                  // valid ones updated, partly written invalid ones left invalid (Accel-Sim's Volta+ L1:
                  // write-through, lazy fetch on read)
};
const char* to_string(StorePolicy p);
// The policy named `name` (write_evict, write_allocate) into out; false for any other name.
bool parse_store_policy(const std::string& name, StorePolicy& out);

struct L1Params {
  std::string design = "baseline";  // a name in the L1 design registry (l1_cache.h)
  double clock_mhz = 1400.0;
  uint32_t size_bytes = 16384;
  uint32_t ways = 4;
  uint32_t line_bytes = 128;
  SetIndexFn set_index = SetIndexFn::FermiHash;
  std::string replacement = "lru";
  uint32_t mshr_entries = 32;
  uint32_t mshr_max_merge = 8;  // requests per MSHR entry, the first miss included
  uint32_t miss_queue_entries = 8;
  uint32_t hit_latency = 1;  // cycles from access to response
  bool flush_at_kernel_end = true;
  StorePolicy store_policy = StorePolicy::WriteEvict;
  // Per-design sections (l1_design_params.h).
  TscParams tsc;
  TscPlusParams tsc_plus;
  DscParams dsc;
  GCacheParams gcache;        // `l1.gcache:`, read whatever the design (used by design `gcache`)
  DecoupledParams decoupled;  // `l1.decoupled:` (design `decoupled`)
  PdpParams pdp;              // replacement `pdp` only

  uint32_t sets() const { return size_bytes / (ways * line_bytes); }
  static L1Params from(const ConfigNode& n);
};

}  // namespace gms
