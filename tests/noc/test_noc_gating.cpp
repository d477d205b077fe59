// MC-router power gating and bypass (paper 004 section 4.2; router/power_gate.h): a gate request waits
// for the flits inside, the bypass wires input i to output i with one cycle per hop, a gated router draws
// no static energy and moves no flit through its buffers or switch, waking takes its cycles, no packet is
// lost across gate/wake cycles, and the interconnect's McRouterControl drives both networks.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "models/common/rng.h"
#include "models/common/trace.h"
#include "models/noc/network_interconnect.h"
#include "tests/common/vcd_reader.h"
#include "tests/noc/flit_net.h"
#include "tests/noc/noc_bench.h"

using gms::GateState;
using gms::NocParams;
using gms::test::Net;
using gms::test::Payload;
using Ev = gms::test::Recorder::GateEvent;

namespace {

// 4 SMs (clusters {0,1} and {2,3}), 4 slices, 2 per memory controller: sm_router0/1 = routers 0/1,
// mc_router0/1 = routers 2/3 (gates 0/1). Pipeline 3, short links 1, long links 2.
NocParams gated_params() {
  NocParams p = gms::test::params("hxbar", 3, 1);
  p.hxbar.long_link_latency = 2;
  p.hxbar.gate.gate_cycles = 5;
  p.hxbar.gate.wake_cycles = 7;
  return p;
}

void step_one(Net& n) {
  n.rec.now = n.c;
  n.net.step(n.c);
  ++n.c;
}

}  // namespace

TEST(NocGating, AGateRequestWaitsUntilTheFlitsInsideHaveLeft) {
  Net n(gated_params(), 4, 4, false, 2);
  const gms::Router& mc0 = n.net.router(2);
  Payload a;
  ASSERT_TRUE(n.send(0, 0, a, 128, 0));  // 5 flits, SM 0 -> mc_router0 -> slice 0
  while (mc0.buffered() == 0) step_one(n);
  const uint64_t requested = n.c;
  n.net.request_gate(0, true);
  uint64_t bypass_at = 0, emptied_at = 0;
  for (int k = 0; k < 60; ++k) {
    step_one(n);
    const uint64_t c = n.c - 1;
    if (mc0.holds_packets()) {
      EXPECT_FALSE(mc0.bypass()) << "bypass engaged with flits inside at cycle " << c;
      EXPECT_EQ(n.net.gate_state(0), GateState::kDraining) << c;
    } else if (!emptied_at) {
      emptied_at = c;
    }
    if (mc0.bypass() && !bypass_at) bypass_at = c;
  }
  EXPECT_EQ(mc0.activity().crossbar, 5u);  // the packet went through the switch, all of it
  EXPECT_EQ(mc0.activity().bypassed, 0u);
  EXPECT_EQ(bypass_at, emptied_at);  // the bypass engages in the cycle the tail leaves
  EXPECT_EQ(n.rec.delivered_at[&a], 0u + 2 * 3 + 2 + 1 + 5);
  const std::vector<Ev> want = {{0, GateState::kDraining, requested}, {0, GateState::kGated, bypass_at + 5}};
  EXPECT_EQ(n.rec.gate_events, want);
  EXPECT_EQ(n.net.power_gate(0).gate_count(), 1u);
}

TEST(NocGating, AGatedRouterMovesFlitsOnlyThroughTheBypassAndLeaksNothing) {
  Net n(gated_params(), 4, 4, false, 2);
  n.net.request_gate(0, true);
  n.net.request_gate(1, true);
  n.run_to(9);
  // Requested before cycle 0 ran: the machines start at cycle 1, the routers are empty, the bypass
  // engages at once and the power is off gate_cycles later.
  const std::vector<Ev> want = {{0, GateState::kDraining, 1},
                                {1, GateState::kDraining, 1},
                                {0, GateState::kGated, 6},
                                {1, GateState::kGated, 6}};
  EXPECT_EQ(n.rec.gate_events, want);
  // Private-LLC traffic: cluster c's requests go to slice c of each memory controller.
  Payload a, b;
  ASSERT_TRUE(n.send(0, 0, a, 128, 10));  // cluster 0 -> mc_router0 port 0 -> slice 0
  ASSERT_TRUE(n.send(2, 3, b, 0, 10));    // cluster 1 -> mc_router1 port 1 -> slice 3
  n.run_to(60);
  // A bypassed hop costs one cycle instead of the pipeline: a + pipeline + 1 + links (2 + 1) + flits.
  EXPECT_EQ(n.rec.delivered_at[&a], 10u + 3 + 1 + 3 + 5);
  EXPECT_EQ(n.rec.delivered_at[&b], 10u + 3 + 1 + 3 + 1);
  for (unsigned r : {2u, 3u}) {
    const gms::RouterActivity& act = n.net.router(r).activity();
    EXPECT_EQ(act.buffer_writes, 0u);
    EXPECT_EQ(act.buffer_reads, 0u);
    EXPECT_EQ(act.crossbar, 0u);
    EXPECT_EQ(act.va_ops + act.sa_ops, 0u);
  }
  EXPECT_EQ(n.net.router(2).activity().bypassed, 5u);
  EXPECT_EQ(n.net.router(3).activity().bypassed, 1u);
  // Static energy: a gated router's stops at the cycle it was gated; a powered one's keeps growing.
  const auto e100 = n.net.router_energy(2, 100), e500 = n.net.router_energy(2, 500);
  EXPECT_GT(e100.leakage, 0.0);  // cycles 0-5 powered
  EXPECT_DOUBLE_EQ(e100.leakage, e500.leakage);
  EXPECT_DOUBLE_EQ(e100.leakage, n.net.router_energy(2, 6).leakage);
  EXPECT_GT(n.net.router_energy(0, 500).leakage, n.net.router_energy(0, 100).leakage);
  EXPECT_EQ(n.net.power_gate(0).gated_cycles(500), 494u);
  // Shared-LLC traffic through a gated MC-router needs another output than its input: refused loudly.
  Payload bad;
  ASSERT_TRUE(n.send(0, 1, bad, 0, 70));  // cluster 0 -> slice 1 (mc_router0 port 1)
  try {
    n.run_to(100);
    FAIL() << "a packet crossed a bypassed router to another output";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("mc_router0 is bypassed"), std::string::npos) << e.what();
  }
}

TEST(NocGating, WakingTakesItsCyclesThenTheRouterRoutesAgain) {
  Net n(gated_params(), 4, 4, false, 2);
  n.net.request_gate(0, true);
  n.run_to(20);
  ASSERT_EQ(n.net.gate_state(0), GateState::kGated);
  n.net.request_gate(0, false);
  n.run_to(40);
  const std::vector<Ev> want = {{0, GateState::kDraining, 1},
                                {0, GateState::kGated, 6},
                                {0, GateState::kWaking, 21},
                                {0, GateState::kOn, 28}};
  EXPECT_EQ(n.rec.gate_events, want);
  EXPECT_FALSE(n.net.router(2).bypass());
  EXPECT_EQ(n.net.power_gate(0).gated_cycles(1000), 15u);
  EXPECT_EQ(n.net.power_gate(0).wake_count(), 1u);
  // Shared traffic again, at the full two-hop latency.
  Payload a;
  ASSERT_TRUE(n.send(0, 1, a, 0, 50));
  n.run_to(80);
  EXPECT_EQ(n.rec.delivered_at[&a], 50u + 2 * 3 + 2 + 1 + 1);
}

TEST(NocGating, AWakeBeforeTheBypassEngagedCancelsTheGate) {
  Net n(gated_params(), 4, 4, false, 2);
  Payload a;
  ASSERT_TRUE(n.send(0, 0, a, 128, 0));
  while (n.net.router(2).buffered() == 0) step_one(n);
  const uint64_t requested = n.c;
  n.net.request_gate(0, true);
  step_one(n);
  n.net.request_gate(0, false);  // still draining: nothing was switched yet
  n.run_to(60);
  const std::vector<Ev> want = {{0, GateState::kDraining, requested}, {0, GateState::kOn, requested + 1}};
  EXPECT_EQ(n.rec.gate_events, want);
  EXPECT_EQ(n.net.power_gate(0).gate_count(), 0u);
  EXPECT_EQ(n.rec.order.size(), 1u);
}

TEST(NocGating, NoPacketIsLostAcrossManyGateAndWakeCycles) {
  // 8 SMs in 4 clusters, 8 slices (4 per memory controller, 2 MC-routers); both directions; private-LLC
  // traffic (valid gated or not) from every terminal while the MC-routers are gated and woken at random.
  NocParams p = gated_params();
  for (bool reply : {false, true}) {
    Net n(p, 8, 8, reply, 4);
    gms::Rng rng(reply ? 7 : 3);
    const unsigned terminals = 8;
    std::vector<Payload> pk(8000);
    std::vector<bool> held(terminals, false);
    unsigned sent = 0;
    auto cluster_of_sm = [](unsigned sm) { return sm / 2; };
    for (uint64_t cyc = 0; cyc < 12000; ++cyc) {
      for (unsigned a : n.rec.accepted_inputs) held[a] = false;
      n.rec.accepted_inputs.clear();
      // Bursts of 60 cycles, then 40 quiet ones: a drain completes when the router empties (the adaptive
      // LLC stalls the SMs first), so the gates need quiet moments to go through.
      const bool burst = cyc < 10000 && cyc % 100 < 60;
      for (unsigned t = 0; t < terminals && burst; ++t) {
        if (held[t] || sent == pk.size() || rng.below(100) >= 25) continue;
        // Request: SM t -> slice (random MC) x 4 + its cluster. Reply: slice t -> an SM of cluster t mod 4.
        const unsigned out =
            reply ? (t % 4) * 2 + unsigned(rng.below(2)) : unsigned(rng.below(2)) * 4 + cluster_of_sm(t);
        held[t] = !n.send(t, out, pk[sent++], rng.below(2) ? 128 : 0, cyc);
      }
      if (cyc % 97 == 0 && cyc < 10000) {
        const unsigned g = unsigned(rng.below(2));
        n.net.request_gate(g, n.net.power_gate(g).wants_gated() ? false : true);
      }
      n.rec.now = cyc;
      n.net.step(cyc);
    }
    EXPECT_EQ(n.rec.order.size(), sent) << "reply " << reply;
    EXPECT_EQ(n.net.in_flight(), 0u);
    EXPECT_GT(sent, 4000u);
    uint64_t gates = 0, wakes = 0, bypassed = 0;
    for (unsigned g = 0; g < 2; ++g) {
      gates += n.net.power_gate(g).gate_count();
      wakes += n.net.power_gate(g).wake_count();
      bypassed += n.net.router(n.net.gate_router(g)).activity().bypassed;
    }
    EXPECT_GT(gates, 10u);
    EXPECT_GT(wakes, 10u);
    EXPECT_GT(bypassed, 1000u) << "reply " << reply << " gates " << gates << " wakes " << wakes;
  }
}

TEST(NocGating, TheInterconnectsControlGatesBothNetworksAndReportsTheirState) {
  NocParams p = gms::test::ns_params();
  p.type = "hxbar";
  p.hxbar.gate.gate_cycles = 5;
  p.hxbar.gate.wake_cycles = 7;
  gms::test::NocBench b(p, 4, 4, nullptr, 2);
  // Cluster 0 (L1s 0, 1) reads slice 0 of memory controller 0 through the gated router; cluster 1 reads
  // slice 3 of controller 1, whose MC-router stays on.
  b.ini[0]->add(20, b.line_to(0, 0), false, 0xf);
  b.ini[2]->add(20, b.line_to(3, 0), false, 0xf);
  // Before elaboration ends the networks do not exist yet.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  gms::McRouterControl* ctl = b.noc->mc_router_control();
  ASSERT_NE(ctl, nullptr);
  EXPECT_EQ(ctl->mc_routers(), 2u);
  struct Change {
    unsigned mc;
    GateState s;
    double ns;
  };
  std::vector<Change> seen;
  ctl->set_listener([&seen](unsigned mc, GateState s) {
    seen.push_back({mc, s, sc_core::sc_time_stamp().to_seconds() * 1e9});
  });
  ctl->gate(0);
  sc_core::sc_start(100, sc_core::SC_NS);
  EXPECT_EQ(ctl->state(0), GateState::kGated);
  EXPECT_EQ(ctl->state(1), GateState::kOn);
  ctl->wake(0);
  sc_core::sc_start();
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].s, GateState::kDraining);
  EXPECT_DOUBLE_EQ(seen[0].ns, 1.0);
  EXPECT_EQ(seen[1].s, GateState::kGated);
  EXPECT_DOUBLE_EQ(seen[1].ns, 6.0);  // gate_cycles at 1 GHz
  EXPECT_EQ(seen[2].s, GateState::kWaking);
  EXPECT_DOUBLE_EQ(seen[2].ns, 101.0);
  EXPECT_EQ(seen[3].s, GateState::kOn);
  EXPECT_DOUBLE_EQ(seen[3].ns, 108.0);
  for (const Change& c : seen) EXPECT_EQ(c.mc, 0u);
  EXPECT_EQ(ctl->state(0), GateState::kOn);
  ASSERT_EQ(b.ini[0]->records().size(), 1u);
  EXPECT_EQ(b.ini[0]->records()[0].responses, 1u);
  EXPECT_EQ(b.ini[2]->records()[0].responses, 1u);
  EXPECT_EQ(b.stat("req.mc_router0.bypassed_flits"), 1);   // the read request
  EXPECT_EQ(b.stat("resp.mc_router0.bypassed_flits"), 5);  // its 4-chunk reply
  EXPECT_EQ(b.stat("req.mc_router1.bypassed_flits"), 0);
  EXPECT_EQ(b.stat("req.mc_router0.gated_cycles"), 95);
  EXPECT_EQ(b.stat("req.mc_router0.gate_transitions"), 1);
  EXPECT_GT(b.stat("energy_nj"), 0);
  EXPECT_DOUBLE_EQ(b.stat("energy_nj"), b.stat("req.energy_nj") + b.stat("resp.energy_nj"));
}

TEST(NocGating, OnlyTheHxbarHasGateableRouters) {
  NocParams p = gms::test::ns_params();
  p.type = "concentrated";  // a router network, but no MC-routers
  gms::test::NocBench b(p, 4, 4);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.noc->mc_router_control(), nullptr);
}

TEST(NocGating, RouterProbesShowBufferOccupancyGrantsAndGateState) {
  const std::string base = std::string(GMS_BINARY_DIR) + "/noc_router_probes";
  {
    gms::TraceSelector sel(base + ".vcd", {"xb*"});
    NocParams p = gms::test::ns_params();
    p.type = "hxbar";
    p.hxbar.gate.gate_cycles = 5;
    gms::test::NocBench b(p, 4, 4, &sel, 2);
    b.ini[0]->add(0, b.line_to(1, 0), false, 0xf);  // through mc_router0 (shared)
    b.ini[1]->add(0, b.line_to(2, 0), false, 0xf);
    sc_core::sc_start(50, sc_core::SC_NS);
    b.noc->mc_router_control()->gate(1);
    sc_core::sc_start();
    EXPECT_EQ(b.stat("resp.packets"), 2);
    sel.close();
  }
  // Scopes xbar > req > sm_router0, ...: variables per input port, grants, the MC-routers' gate state.
  const auto f = gms::test::VcdFile::load(base + ".vcd");
  const std::string top = "SystemC.xbar.";
  for (const char* v :
       {"req.sm_router0.in0_flits", "req.sm_router0.in1_flits", "req.sm_router0.grants",
        "req.mc_router0.in0_flits", "resp.mc_router1.gate_state", "req.mc_router1.gate_state"})
    EXPECT_TRUE(f.has(top + v)) << v;
  EXPECT_FALSE(f.has(top + "req.sm_router0.gate_state")) << "SM-routers are not gateable";
  // mc_router0 moved the request flit: its grant count reaches 1; mc_router1 ends gated (state 2).
  EXPECT_NE(f.signal(top + "req.mc_router0.grants").first_time_of(1), UINT64_MAX);
  EXPECT_EQ(f.signal(top + "req.mc_router1.gate_state").value_at(f.last_time()), 2u);
  EXPECT_NE(f.signal(top + "req.sm_router0.in0_flits").first_time_of(1), UINT64_MAX);
}
