// A router network as data: routers with their port counts, the links between them, where the terminals
// (the interconnect's inputs and outputs) attach, and each router's route table. Builders make the
// topologies of paper 004 section 3 from the terminal counts, so the network code never names a topology.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/noc/noc_params.h"

namespace gms {

struct Topology {
  struct Router {
    std::string name;  // "r0", "sm_router2", "mc_router5", ...
    uint32_t inputs = 0, outputs = 0;
    bool gateable = false;  // an MC-router: may be bypassed and power-gated
  };
  struct Link {  // router `from` output `out` -> router `to` input `in`
    uint32_t from, out, to, in, latency;
    double length_mm = 0;  // wire length, for the link energy
  };
  struct Attach {  // a terminal at router `router`, port `port` (an input for sources, an output for sinks)
    uint32_t router, port;
  };
  std::string kind;
  std::vector<Router> routers;
  std::vector<Link> links;
  std::vector<Attach> sources;         // per network input (terminal)
  std::vector<Attach> sinks;           // per network output (terminal)
  uint32_t eject_latency = 1;          // router output -> sink terminal
  double inject_mm = 0, eject_mm = 0;  // wire lengths terminal -> router and router -> terminal
  // route[r][dest terminal] = output port of router r toward that sink.
  std::vector<std::vector<uint16_t>> route;

  // Hops (routers traversed) and the summed link latency (including the ejection link) from source
  // terminal s to sink terminal d.
  void path(uint32_t s, uint32_t d, uint32_t& hops, uint64_t& link_cycles) const;
  // Throws std::logic_error when a table is incomplete or a link or route leads nowhere.
  void check() const;
};

// `reply`: the network carries replies (sources are LLC slices, sinks are L1s); otherwise requests.
// `inputs` / `outputs`: terminals on each side. slices_per_mc: LLC slices per memory controller (hxbar).
// ConfigError when the parameters cannot form the topology (hxbar's co-design rule). `check`: run
// Topology::check() (every path walked; the memory budget, which only counts ports, skips it).
Topology build_topology(const NocParams& p, unsigned inputs, unsigned outputs, bool reply,
                        unsigned slices_per_mc, bool check = true);

}  // namespace gms
