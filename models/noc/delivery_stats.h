// The statistics every network direction keeps, whatever its inside (CrossbarNetwork, FlitNetwork): the
// group "req" / "resp" and what was delivered downstream. Each network adds its own counters to `group`.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/stats.h"

namespace gms {

struct DeliveryStats {
  // `name` is "req" or "resp", a child group of `parent`.
  DeliveryStats(StatGroup& parent, const std::string& name);
  // A packet of n_flits flits and n_bytes bytes (header + data) handed downstream `cycles` after it
  // arrived.
  void record(uint32_t n_flits, uint32_t n_bytes, uint64_t cycles) {
    ++packets;
    flits += n_flits;
    bytes += n_bytes;
    latency.add(cycles);
  }

  StatGroup group;
  Counter& packets;
  Counter& flits;
  Counter& bytes;
  Histogram& latency;
};

}  // namespace gms
