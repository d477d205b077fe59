// Timing of the full crossbar at a 1 GHz NoC clock (1 cycle = 1 ns), latency 2, 32 B flits, 8 B header:
// a packet of n flits arriving in cycle a is delivered at cycle a + latency + n when uncontended
// (docs/blocks/noc.md); contended, at w + latency + n - 1 where w is the cycle it wins its output.
#include <gtest/gtest.h>

#include "tests/noc/noc_bench.h"

using gms::test::NocBench;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

namespace {
sc_time ns(double v) {
  return sc_time(v, SC_NS);
}
}  // namespace

TEST(NocTiming, OnePacketEachWayIsLatencyPlusFlits) {
  NocBench b(gms::test::ns_params(), 1, 1);
  b.tgt[0]->service(10);
  b.ini[0]->add(0, b.line_to(0), false, 0xF);
  sc_core::sc_start();
  const auto& r = b.ini[0]->records()[0];
  ASSERT_EQ(b.tgt[0]->arrivals().size(), 1u);
  EXPECT_EQ(b.tgt[0]->arrivals()[0].at, ns(3));  // 1-flit read request: 0 + 2 + 1
  EXPECT_EQ(r.accepted, ns(0));                  // buffer had room: END_REQ at once
  EXPECT_EQ(r.answered, ns(20));                 // 5-flit reply leaving at 13: 13 + 2 + 5
  EXPECT_EQ(r.responses, 1u);
  EXPECT_EQ(r.chunks_returned, 0xF);
  EXPECT_EQ(b.stat("requests"), 1);
  EXPECT_EQ(b.stat("responses"), 1);
  EXPECT_EQ(b.stat("req.packets"), 1);
  EXPECT_EQ(b.stat("req.flits"), 1);
  EXPECT_EQ(b.stat("req.bytes"), 8);
  EXPECT_EQ(b.stat("resp.flits"), 5);
  EXPECT_EQ(b.stat("resp.bytes"), 136);
  EXPECT_EQ(b.stat("req.mean_latency"), 3);
  EXPECT_EQ(b.stat("resp.mean_latency"), 7);
  EXPECT_EQ(b.stat("req.out0_busy_cycles"), 1);
  EXPECT_EQ(b.stat("resp.out0_busy_cycles"), 5);
  EXPECT_DOUBLE_EQ(b.stat("resp.out0_utilization"), 5.0 / 20.0);  // the run ends at 20 ns
  EXPECT_DOUBLE_EQ(b.stat("req.utilization"), 1.0 / 20.0);
  EXPECT_EQ(b.stat("req.held"), 0);
  // Event budget: the process ran only to grant and to deliver each packet (cycles 1, 3, 14, 20).
  EXPECT_EQ(b.stat("active_cycles"), 4);
}

TEST(NocTiming, ArrivalsBetweenEdgesAt700MHz) {
  gms::NocParams p;  // 700 MHz: period 1429 ps
  NocBench b(p, 1, 1);
  b.tgt[0]->service(10);
  b.ini[0]->add(0, b.line_to(0), false, 0xF);
  sc_core::sc_start();
  EXPECT_EQ(b.tgt[0]->arrivals()[0].at, sc_time(3 * 1429, SC_PS));
  // The reply arrives at 14287 ps, inside cycle 9 (12861..14289 ps): delivered at cycle 9 + 2 + 5.
  EXPECT_EQ(b.ini[0]->records()[0].answered, sc_time(16 * 1429, SC_PS));
}

TEST(NocTiming, WritePacketsCarryOneHeaderFlitPlusDataFlits) {
  NocBench b(gms::test::ns_params(), 1, 3);
  b.ini[0]->add(0, b.line_to(0), true, 0x1);  // 8 + 32 B: 2 flits
  b.ini[0]->add(0, b.line_to(1), true, 0x7);  // 8 + 96 B: 4 flits
  b.ini[0]->add(0, b.line_to(2), true, 0xF);  // 8 + 128 B: 5 flits
  sc_core::sc_start();
  // One input sends one packet at a time: wins at 1, 3 (= 1 + 2), 7 (= 3 + 4); each delivered at
  // win + latency + flits - 1.
  EXPECT_EQ(b.tgt[0]->arrivals()[0].at, ns(4));
  EXPECT_EQ(b.tgt[1]->arrivals()[0].at, ns(8));
  EXPECT_EQ(b.tgt[2]->arrivals()[0].at, ns(13));
  EXPECT_EQ(b.stat("req.flits"), 11);
  EXPECT_EQ(b.stat("req.bytes"), 3 * 8 + 32 + 96 + 128);
  // Write replies are 1 flit: answered at 14 + 3, 18 + 3, 23 + 3.
  EXPECT_EQ(b.ini[0]->records()[0].answered, ns(17));
  EXPECT_EQ(b.ini[0]->records()[1].answered, ns(21));
  EXPECT_EQ(b.ini[0]->records()[2].answered, ns(26));
  EXPECT_EQ(b.stat("resp.flits"), 3);
  EXPECT_EQ(b.stat("resp.bytes"), 24);
}

TEST(NocTiming, TwoInputsToOneOutputSerialize) {
  NocBench b(gms::test::ns_params(), 2, 1);
  b.ini[0]->add(0, b.line_to(0, 0), true, 0xF);
  b.ini[1]->add(0, b.line_to(0, 1), true, 0xF);
  sc_core::sc_start();
  const auto& a = b.tgt[0]->arrivals();
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].sm, 0u);
  EXPECT_EQ(a[0].at, ns(7));  // wins at 1: 1 + 2 + 5 - 1
  EXPECT_EQ(a[1].sm, 1u);
  EXPECT_EQ(a[1].at, ns(12));  // wins at 6 when the output is free: exactly 5 flits later
  EXPECT_EQ(b.stat("req.out0_busy_cycles"), 10);
  EXPECT_EQ(b.stat("req.mean_latency"), (7 + 12) / 2.0);
}

TEST(NocTiming, RoundRobinAlternatesFairly) {
  NocBench b(gms::test::ns_params(), 3, 1);
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned k = 0; k < 4; ++k) b.ini[i]->add(0, b.line_to(0, i * 4 + k), false, 0x1);
  sc_core::sc_start();
  const auto& a = b.tgt[0]->arrivals();
  ASSERT_EQ(a.size(), 12u);
  for (unsigned k = 0; k < 12; ++k) {
    EXPECT_EQ(a[k].sm, k % 3) << "arrival " << k;
    EXPECT_EQ(a[k].id, k / 3) << "arrival " << k;
    EXPECT_EQ(a[k].at, ns(3 + k)) << "arrival " << k;  // one 1-flit packet per cycle from cycle 1
  }
  for (unsigned i = 0; i < 3; ++i)
    for (const auto& r : b.ini[i]->records()) EXPECT_EQ(r.responses, 1u);
}

TEST(NocTiming, DifferentOutputsProceedInParallel) {
  NocBench b(gms::test::ns_params(), 3, 3);
  for (unsigned i = 0; i < 3; ++i) b.ini[i]->add(0, b.line_to(i), true, 0xF);
  sc_core::sc_start();
  for (unsigned j = 0; j < 3; ++j) {
    ASSERT_EQ(b.tgt[j]->arrivals().size(), 1u);
    EXPECT_EQ(b.tgt[j]->arrivals()[0].sm, j);
    EXPECT_EQ(b.tgt[j]->arrivals()[0].at, ns(7));  // all three win at cycle 1
  }
  EXPECT_EQ(b.stat("req.mean_latency"), 7);
}
