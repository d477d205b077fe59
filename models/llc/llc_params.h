// Parameters of one memory-side LLC slice (YAML section `llc:`). Defaults: the Fermi-class L2 bank of
// paper 000 (12 banks x 64 KB, 8-way, 128 B lines, 32 MSHRs) at the 700 MHz L2 clock of paper 001.
// Times are cycles of the slice clock.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/config.h"

namespace gms {

enum class LlcFetch : uint8_t { Sector, Line };
// How a line address picks its set (see llc_set_hash.h): xor_fold spreads the slice-interleaved
// addresses a slice sees over all its sets (any set count); linear and fermi_hash are the cache core's
// functions (fermi_hash: 32 or 64 sets).
enum class LlcSetIndex : uint8_t { XorFold, Linear, FermiHash };

struct LlcParams {
  uint32_t slices = 12;  // read by the system builder
  double clock_mhz = 700.0;
  uint64_t size_bytes = 65536;  // per slice
  uint32_t ways = 8;
  uint32_t line_bytes = 128;   // fixed: the GPU request size
  uint32_t sector_bytes = 32;  // fixed: the chunk-mask granularity
  std::string replacement = "lru";
  LlcSetIndex set_index = LlcSetIndex::XorFold;
  uint32_t mshr_entries = 32;
  uint32_t mshr_max_merge = 16;
  uint32_t latency = 20;         // cycles from access to response for hits and write acks
  uint32_t input_queue = 8;      // requests accepted from the NoC, waiting for the tag access
  uint32_t miss_queue = 8;       // DRAM requests (fetches and write-backs) waiting for the channel
  uint32_t response_queue = 32;  // hit responses and write acks in the access pipeline
  LlcFetch fetch = LlcFetch::Sector;
  // Organisation (paper 004; llc_mode_controller.h): shared (slice by address), private (slice by the
  // requesting SM's cluster, write-through, H-Xbar MC-routers gated) or adaptive (starts shared; the
  // adaptive controller switches, llc.adaptive). Read by the system builder.
  std::string mode = "shared";
  std::string design = "slice";  // the slice model (last_level_cache.h registry)
  // Forced switches shared <-> private every this many LLC cycles (0: none): for tests and experiments.
  uint64_t force_switch_cycles = 0;
  // G-Cache victim bits (llc_victim_bits.h), set by the system builder, not YAML keys: the number of
  // L1s and how many SMs share one bit (0 = no victim bits).
  uint32_t victim_bit_l1s = 0;
  uint32_t sms_per_victim_bit = 0;
  // The address map's rotation, set by the system builder, not YAML keys: the slices it rotates over and
  // the 128 B lines per interleave chunk (1, 1 = this slice sees every line). A non-power-of-two xor_fold
  // index spreads the slice's own lines with them (llc_set_hash.h).
  uint32_t map_slices = 1;
  uint32_t map_chunk_lines = 1;

  uint32_t sets() const { return uint32_t(size_bytes / (uint64_t(ways) * line_bytes)); }

  static LlcParams from(const ConfigNode& n);
  // Throws ConfigError (without a file position) when fields set in code are inconsistent.
  void check() const;
};

const char* to_string(LlcFetch f);
const char* to_string(LlcSetIndex s);

}  // namespace gms
