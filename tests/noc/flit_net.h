// A FlitNetwork driven in a plain loop (no SystemC kernel run) for the router-network tests: a recorder
// of deliveries at the edges, and helpers to send packets at a given cycle and run to a cycle.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/noc/router/flit_network.h"
#include "models/noc/router/topology.h"

namespace gms::test {

using Payload = tlm::tlm_generic_payload;

// Records when each payload is delivered; a blocked output refuses until released.
struct Recorder final : gms::PacketNetwork::Hooks {
  uint64_t now = 0;
  std::map<const Payload*, uint64_t> delivered_at;
  std::map<const Payload*, unsigned> delivered_to;
  std::vector<unsigned> accepted_inputs;
  std::vector<bool> blocked = std::vector<bool>(64, false);
  std::vector<const Payload*> order;
  // The payload is taken either way; a blocked output withholds its END phase (returns false).
  bool deliver(unsigned out, Payload& t) override {
    delivered_at[&t] = now;
    delivered_to[&t] = out;
    order.push_back(&t);
    return !blocked[out];
  }
  void accepted(unsigned in, Payload&) override { accepted_inputs.push_back(in); }
  void wake(uint64_t) override {}
  struct GateEvent {
    unsigned gate;
    gms::GateState state;
    uint64_t at;
    bool operator==(const GateEvent& o) const { return gate == o.gate && state == o.state && at == o.at; }
  };
  std::vector<GateEvent> gate_events;
  void gate_changed(unsigned g, gms::GateState s) override { gate_events.push_back({g, s, now}); }
};

inline gms::NocParams params(const std::string& type, uint32_t pipeline, uint32_t link) {
  gms::NocParams p;
  p.type = type;
  p.router.pipeline = pipeline;
  p.router.link_latency = link;
  return p;
}

struct Net {
  Net(const gms::NocParams& p, unsigned ins, unsigned outs, bool reply = false, unsigned spm = 1)
      : params(p),
        clock(p.clock_mhz),
        root("root"),
        net("req", root, params, clock, rec, gms::build_topology(params, ins, outs, reply, spm)) {}
  void run_to(uint64_t end) {
    for (; c <= end; ++c) {
      rec.now = c;
      net.step(c);
    }
  }
  bool send(unsigned in, unsigned out, Payload& t, uint32_t bytes, uint64_t cycle) {
    return net.arrive(in, out, t, bytes, cycle * clock.period_ps());
  }
  gms::NocParams params;
  gms::Clock clock;
  gms::StatGroup root;
  Recorder rec;
  gms::FlitNetwork net;
  uint64_t c = 0;
};

}  // namespace gms::test
