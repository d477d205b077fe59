// Legal base-protocol exchanges through the checker: every sequence the base protocol allows (all four
// phases, the TLM_UPDATED and TLM_COMPLETED shortcuts, BEGIN_RESP implying END_REQ, pipelined requests
// answered out of order, b_transport, debug, DMI) reaches the other end unchanged, with its delay, and
// counts no violation.
#include <gtest/gtest.h>

#include "tests/protocol/checker_bench.h"

using gms::test::CheckerBench;
using gms::test::ns;
using gms::test::Payload;
using gms::test::Txn;
using sc_core::SC_NS;
using sc_core::sc_time;
using tlm::tlm_phase;

TEST(ProtocolChecker, FourPhaseExchangePassesThroughUnchanged) {
  CheckerBench b;
  Txn r(0x1000, tlm::TLM_READ_COMMAND);
  tlm::tlm_sync_enum s1{}, s2{}, s3{}, s4{};
  b.tgt.on_fw = [](Payload&, tlm_phase& ph, sc_time&) {
    return ph == tlm::END_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
  };
  b.run([&] {
    tlm_phase ph = tlm::BEGIN_REQ;
    s1 = b.fw(r.t, ph, ns(3));
    EXPECT_EQ(b.chk.in_flight(), 1u);
    sc_core::wait(ns(1));
    ph = tlm::END_REQ;
    s2 = b.bw(r.t, ph, ns(2));
    sc_core::wait(ns(5));
    r.t.set_response_status(tlm::TLM_OK_RESPONSE);
    ph = tlm::BEGIN_RESP;
    s3 = b.bw(r.t, ph, ns(4));
    ph = tlm::END_RESP;
    s4 = b.fw(r.t, ph);
  });
  EXPECT_EQ(s1, tlm::TLM_ACCEPTED);
  EXPECT_EQ(s2, tlm::TLM_ACCEPTED);
  EXPECT_EQ(s3, tlm::TLM_ACCEPTED);
  EXPECT_EQ(s4, tlm::TLM_COMPLETED);
  ASSERT_EQ(b.tgt.fw_seen.size(), 2u);
  EXPECT_EQ(b.tgt.fw_seen[0].t, &r.t);
  EXPECT_EQ(b.tgt.fw_seen[0].ph, tlm::BEGIN_REQ);
  EXPECT_EQ(b.tgt.fw_seen[0].d, ns(3));
  EXPECT_EQ(b.tgt.fw_seen[1].ph, tlm::END_RESP);
  ASSERT_EQ(b.ini.bw_seen.size(), 2u);
  EXPECT_EQ(b.ini.bw_seen[0].ph, tlm::END_REQ);
  EXPECT_EQ(b.ini.bw_seen[0].d, ns(2));
  EXPECT_EQ(b.ini.bw_seen[1].ph, tlm::BEGIN_RESP);
  EXPECT_EQ(b.ini.bw_seen[1].d, ns(4));
  EXPECT_TRUE(b.clean());
  EXPECT_EQ(b.chk.in_flight(), 0u);
  EXPECT_EQ(b.root.value("chk.checked_requests"), 1);
  EXPECT_EQ(b.root.value("chk.violations"), 0);
}

TEST(ProtocolChecker, PipelinedRequestsAnsweredOutOfOrderAndPayloadReusedAfterCompletion) {
  CheckerBench b;
  Txn r1(0x0, tlm::TLM_READ_COMMAND), r2(0x80, tlm::TLM_WRITE_COMMAND);
  b.run([&] {
    b.fw(r1.t, tlm::BEGIN_REQ);
    b.bw(r1.t, tlm::END_REQ);
    b.fw(r2.t, tlm::BEGIN_REQ);
    b.bw(r2.t, tlm::END_REQ);
    r2.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(r2.t, tlm::BEGIN_RESP);
    b.fw(r2.t, tlm::END_RESP);
    r1.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(r1.t, tlm::BEGIN_RESP);
    b.fw(r1.t, tlm::END_RESP);
    // The same payload again, now that its transaction is over.
    r1.t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    b.fw(r1.t, tlm::BEGIN_REQ);
    r1.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(r1.t, tlm::BEGIN_RESP);  // implies END_REQ (IEEE 1666-2011 15.2.4)
    b.fw(r1.t, tlm::END_RESP);
  });
  EXPECT_TRUE(b.clean());
  EXPECT_EQ(b.chk.in_flight(), 0u);
  EXPECT_EQ(b.tgt.fw_seen.size(), 6u);
  EXPECT_EQ(b.ini.bw_seen.size(), 5u);
}

TEST(ProtocolChecker, UpdatedShortcutsOnBothReturnPaths) {
  CheckerBench b;
  Txn r(0x100, tlm::TLM_READ_COMMAND), w(0x200, tlm::TLM_WRITE_COMMAND);
  tlm_phase back1{}, back2{}, back3{};
  // r: the target accepts at once (UPDATED/END_REQ); w: it answers at once (UPDATED/BEGIN_RESP).
  b.tgt.on_fw = [&](Payload& t, tlm_phase& ph, sc_time& d) {
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    if (&t == &r.t) {
      ph = tlm::END_REQ;
    } else {
      t.set_response_status(tlm::TLM_OK_RESPONSE);
      ph = tlm::BEGIN_RESP;
    }
    d = ns(7);
    return tlm::TLM_UPDATED;
  };
  // The initiator takes r's response at once (UPDATED/END_RESP).
  b.ini.on_bw = [](Payload&, tlm_phase& ph, sc_time&) {
    ph = tlm::END_RESP;
    return tlm::TLM_UPDATED;
  };
  sc_time d_back;
  b.run([&] {
    tlm_phase ph = tlm::BEGIN_REQ;
    sc_time d = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(b.ini.isock->nb_transport_fw(r.t, ph, d), tlm::TLM_UPDATED);
    back1 = ph;
    d_back = d;
    sc_core::wait(ns(10));
    r.t.set_response_status(tlm::TLM_OK_RESPONSE);
    ph = tlm::BEGIN_RESP;
    EXPECT_EQ(b.bw(r.t, ph), tlm::TLM_UPDATED);
    back2 = ph;
    ph = tlm::BEGIN_REQ;
    EXPECT_EQ(b.fw(w.t, ph), tlm::TLM_UPDATED);
    back3 = ph;
    b.fw(w.t, tlm::END_RESP);
  });
  EXPECT_EQ(back1, tlm::END_REQ);
  EXPECT_EQ(d_back, ns(7));  // the target's annotation comes back unchanged
  EXPECT_EQ(back2, tlm::END_RESP);
  EXPECT_EQ(back3, tlm::BEGIN_RESP);
  EXPECT_TRUE(b.clean());
  EXPECT_EQ(b.chk.in_flight(), 0u);
}

TEST(ProtocolChecker, CompletedShortcutsEndTheTransaction) {
  CheckerBench b;
  Txn r(0x300, tlm::TLM_READ_COMMAND), w(0x400, tlm::TLM_WRITE_COMMAND);
  // w completes in the target's first answer; r's response is completed by the initiator.
  b.tgt.on_fw = [&](Payload& t, tlm_phase&, sc_time&) {
    if (&t != &w.t) return tlm::TLM_ACCEPTED;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  };
  b.ini.on_bw = [](Payload&, tlm_phase& ph, sc_time&) {
    return ph == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
  };
  b.run([&] {
    EXPECT_EQ(b.fw(w.t, tlm::BEGIN_REQ), tlm::TLM_COMPLETED);
    b.fw(r.t, tlm::BEGIN_REQ);
    b.bw(r.t, tlm::END_REQ);
    r.t.set_response_status(tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(b.bw(r.t, tlm::BEGIN_RESP), tlm::TLM_COMPLETED);
    // Both payloads may start again at once.
    w.t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    EXPECT_EQ(b.fw(w.t, tlm::BEGIN_REQ), tlm::TLM_COMPLETED);
  });
  EXPECT_TRUE(b.clean());
  EXPECT_EQ(b.chk.in_flight(), 0u);
  EXPECT_EQ(b.root.value("chk.checked_requests"), 3);
}

TEST(ProtocolChecker, BlockingDebugAndDmiPassThrough) {
  CheckerBench b;
  Txn w(0x40, tlm::TLM_WRITE_COMMAND, 8), r(0x40, tlm::TLM_READ_COMMAND, 8),
      g(0x40, tlm::TLM_READ_COMMAND, 8);
  for (unsigned i = 0; i < 8; ++i) w.data[i] = static_cast<unsigned char>(0xa0 + i);
  sc_time dw = ns(5), dr = sc_core::SC_ZERO_TIME;
  tlm::tlm_dmi dmi;
  bool granted = false;
  unsigned dbg_bytes = 0;
  b.run([&] {
    granted = b.ini.isock->get_direct_mem_ptr(g.t, dmi);
    EXPECT_EQ(b.chk.dmi_ranges(), 1u);
    b.ini.isock->b_transport(w.t, dw);  // inside the granted range: fine
    b.ini.isock->b_transport(r.t, dr);
    Txn d(0x40, tlm::TLM_READ_COMMAND, 0);  // debug may carry any length; unchecked
    dbg_bytes = b.ini.isock->transport_dbg(d.t);
    b.tgt.tsock->invalidate_direct_mem_ptr(0x0, 0xff);
  });
  EXPECT_TRUE(granted);
  EXPECT_EQ(dmi.get_dmi_ptr(), b.tgt.mem);
  EXPECT_EQ(dw, ns(15));  // 5 ns in, the target's 10 ns added, nothing from the checker
  EXPECT_EQ(dr, ns(10));
  EXPECT_EQ(r.data[3], 0xa3);
  EXPECT_EQ(w.t.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(b.tgt.blocking, 2u);
  EXPECT_EQ(b.tgt.debug, 1u);
  EXPECT_EQ(dbg_bytes, 0u);
  ASSERT_EQ(b.ini.invalidated.size(), 1u);
  EXPECT_EQ(b.ini.invalidated[0].second, 0xffu);
  EXPECT_EQ(b.chk.dmi_ranges(), 0u);
  EXPECT_EQ(b.root.value("chk.dmi_grants"), 1);
  EXPECT_EQ(b.root.value("chk.checked_blocking"), 2);
  EXPECT_TRUE(b.clean());
}
