// Parameters of the reuse-distance model (paper 003): the cache and MSHR geometry (from the system
// configuration's `l1:` and `sm:` sections) plus the model's own `rd:` options (latencies, seed, ...).
#pragma once
#include <cstdint>
#include <string>

#include "models/cache/set_index.h"
#include "models/l1/l1_params.h"
#include "models/sm/sm_params.h"

namespace gms {

struct RdParams {
  // Cache (l1: size_bytes, ways, line_bytes, set_index). ways = 0 means fully associative.
  uint32_t size_bytes = 16384;
  uint32_t ways = 4;
  uint32_t line_bytes = 128;
  SetIndexFn set_index = SetIndexFn::FermiHash;
  // MSHRs (paper 003 sec. 4.4): per core and per warp; 0 = unlimited.
  uint32_t mshr_entries = 64;
  uint32_t mshr_per_warp = 6;
  // Time stamps (sec. 4.2): hit latency, miss latency lambda_min + |N(0, sigma^2)|.
  uint32_t hit_latency = 0;
  uint32_t miss_latency = 100;
  double sigma = 5.0;
  uint64_t seed = 1;
  bool clip = true;                // clip a latency miss's effect time to the in-flight request's
  bool divergence = true;          // warp queue: a warp re-enters after its latency (sec. 4.5)
  double divergence_factor = 1.0;  // delay = factor x the instruction's largest latency
  // Ordering (sec. 4.1): cores and occupancy limits (sm:).
  uint32_t cores = 15;
  uint32_t max_ctas = 8, max_warps = 48, max_threads = 1536, max_regs = 32768, max_shmem = 49152;
  bool flush_at_kernel_end = true;  // cold cache per kernel (l1.flush_at_kernel_end)
  // Stores (l1.store_policy): write_evict (a store invalidates what it writes; stores_evict = false: stores
  // leave the cache alone) or write_allocate (a store allocates the line and validates the sectors it
  // writes completely; needs stores_evict, the default).
  StorePolicy store_policy = StorePolicy::WriteEvict;
  bool stores_evict = true;  // write_evict: a store invalidates the line (the baseline L1's write-evict)
  // Sectors (l1.design sector: 32): lines are allocated whole but loads hit per sector, a sector being valid
  // once brought in since the line's allocation (sector_l1.h). 0 = whole lines. write_allocate tracks
  // valid sectors too, a sector then being the whole line when sector_bytes is 0.
  uint32_t sector_bytes = 0;
  bool exact_global = false;  // exact whole-cache distances (a global tree; slower), see set_stacks.h

  uint32_t lines() const { return size_bytes / line_bytes; }
  uint32_t effective_ways() const { return ways == 0 ? lines() : ways; }
  uint32_t sets() const { return lines() / effective_ways(); }
  // Per-sector valid state is kept (sector_bytes set, or write_allocate); sectors of that many bytes.
  bool tracks_sectors() const { return sector_bytes != 0 || store_policy == StorePolicy::WriteAllocate; }
  uint32_t tracked_sector_bytes() const { return sector_bytes ? sector_bytes : line_bytes; }
  static constexpr uint32_t kMaxSectors = 4;  // sectors of a tracked line (32 B sectors of 128 B lines)

  // Throws ConfigError naming the offending option.
  void validate() const;
  // Cache and ordering from a system configuration; rd options keep their defaults.
  static RdParams from_config(const L1Params& l1, const SmParams& sm);
  // The paper's zero-latency setting: one core, no MSHR limit, no divergence delay.
  static RdParams ideal(uint32_t size_bytes, uint32_t ways, uint32_t line_bytes);
  // One `rd:` option, KEY=VALUE (e.g. "miss_latency=200"); bad key or value -> ConfigError.
  void set(const std::string& key_value);
  static const char* option_help();
};

}  // namespace gms
