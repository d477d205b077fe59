// Back-pressure through the full crossbar at a 1 GHz NoC clock, latency 2: a target withholding END_REQ
// blocks only its output, a full input buffer withholds END_REQ from the L1 until credits return, and an
// L1 withholding END_RESP blocks only its reply output.
#include <gtest/gtest.h>

#include "tests/noc/noc_bench.h"

using gms::test::NocBench;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
sc_time ns(double v) {
  return sc_time(v, SC_NS);
}
}  // namespace

TEST(NocBackpressure, TargetHoldingEndReqBlocksItsOutputOnly) {
  NocBench b(gms::test::ns_params(), 3, 2);
  b.tgt[0]->hold_requests(20);
  b.ini[0]->add(0, b.line_to(0, 0), false, 0x1);  // A
  b.ini[0]->add(0, b.line_to(0, 1), false, 0x1);  // C
  b.ini[1]->add(0, b.line_to(0, 2), false, 0x1);  // B
  b.ini[1]->add(0, b.line_to(0, 3), false, 0x1);  // D
  b.ini[2]->add(0, b.line_to(1, 0), false, 0x1);  // E
  b.ini[2]->add(0, b.line_to(1, 1), false, 0x1);  // F
  sc_core::sc_start();
  // A wins output 0 at 1, B at 2 (both already in the pipeline when A is held at 3). B waits for A's
  // END_REQ (23) and goes at 24. C must win the output again after B's END_REQ (44): wins at 45, arrives at
  // 47; D wins at 46 (C not yet held), waits in the pipeline for C's END_REQ (67) and goes at 68.
  const auto& t0 = b.tgt[0]->arrivals();
  ASSERT_EQ(t0.size(), 4u);
  EXPECT_EQ(t0[0].at, ns(3));
  EXPECT_EQ(t0[0].sm, 0u);
  EXPECT_EQ(t0[1].at, ns(24));
  EXPECT_EQ(t0[1].sm, 1u);
  EXPECT_EQ(t0[2].at, ns(47));
  EXPECT_EQ(t0[2].sm, 0u);
  EXPECT_EQ(t0[3].at, ns(68));
  EXPECT_EQ(t0[3].sm, 1u);
  // The other output is not disturbed.
  const auto& t1 = b.tgt[1]->arrivals();
  ASSERT_EQ(t1.size(), 2u);
  EXPECT_EQ(t1[0].at, ns(3));
  EXPECT_EQ(t1[1].at, ns(4));
  EXPECT_EQ(b.stat("req.blocked_cycles"), 80);
  for (unsigned i = 0; i < 3; ++i)
    for (const auto& r : b.ini[i]->records()) {
      EXPECT_EQ(r.accepted, ns(0));  // the input buffers always had room
      EXPECT_EQ(r.responses, 1u);
    }
}

TEST(NocBackpressure, FullInputBufferHoldsEndReqUntilCreditsReturn) {
  gms::NocParams p = gms::test::ns_params();
  p.input_buffer_flits = 5;  // exactly one full-line write
  NocBench b(p, 1, 1);
  b.tgt[0]->hold_requests(100);
  for (unsigned k = 0; k < 3; ++k) b.ini[0]->add(0, b.line_to(0, k), true, 0xF);
  sc_core::sc_start();
  const auto& r = b.ini[0]->records();
  // W1 fills the buffer; W2 is held until W1's five flits have left (wins at 1, out by 6); W3, sent at
  // 6, is held until W2 has left (W2 wins at 108 after W1's END_REQ at 107, out by 113).
  EXPECT_EQ(r[0].accepted, ns(0));
  EXPECT_EQ(r[1].accepted, ns(6));
  EXPECT_EQ(r[2].accepted, ns(113));
  const auto& a = b.tgt[0]->arrivals();
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].at, ns(7));
  EXPECT_EQ(a[1].at, ns(114));
  EXPECT_EQ(a[2].at, ns(221));  // after W2's END_REQ at 214: wins at 215
  EXPECT_EQ(b.stat("req.held"), 2);
  EXPECT_EQ(b.stat("req.credit_stall_cycles"), 6 + (113 - 6));
  for (const auto& x : r) EXPECT_EQ(x.responses, 1u);
}

TEST(NocBackpressure, InitiatorHoldingEndRespBlocksItsReplyOutputOnly) {
  NocBench b(gms::test::ns_params(), 2, 2);
  b.tgt[0]->service(7);
  b.tgt[1]->service(7);
  b.ini[0]->hold_responses(20);
  b.ini[0]->add(0, b.line_to(0), false, 0xF);  // R0: 5-flit reply
  b.ini[0]->add(0, b.line_to(1), false, 0x1);  // R1: 2-flit reply
  b.ini[1]->add(5, b.line_to(1, 1), false, 0x1);
  sc_core::sc_start();
  const auto& r = b.ini[0]->records();
  // Requests reach the targets at 3 and 4; replies leave at 10 and 11. R0 wins output 0 at 11 and is
  // delivered at 17 and held 20 ns; R1 (won at 16, due at 19) waits for that END_RESP (37) and goes at 38.
  EXPECT_EQ(r[0].answered, ns(17));
  EXPECT_EQ(r[1].answered, ns(38));
  // SM 1's reply from target 1 (request at 8, reply at 15) queues behind R1 at that input (R1 sends
  // cycles 16-17), wins at 18 and is delivered at 21 while output 0 is still blocked.
  EXPECT_EQ(b.ini[1]->records()[0].answered, ns(21));
  EXPECT_EQ(b.stat("resp.blocked_cycles"), 40);
  EXPECT_EQ(b.stat("requests"), 3);
  EXPECT_EQ(b.stat("responses"), 3);
}
