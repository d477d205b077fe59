// NoC energy (router/noc_energy.h): one packet's dynamic energy equals the per-event coefficients times
// what it did (buffer writes and reads, switch traversals, allocator requests, link flits over their
// lengths), leakage grows with powered time, the statistics report the same numbers, and at equal traffic
// the low-radix H-Xbar spends less per flit than a 64-port crossbar (paper 004 Figure 7c's direction).
#include <gtest/gtest.h>

#include <vector>

#include "models/common/rng.h"
#include "tests/noc/flit_net.h"

using gms::NocParams;
using gms::test::Net;
using gms::test::Payload;

TEST(NocEnergy, OnePacketCostsItsEventsTimesTheCoefficients) {
  NocParams p = gms::test::params("crossbar", 4, 1);
  Net n(p, 2, 2);
  Payload a;
  ASSERT_TRUE(n.send(0, 1, a, 128, 0));  // 5 flits of 256 bits through one 2x2 router
  n.run_to(40);
  const gms::EnergyParams& e = p.energy;
  const double bits = 256, flits = 5;
  const double buffer = flits * bits * (e.buffer_write_pj_per_bit + e.buffer_read_pj_per_bit);
  const double crossbar = flits * bits * (2 + 2) * e.crossbar_pj_per_bit_port;
  const double allocator = (1 /* VA: one free VC */ + flits /* SA: one request per flit */) * e.allocator_pj;
  const double link = 2 * flits * bits * e.wire_pj_per_bit_mm * (e.long_link_mm / 2);  // in + out
  const auto got = n.net.energy(40);
  EXPECT_DOUBLE_EQ(got.buffer, buffer);
  EXPECT_DOUBLE_EQ(got.crossbar, crossbar);
  EXPECT_DOUBLE_EQ(got.allocator, allocator);
  EXPECT_DOUBLE_EQ(got.link, link);
  EXPECT_EQ(got.bypass, 0.0);
  EXPECT_EQ(n.net.link_flits(), 10u);
  // Leakage: 2 inputs x 1 VC x 8 flits x 256 bits of buffer, 2 x 2 x 256 crosspoint bits, for 40 cycles
  // of 700 MHz.
  const double mw = (2 * 8 * bits * e.buffer_leak_nw_per_bit + 4 * bits * e.crossbar_leak_nw_per_bit) * 1e-6;
  const double seconds = 40 * double(n.clock.period_ps()) * 1e-12;
  EXPECT_NEAR(got.leakage, mw * seconds * 1e9, 1e-9);
  EXPECT_NEAR(n.net.energy(80).leakage, 2 * got.leakage, 1e-9);
  // Statistics report the same figures (in nJ; the formulas read the current cycle: the last stepped).
  EXPECT_NEAR(n.root.value("req.energy_dynamic_nj"), got.dynamic() * 1e-3, 1e-12);
  EXPECT_NEAR(n.root.value("req.energy_static_nj"), got.leakage * 1e-3, 1e-12);
  EXPECT_NEAR(n.root.value("req.energy_nj"), got.total() * 1e-3, 1e-12);
  EXPECT_EQ(n.root.value("req.r0.crossbar_traversals"), 5);
  EXPECT_EQ(n.root.value("req.link_flits"), 10);
}

TEST(NocEnergy, WiderChannelsAndLongerLinksCostMorePerFlit) {
  NocParams p = gms::test::params("crossbar", 4, 1);
  NocParams narrow = p;
  narrow.flit_bytes = 16;
  const gms::NocEnergyModel wide_m(p.energy, 256), narrow_m(narrow.energy, 128);
  gms::RouterActivity a;
  a.crossbar = 10;
  EXPECT_DOUBLE_EQ(wide_m.crossbar_pj(a, 8, 8), 2 * narrow_m.crossbar_pj(a, 8, 8));  // bits
  EXPECT_DOUBLE_EQ(wide_m.crossbar_pj(a, 64, 64), 8 * wide_m.crossbar_pj(a, 8, 8));  // radix
  EXPECT_DOUBLE_EQ(wide_m.link_pj(10, 12.3), 12.3 * wide_m.link_pj(10, 1.0));
}

TEST(NocEnergy, TheHxbarSpendsLessPerFlitThanAFullCrossbarAtEqualTraffic) {
  // 64 SMs to 64 slices (8 per MC), the same random request stream on both.
  auto run = [](const char* type) {
    NocParams p = gms::test::params(type, 4, 1);
    Net n(p, 64, 64, false, 8);
    gms::Rng rng(11);
    std::vector<Payload> pk(20000);
    std::vector<bool> held(64, false);
    unsigned sent = 0;
    for (uint64_t c = 0; c < 4000; ++c) {
      for (unsigned a : n.rec.accepted_inputs) held[a] = false;
      n.rec.accepted_inputs.clear();
      for (unsigned t = 0; t < 64 && c < 3000; ++t)
        if (!held[t] && sent < pk.size() && rng.below(100) < 5)
          held[t] = !n.send(t, unsigned(rng.below(64)), pk[sent++], 128, c);
      n.rec.now = c;
      n.net.step(c);
    }
    EXPECT_EQ(n.rec.order.size(), sent) << type;
    return n.net.energy(4000).total() / double(sent);
  };
  const double xbar = run("crossbar"), hxbar = run("hxbar");
  // Per packet: 64-port switch + 12.3 mm of wire vs two 8-port switches + 14.3 mm (paper 004 Fig. 7c's
  // direction; its larger savings include area-driven leakage and repeaters we do not model).
  EXPECT_LT(hxbar, 0.9 * xbar) << "pJ per packet: crossbar " << xbar << ", hxbar " << hxbar;
}
