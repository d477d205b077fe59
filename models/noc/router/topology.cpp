#include "models/noc/router/topology.h"

#include <stdexcept>

#include "models/common/config.h"
#include "models/common/sm_clusters.h"

namespace gms {

void Topology::path(uint32_t s, uint32_t d, uint32_t& hops, uint64_t& link_cycles) const {
  hops = 0;
  link_cycles = 0;
  uint32_t r = sources.at(s).router;
  for (size_t guard = 0; guard <= routers.size(); ++guard) {
    ++hops;
    const uint32_t out = route.at(r).at(d);
    if (sinks[d].router == r && sinks[d].port == out) {
      link_cycles += eject_latency;
      return;
    }
    bool found = false;
    for (const Link& l : links)
      if (l.from == r && l.out == out) {
        link_cycles += l.latency;
        r = l.to;
        found = true;
        break;
      }
    if (!found) break;
  }
  throw std::logic_error("topology " + kind + ": no path from input " + std::to_string(s) + " to output " +
                         std::to_string(d));
}

void Topology::check() const {
  if (route.size() != routers.size()) throw std::logic_error("topology " + kind + ": route tables missing");
  for (size_t r = 0; r < routers.size(); ++r)
    if (route[r].size() != sinks.size()) throw std::logic_error("topology " + kind + ": short route table");
  uint32_t hops;
  uint64_t cycles;
  for (uint32_t s = 0; s < sources.size(); ++s)
    for (uint32_t d = 0; d < sinks.size(); ++d) path(s, d, hops, cycles);
}

namespace {

// One router with every input and output terminal grouped `c` to a port (c = 1: a plain crossbar).
Topology single_router(const NocParams& p, const std::string& kind, unsigned inputs, unsigned outputs,
                       unsigned c) {
  Topology t;
  t.kind = kind;
  t.eject_latency = p.router.link_latency;
  // The crossbar sits between the SMs and the slices: each terminal's wire is half the long distance.
  t.inject_mm = t.eject_mm = p.energy.long_link_mm / 2;
  t.routers.push_back({"r0", (inputs + c - 1) / c, (outputs + c - 1) / c, false});
  for (unsigned i = 0; i < inputs; ++i) t.sources.push_back({0, i / c});
  for (unsigned j = 0; j < outputs; ++j) t.sinks.push_back({0, j / c});
  t.route.assign(1, std::vector<uint16_t>(outputs));
  for (unsigned j = 0; j < outputs; ++j) t.route[0][j] = uint16_t(j / c);
  return t;
}

// H-Xbar (paper 004 section 3.3): SM-routers, one per cluster of SMs, and MC-routers, one per memory
// controller, joined by long links. Requests go SM -> SM-router -> MC-router -> slice, replies back.
Topology hxbar(const NocParams& p, unsigned inputs, unsigned outputs, bool reply, unsigned spm) {
  const unsigned n_sm = reply ? outputs : inputs, n_slice = reply ? inputs : outputs;
  if (spm == 0 || n_slice % spm != 0)
    throw ConfigError("noc.type: hxbar needs the LLC slices (" + std::to_string(n_slice) +
                      ") to divide evenly among the memory controllers (" + std::to_string(spm) + " per MC)");
  const unsigned k = p.hxbar.clusters ? p.hxbar.clusters : spm, m = n_slice / spm;
  if (k != spm)
    throw ConfigError(
        "noc.hxbar.clusters: " + std::to_string(k) +
        " SM-routers, but the co-design rule (paper 004 section 4.1) needs one per LLC slice of a "
        "memory controller: " +
        std::to_string(spm));
  if (n_sm < k)
    throw ConfigError("noc.hxbar.clusters: " + std::to_string(k) + " clusters for only " +
                      std::to_string(n_sm) + " SMs");
  Topology t;
  t.kind = "hxbar";
  t.eject_latency = p.router.link_latency;
  t.inject_mm = t.eject_mm = p.energy.short_link_mm;
  // Balanced contiguous clusters: SM i is in cluster i * k / n_sm.
  std::vector<uint32_t> cluster(n_sm), local(n_sm), size(k, 0);
  for (unsigned i = 0; i < n_sm; ++i) {
    cluster[i] = sm_cluster(i, n_sm, k);
    local[i] = size[cluster[i]]++;
  }
  // Routers 0..k-1: SM-routers; k..k+m-1: MC-routers.
  for (unsigned c = 0; c < k; ++c)
    t.routers.push_back({"sm_router" + std::to_string(c), reply ? m : size[c], reply ? size[c] : m, false});
  for (unsigned j = 0; j < m; ++j) t.routers.push_back({"mc_router" + std::to_string(j), k, k, true});
  const uint32_t lat = p.hxbar.long_link_latency;
  for (unsigned c = 0; c < k; ++c)
    for (unsigned j = 0; j < m; ++j) {
      if (reply)
        t.links.push_back({k + j, c, c, j, lat, p.energy.long_link_mm});
      else
        t.links.push_back({c, j, k + j, c, lat, p.energy.long_link_mm});
    }
  t.route.assign(k + m, std::vector<uint16_t>(reply ? n_sm : n_slice));
  if (!reply) {
    for (unsigned i = 0; i < n_sm; ++i) t.sources.push_back({cluster[i], local[i]});
    for (unsigned s = 0; s < n_slice; ++s) t.sinks.push_back({k + s / spm, s % spm});
    for (unsigned s = 0; s < n_slice; ++s) {
      for (unsigned c = 0; c < k; ++c) t.route[c][s] = uint16_t(s / spm);
      for (unsigned j = 0; j < m; ++j) t.route[k + j][s] = uint16_t(s % spm);
    }
  } else {
    for (unsigned s = 0; s < n_slice; ++s) t.sources.push_back({k + s / spm, s % spm});
    for (unsigned i = 0; i < n_sm; ++i) t.sinks.push_back({cluster[i], local[i]});
    for (unsigned i = 0; i < n_sm; ++i) {
      for (unsigned c = 0; c < k; ++c) t.route[c][i] = uint16_t(local[i]);
      for (unsigned j = 0; j < m; ++j) t.route[k + j][i] = uint16_t(cluster[i]);
    }
  }
  return t;
}

}  // namespace

Topology build_topology(const NocParams& p, unsigned inputs, unsigned outputs, bool reply, unsigned spm,
                        bool check) {
  Topology t;
  if (p.type == "crossbar")
    t = single_router(p, "crossbar", inputs, outputs, 1);
  else if (p.type == "concentrated")
    t = single_router(p, "concentrated", inputs, outputs, p.concentration);
  else if (p.type == "hxbar")
    t = hxbar(p, inputs, outputs, reply, spm);
  else
    throw ConfigError("noc.type: '" + p.type + "' is not a router network (crossbar, concentrated, hxbar)");
  if (check) t.check();
  return t;
}

}  // namespace gms
