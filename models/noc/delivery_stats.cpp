#include "models/noc/delivery_stats.h"

namespace gms {

DeliveryStats::DeliveryStats(StatGroup& parent, const std::string& name)
    : group(parent, name,
            name == "req" ? "request network (L1s -> LLC slices)" : "reply network (LLC slices -> L1s)"),
      packets(group.counter("packets", "packets delivered to an output", "packets")),
      flits(group.counter("flits", "flits delivered to an output", "flits")),
      bytes(group.counter("bytes", "bytes delivered (header + data)", "bytes")),
      latency(group.histogram("latency", "arrival at the input -> delivery downstream (queueing + transfer)",
                              "cycles", 4, 64)) {
  group.formula("mean_latency", "mean of latency", "cycles", [this] { return latency.mean(); });
}

}  // namespace gms
