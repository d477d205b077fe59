// Parameters of the L1 designs beyond the common `l1:` keys, one struct per design, each read from its
// own sub-section (`l1.tsc:`, `l1.tsc_plus:`, `l1.dsc:`, ...) so the YAML tree mirrors the designs. Every
// section is read (and checked) whatever l1.design says, so a typo never passes silently.
#pragma once
#include <cstdint>

#include "models/common/config.h"

namespace gms {

// Tag-split cache (paper 000 sec. 3, table 2): 128 B access granularity, chunk storage. A set holds
// `ways` chunk groups of 128 B, so a group has 128 / chunk_bytes chunks.
struct TscParams {
  uint32_t chunk_bytes = 32;       // storage granularity: 8, 16, 32 or 64 B (sec. 5.4)
  uint32_t private_tag_bits = 8;   // per-chunk tag bits (sec. 5.1); 0 makes TSC a sector cache
  uint32_t extra_hit_latency = 1;  // cycles a hit takes beyond l1.hit_latency (sec. 5.5)
  static TscParams from(const ConfigNode& n);
};

// TSC+ storage-mode selection by set dueling (paper 000 sec. 3.5).
struct TscPlusParams {
  uint32_t sampler_sets = 8;        // sampler sets in the leader SM, half fine, half coarse
  uint32_t aging_threshold = 1024;  // a miss counter above this halves all four counters
  uint32_t leader_sm = 0;           // the SM whose sampler sets decide for every SM
  static TscPlusParams from(const ConfigNode& n);
};

// Decoupled sectored cache (Seznec; paper 000's DSC-2 / DSC-4 comparator): each 128 B frame has
// `tags_per_frame` address tags, each 32 B sector slot points at one of them.
struct DscParams {
  uint32_t tags_per_frame = 2;
  static DscParams from(const ConfigNode& n);
};

}  // namespace gms
