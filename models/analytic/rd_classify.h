// Miss classification of the reuse-distance model (paper 003 sec. 6.1): every load line request is a hit or
// one of compulsory, capacity, associativity, MSHR or latency misses (plus write-evict misses, a line a
// store removed), and its per-set reuse distance goes into the histogram. With tracked sectors a load whose
// line is allocated but lacks some of its sectors is a sector miss, and its sectors are counted too.
#pragma once
#include <cstdint>
#include <vector>

#include "models/analytic/set_stacks.h"

namespace gms {

enum class RdOutcome : uint8_t {
  Hit,
  Compulsory,
  Capacity,
  Associativity,
  Mshr,
  Latency,
  WriteEvict,
  Sector,  // tracked sectors: the line is allocated (in the cache or being filled), a sector is missing
  Cancelled,
  Store
};
const char* to_string(RdOutcome o);

// A miss that needs a new memory request (the line is not in flight), decided in this order:
// compulsory (never referenced), write-evict (a store removed it), MSHR (the request was put back for lack
// of an MSHR at `first_try` and the line took effect after that: without the stall it would have hit or
// merged), capacity (a fully associative LRU cache of the same size misses too), else associativity.
// (Inline: one call per miss.)
inline RdOutcome classify_miss(const LineState& st, const StackLookup& d, uint32_t cache_lines,
                               uint64_t first_try) {
  if (!st.seen) return RdOutcome::Compulsory;
  if (first_try != kNever && st.last_effect != kNever && st.last_effect > first_try) return RdOutcome::Mshr;
  if (st.store_evicted) return RdOutcome::WriteEvict;
  (void)cache_lines;
  if (!d.fa_hit) return RdOutcome::Capacity;
  return RdOutcome::Associativity;
}

struct RdCounts {
  uint64_t instructions = 0;     // warp memory instructions
  uint64_t thread_accesses = 0;  // active lanes over all instructions
  uint64_t loads = 0;            // load line requests (after coalescing)
  uint64_t stores = 0;           // store line requests
  uint64_t hits = 0, compulsory = 0, capacity = 0, associativity = 0, mshr = 0, latency = 0, write_evict = 0;
  uint64_t sector = 0;  // sector misses (tracked sectors only)
  // Tracked sectors: the sectors of the load line requests, and those that hit (valid, or their fill
  // pending: Nsight's l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate counts both as hits).
  uint64_t load_sectors = 0, load_sector_hits = 0;
  uint64_t cancelled = 0;           // put-backs for lack of an MSHR (retried, not counted as accesses)
  std::vector<uint64_t> histogram;  // per-set reuse distance of every load (index = distance)
  uint64_t histogram_inf = 0;       // loads with an infinite distance

  // Misses that send a request to memory (what the SystemC L1 counts as `misses`); latency misses merge.
  uint64_t misses() const { return compulsory + capacity + associativity + mshr + write_evict + sector; }
  double miss_rate() const { return loads ? double(misses()) / double(loads) : 0.0; }
  double miss_rate_with_latency() const { return loads ? double(misses() + latency) / double(loads) : 0.0; }
  double sector_hit_rate() const {
    return load_sectors ? double(load_sector_hits) / double(load_sectors) : 0.0;
  }
  void record(RdOutcome o, uint32_t set_distance);
  void add(const RdCounts& o);
};

inline void RdCounts::record(RdOutcome o, uint32_t dist) {
  ++loads;
  switch (o) {
    case RdOutcome::Hit:
      ++hits;
      break;
    case RdOutcome::Compulsory:
      ++compulsory;
      break;
    case RdOutcome::Capacity:
      ++capacity;
      break;
    case RdOutcome::Associativity:
      ++associativity;
      break;
    case RdOutcome::Mshr:
      ++mshr;
      break;
    case RdOutcome::Latency:
      ++latency;
      break;
    case RdOutcome::WriteEvict:
      ++write_evict;
      break;
    case RdOutcome::Sector:
      ++sector;
      break;
    default:
      --loads;
      return;
  }
  if (dist == kInfDistance) {
    ++histogram_inf;
    return;
  }
  if (dist >= histogram.size()) histogram.resize(size_t(dist) + 1, 0);
  ++histogram[dist];
}

}  // namespace gms
