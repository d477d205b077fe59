// The stuck-flit watchdog (noc.watchdog_cycles) names the router, input port and VC of a flit that has not
// moved, and saturation runs on every router topology end without deadlock, loss or a watchdog report.
// The saturation run is short here; scripts/noc_saturation runs 1M cycles (GMS_NOC_SAT_CYCLES).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "models/common/rng.h"
#include "tests/noc/flit_net.h"

using gms::NocParams;
using gms::test::Net;
using gms::test::Payload;

TEST(NocWatchdog, NamesTheRouterAndPortOfAStuckFlit) {
  NocParams p = gms::test::params("crossbar", 2, 1);
  p.watchdog_cycles = 100;
  Net n(p, 2, 2);
  n.rec.blocked[1] = true;  // output 1 takes one packet and then withholds its END phase forever
  // Three 5-flit packets: the first is handed over (END withheld), the second fills the ejection buffer,
  // the third stays in the router's input 1.
  std::vector<Payload> pk(3);
  for (Payload& t : pk) ASSERT_TRUE(n.send(1, 1, t, 128, 0));
  try {
    n.run_to(400);
    FAIL() << "no watchdog report";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("router r0 input port 1 VC 0"), std::string::npos) << m;
    EXPECT_NE(m.find("packet for output 1"), std::string::npos) << m;
    EXPECT_NE(m.find("noc.watchdog_cycles"), std::string::npos) << m;
    EXPECT_LE(n.c, 100u + 40 + 100 / 8 + 1) << "reported late";
  }
}

TEST(NocWatchdog, ZeroTurnsItOff) {
  NocParams p = gms::test::params("crossbar", 2, 1);
  p.watchdog_cycles = 0;
  Net n(p, 2, 2);
  n.rec.blocked[1] = true;
  std::vector<Payload> pk(3);
  for (Payload& t : pk) n.send(0, 1, t, 128, 0);
  EXPECT_NO_THROW(n.run_to(5000));
}

namespace {
uint64_t saturation_cycles() {
  const char* env = std::getenv("GMS_NOC_SAT_CYCLES");
  return env ? std::strtoull(env, nullptr, 10) : 20000;
}
}  // namespace

class NocSaturation : public testing::TestWithParam<const char*> {};

TEST_P(NocSaturation, NoDeadlockNoLossUnderSaturation) {
  // 32 SMs to 32 slices (4 per MC) and 32 slices back, every source always offering a packet (1 or 5
  // flits, random destination), for the configured cycles; then drained.
  NocParams p = gms::test::params(GetParam(), 4, 1);
  p.concentration = 4;
  p.watchdog_cycles = 2000;  // under saturation a flit still moves within a few hundred cycles
  const uint64_t cycles = saturation_cycles();
  for (bool reply : {false, true}) {
    Net n(p, 32, 32, reply, 4);
    gms::Rng rng(5);
    std::vector<Payload> pool(4096);
    std::vector<Payload*> free_list;
    for (Payload& t : pool) free_list.push_back(&t);
    std::vector<bool> held(32, false);
    uint64_t sent = 0;
    size_t seen = 0;
    for (uint64_t c = 0; c < cycles + 20000; ++c) {
      for (unsigned a : n.rec.accepted_inputs) held[a] = false;
      n.rec.accepted_inputs.clear();
      for (; seen < n.rec.order.size(); ++seen) free_list.push_back(const_cast<Payload*>(n.rec.order[seen]));
      for (unsigned t = 0; t < 32 && c < cycles; ++t) {
        if (held[t] || free_list.empty()) continue;
        Payload* pk = free_list.back();
        free_list.pop_back();
        held[t] = !n.send(t, unsigned(rng.below(32)), *pk, rng.below(2) ? 128 : 0, c);
        ++sent;
      }
      n.rec.now = c;
      n.net.step(c);
      if (c >= cycles && n.net.in_flight() == 0) break;
    }
    EXPECT_EQ(n.rec.order.size(), sent) << GetParam() << " reply " << reply;
    EXPECT_EQ(n.net.in_flight(), 0u);
    EXPECT_GT(double(n.net.link_flits()), 0.2 * double(cycles)) << "the network moved too little";
  }
}

INSTANTIATE_TEST_SUITE_P(Topologies, NocSaturation, testing::Values("crossbar", "concentrated", "hxbar"));
