// Flit-level router networks: exact cycle counts against the timing in router.h / flit_network.h
// (delivery at a + hops x pipeline + link cycles + flits for a packet arriving in cycle a), credits and
// backpressure, concentration, fairness under saturation, and the topology builders.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/noc/router/flit_network.h"
#include "models/noc/router/topology.h"
#include "tests/config_error_of.h"
#include "tests/noc/flit_net.h"

using gms::FlitNetwork;
using gms::NocParams;
using gms::PacketNetwork;
using Payload = tlm::tlm_generic_payload;

using gms::test::Net;
using gms::test::params;

TEST(NocRouter, OneHopLatencyIsPipelinePlusLinkPlusFlits) {
  Net n(params("crossbar", 4, 1), 2, 2);
  Payload req, reply;
  ASSERT_TRUE(n.send(0, 1, req, 0, 10));      // 1 flit (8 B header in a 32 B flit)
  ASSERT_TRUE(n.send(1, 0, reply, 128, 10));  // 5 flits (8 + 128 B)
  n.run_to(40);
  EXPECT_EQ(n.rec.delivered_at[&req], 10u + 4 + 1 + 1);
  EXPECT_EQ(n.rec.delivered_at[&reply], 10u + 4 + 1 + 5);
  EXPECT_EQ(n.net.zero_load_cycles(0, 1, 1), 6u);
  EXPECT_EQ(n.net.zero_load_cycles(1, 0, 5), 10u);
  EXPECT_EQ(n.net.in_flight(), 0u);
}

TEST(NocRouter, TwoHopLatencyAddsTheSecondRouterAndTheLongLink) {
  NocParams p = params("hxbar", 3, 1);
  p.hxbar.long_link_latency = 5;
  // 4 SMs, 4 slices, 2 slices per memory controller: 2 SM-routers, 2 MC-routers.
  Net n(p, 4, 4, false, 2);
  Payload a, b;
  ASSERT_TRUE(n.send(0, 3, a, 128, 7));  // SM 0 -> sm_router0 -> mc_router1 -> slice 3
  ASSERT_TRUE(n.send(3, 0, b, 0, 7));    // SM 3 -> sm_router1 -> mc_router0 -> slice 0
  n.run_to(60);
  EXPECT_EQ(n.rec.delivered_at[&a], 7u + 2 * 3 + 5 + 1 + 5);
  EXPECT_EQ(n.rec.delivered_at[&b], 7u + 2 * 3 + 5 + 1 + 1);
  EXPECT_EQ(n.net.zero_load_cycles(0, 3, 5), 2u * 3 + 5 + 1 + 5);
  EXPECT_EQ(n.net.router(0).activity().crossbar, 5u);  // sm_router0 moved a's 5 flits
  EXPECT_EQ(n.net.router(3).activity().crossbar, 5u);  // mc_router1
}

TEST(NocRouter, PacketsForOneOutputSerialiseFlitByFlit) {
  Net n(params("crossbar", 2, 0), 2, 1);
  Payload first, second;
  ASSERT_TRUE(n.send(0, 0, first, 128, 0));
  ASSERT_TRUE(n.send(1, 0, second, 128, 0));
  n.run_to(40);
  // The output's one VC is held from head to tail: the second packet follows 5 cycles later.
  const uint64_t t0 = n.rec.delivered_at[&first], t1 = n.rec.delivered_at[&second];
  EXPECT_EQ(std::min(t0, t1), 0u + 2 + 0 + 5);
  EXPECT_EQ(std::max(t0, t1), 0u + 2 + 0 + 5 + 5);
}

TEST(NocRouter, ConcentratedTerminalsShareTheirPortRoundRobin) {
  NocParams p = params("concentrated", 2, 1);
  p.concentration = 2;
  Net n(p, 4, 4);  // inputs 0,1 share router port 0; outputs 2,3 share port 1
  EXPECT_EQ(n.net.topology().routers[0].inputs, 2u);
  Payload a, b, c;
  ASSERT_TRUE(n.send(0, 2, a, 128, 0));
  ASSERT_TRUE(n.send(1, 3, b, 128, 0));
  ASSERT_TRUE(n.send(2, 0, c, 128, 0));  // another port: in parallel
  n.run_to(40);
  EXPECT_EQ(n.rec.delivered_at[&a], 0u + 2 + 1 + 5);
  EXPECT_EQ(n.rec.delivered_at[&b], 0u + 2 + 1 + 5 + 5);  // waited for a's tail at the shared port
  EXPECT_EQ(n.rec.delivered_at[&c], 0u + 2 + 1 + 5);
  EXPECT_EQ(n.rec.delivered_to[&b], 3u);
}

TEST(NocRouter, CreditsStayNonNegativeAndAFullBufferStopsTheUpstream) {
  NocParams p = params("hxbar", 2, 1);
  p.router.vc_buffer_flits = 4;
  p.input_buffer_flits = 10;
  Net n(p, 2, 2, false, 1);  // 1 slice per MC: 1 SM-router, 2 MC-routers
  n.rec.blocked[0] = true;   // slice 0 refuses every packet
  std::vector<Payload> pkts(20);
  unsigned sent = 0;
  bool held = false;
  for (uint64_t cyc = 0; cyc < 300; ++cyc) {
    if (!held && sent < pkts.size()) {
      held = !n.send(0, 0, pkts[sent], 128, cyc);
      ++sent;
    }
    n.rec.now = cyc;
    n.net.step(cyc);
    n.c = cyc + 1;
    for (unsigned r = 0; r < n.net.routers(); ++r) {
      const gms::Router& rt = n.net.router(r);
      for (unsigned o = 0; o < rt.outputs(); ++o) ASSERT_GE(rt.credits(o, 0), 0) << rt.name() << " out " << o;
      for (unsigned i = 0; i < rt.inputs(); ++i) ASSERT_LE(rt.buffered(i), 4u) << rt.name() << " in " << i;
    }
  }
  // Blocked: the first packet was handed over and its END phase withheld, nothing after it; the routers
  // hold at most one eject buffer + one VC per hop, the injection queue 2 packets (10 flits), and the
  // upstream was stopped (held) after that.
  EXPECT_EQ(n.rec.order.size(), 1u);
  EXPECT_TRUE(held);
  EXPECT_LT(sent, pkts.size());
  const uint64_t stuck = sent;
  n.rec.blocked[0] = false;
  n.net.unblock(0);
  n.run_to(1000);
  EXPECT_EQ(n.rec.order.size(), stuck);  // every accepted and the held packet, nothing lost
  EXPECT_EQ(n.rec.accepted_inputs, std::vector<unsigned>{0});
  for (unsigned k = 0; k < stuck; ++k) EXPECT_EQ(n.rec.order[k], &pkts[k]) << "in order";
}

TEST(NocRouter, SaturatingAllToOneStarvesNoInput) {
  for (const char* alloc : {"islip", "rr"}) {
    NocParams p = params("crossbar", 2, 1);
    p.router.allocator = alloc;
    Net n(p, 8, 1);
    std::vector<Payload> all(8 * 400);
    auto pk = [&all](unsigned i) { return &all[i * 400]; };
    std::vector<unsigned> next(8, 0);
    std::vector<bool> held(8, false);
    for (uint64_t cyc = 0; cyc < 2000; ++cyc) {
      for (unsigned i = 0; i < 8; ++i) {
        if (!n.rec.accepted_inputs.empty())
          for (unsigned a : n.rec.accepted_inputs) held[a] = false;
        n.rec.accepted_inputs.clear();
        if (!held[i] && next[i] < 400) held[i] = !n.send(i, 0, pk(i)[next[i]++], 0, cyc);
      }
      n.rec.now = cyc;
      n.net.step(cyc);
    }
    std::vector<unsigned> per(8, 0);
    for (const Payload* t : n.rec.order) ++per[unsigned(t - all.data()) / 400];
    const auto [lo, hi] = std::minmax_element(per.begin(), per.end());
    EXPECT_GT(*lo, 200u) << alloc;  // one flit per cycle shared by 8 inputs for ~2000 cycles
    EXPECT_LE(*hi - *lo, 1u) << alloc;
  }
}

TEST(NocTopology, HxbarShapeAndCoDesignRule) {
  NocParams p;
  p.type = "hxbar";
  // fermi: 15 SMs, 12 slices, 2 per memory controller -> 2 SM-routers (8 + 7 SMs), 6 MC-routers.
  const gms::Topology req = gms::build_topology(p, 15, 12, false, 2);
  ASSERT_EQ(req.routers.size(), 8u);
  EXPECT_EQ(req.routers[0].inputs, 8u);
  EXPECT_EQ(req.routers[1].inputs, 7u);
  EXPECT_EQ(req.routers[0].outputs, 6u);
  EXPECT_EQ(req.routers[2].name, "mc_router0");
  EXPECT_TRUE(req.routers[2].gateable);
  EXPECT_EQ(req.links.size(), 12u);
  const gms::Topology rep = gms::build_topology(p, 12, 15, true, 2);
  EXPECT_EQ(rep.routers[1].outputs, 7u);
  EXPECT_EQ(rep.routers[1].inputs, 6u);
  uint32_t hops;
  uint64_t links;
  rep.path(5, 14, hops, links);
  EXPECT_EQ(hops, 2u);
  p.hxbar.clusters = 3;
  EXPECT_EQ(
      config_error_of([&] { gms::build_topology(p, 15, 12, false, 2); }),
      "noc.hxbar.clusters: 3 SM-routers, but the co-design rule (paper 004 section 4.1) needs one per LLC "
      "slice of a memory controller: 2");
}
