// Counters of one LLC slice (names follow the papers' metrics; see docs/blocks/llc.md).
#pragma once
#include <array>

#include "models/common/stats.h"

namespace gms {

// Why the head of the input queue could not be accessed this cycle (GPGPU-Sim's reservation fails).
enum class LlcStall : uint8_t {
  MshrFull,
  MergeFull,
  WaysReserved,
  MissQueueFull,
  ResponseQueueFull,
  WritebackPending
};
constexpr unsigned kLlcStallCauses = 6;
const char* to_string(LlcStall s);

struct LlcStats {
  explicit LlcStats(StatGroup& g);

  Counter &requests, &responses, &accesses, &reads, &writes, &hits, &read_hits, &misses, &line_misses,
      &sector_misses, &mshr_merges, &writebacks, &writeback_bytes, &write_combined, &dram_reads,
      &dram_read_bytes, &fills, &evictions, &input_holds, &bad_requests, &sectors, &sector_hits,
      &read_sectors, &read_sector_hits, &atomics, &atomic_hits, &atomics_forwarded;
  std::array<Counter*, kLlcStallCauses> reservation_fails;

  void fail(LlcStall s, uint64_t n = 1) { *reservation_fails[unsigned(s)] += n; }
};

}  // namespace gms
