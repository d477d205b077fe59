// Parameters of one SM's load-store front end (YAML section `sm:`): occupancy limits, warp scheduler and
// the limits on line requests in flight.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/config.h"

namespace gms {

enum class SchedulerKind : uint8_t { Gto, Lrr };

struct SmParams {
  uint32_t count = 15;  // number of SMs (read by the system builder)
  double clock_mhz = 1400.0;
  uint32_t max_warps = 48;
  uint32_t max_threads = 1536;
  uint32_t max_ctas = 8;
  uint32_t max_regs = 32768;
  uint32_t max_shmem = 49152;  // bytes
  SchedulerKind scheduler = SchedulerKind::Gto;
  uint32_t schedulers = 1;  // sub-partitions, each with its own scheduler (sub_partitions.h)
  // Hold an instruction while an in-flight load of its warp still writes a register it (or a compute
  // instruction before it) reads: WarpInst::waits_on, from traces with register operands.
  bool scoreboard = true;
  uint32_t max_outstanding_per_warp = 8;  // line requests in flight per warp
  uint32_t max_outstanding_per_sm = 64;   // line requests in flight per SM
  // The L1's line size, which the coalescer's requests are split to (32 or 64 B: one request per small
  // line). Not a key of `sm:`: the system builder copies l1.line_bytes.
  uint32_t line_bytes = 128;

  // Reads the `sm:` map (every key optional).
  static SmParams from(const ConfigNode& n);
};

const char* to_string(SchedulerKind k);

}  // namespace gms
