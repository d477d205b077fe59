// The statistics every L1 design reports (names follow the papers: hit, hit-pending, miss,
// reservation-fail by cause, L1<->L2 traffic). Designs add their own counters next to these.
#pragma once
#include "models/common/stats.h"

namespace gms {

struct L1Stats {
  explicit L1Stats(StatGroup& g);
  Counter& requests;   // requests received from the SM (each once)
  Counter& responses;  // responses sent to the SM
  Counter& accesses;   // tag-array probes, retries of held requests included
  Counter& loads;      // load requests served (hit, hit_pending or miss)
  Counter& stores;     // store requests forwarded downstream
  Counter& atomics;    // atomic requests forwarded downstream (performed at the LLC)
  Counter& hits;
  Counter& hit_pending;
  Counter& misses;
  Counter& partial_hits;  // loads that found some of their chunks and fetched the rest (sectored designs)
  Counter& bypasses;      // loads sent to L2 around the cache (bypass designs); their fills never install
  Counter& reservation_fails;
  Counter& rf_mshr;
  Counter& rf_line;
  Counter& rf_miss_queue;
  Counter& rf_merge;
  Counter& rf_no_fill;
  Counter& write_evicts;    // store hits that invalidated a valid line
  Counter& store_installs;  // granules a store installed (store_policy write_allocate)
  Counter& no_fill_marks;   // stores that cancelled the install of a pending fill
  Counter& fills;
  Counter& fills_dropped;  // fills answered to waiters but not installed
  Counter& evictions;      // valid lines replaced by a miss allocation
  Counter& flushes;
  Counter& flushed_lines;
  Counter& to_l2_requests;
  Counter& to_l2_bytes;
  Counter& from_l2_bytes;
  Counter& to_l2_packets;      // 32 B flits: one per request plus one per written chunk
  Counter& from_l2_packets;    // 32 B flits: one per returned chunk, at least one per reply
  Counter& load_sectors;       // 32 B sectors requested by loads (Nsight's l1tex t_sectors of global loads)
  Counter& load_sector_hits;   // ... found valid or already being fetched (Nsight counts both as hits)
  Counter& load_insts;         // warp load instructions seen (paper 000's per-instruction miss rate)
  Counter& load_insts_missed;  // ... of which at least one request missed, partially hit or bypassed
};

}  // namespace gms
