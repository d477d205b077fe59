// Compact forms of a warp instruction's lane addresses, shared by the SM (instructions waiting to issue)
// and the Accel-Sim reader (resident thread blocks' decoded traces): most instructions are one stride
// across every lane, and storing 32 addresses for them fills host caches with thousands of warps.
#pragma once
#include <array>
#include <cstdint>

#include "models/common/workload.h"

namespace gms {

// Every lane active and lane i at addr[0] + i * stride (modulo 2^64; stride may be 0): true, with stride.
inline bool uniform_stride(uint32_t active_mask, const std::array<uint64_t, kWarpSize>& addr,
                           uint64_t& stride) {
  if (active_mask != 0xffffffffu) return false;
  stride = addr[1] - addr[0];
  for (unsigned lane = 2; lane < kWarpSize; ++lane)
    if (addr[lane] - addr[lane - 1] != stride) return false;
  return true;
}

// The addresses uniform_stride() described.
inline void expand_stride(std::array<uint64_t, kWarpSize>& addr, uint64_t base, uint64_t stride) {
  for (unsigned lane = 0; lane < kWarpSize; ++lane) addr[lane] = base + uint64_t(lane) * stride;
}

// Every field of `from` but its addresses.
inline void copy_all_but_addresses(WarpInst& to, const WarpInst& from) {
  to.pc = from.pc;
  to.kind = from.kind;
  to.active_mask = from.active_mask;
  to.width = from.width;
  to.gap = from.gap;
  to.waits_on = from.waits_on;
  to.writes = from.writes;
  to.wait_gap = from.wait_gap;
}

}  // namespace gms
