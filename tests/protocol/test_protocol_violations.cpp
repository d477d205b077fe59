// Broken sequences fed through the checker on purpose: each is caught by its own counter (and only
// that one), still forwarded unchanged, and reported with the link, the check, the address and the
// time; in throw mode the first violation throws std::logic_error.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/protocol/checker_bench.h"

using gms::ProtocolCheck;
using gms::test::CheckerBench;
using gms::test::ns;
using gms::test::Payload;
using gms::test::Txn;
using sc_core::SC_NS;
using sc_core::sc_time;
using tlm::tlm_phase;

// BEGIN_RESP right after BEGIN_REQ is legal (it implies END_REQ); what is out of order is a response to a
// payload never requested on the link, and an END_REQ after the BEGIN_RESP that implied it.
TEST(ProtocolViolations, ResponseWithoutRequestAndEndReqAfterBeginResp) {
  CheckerBench b;
  Txn r(0x1000, tlm::TLM_READ_COMMAND), stray(0x2000, tlm::TLM_READ_COMMAND);
  b.run([&] {
    b.fw(r.t, tlm::BEGIN_REQ);
    r.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(r.t, tlm::BEGIN_RESP);
    b.bw(r.t, tlm::END_REQ);  // END_REQ after BEGIN_RESP
    b.fw(r.t, tlm::END_RESP);
    stray.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(stray.t, tlm::BEGIN_RESP);  // no BEGIN_REQ on this link
    b.fw(stray.t, tlm::END_RESP);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::PhaseOrder, 2));
  EXPECT_EQ(b.ini.bw_seen.size(), 3u);  // forwarded all the same
  EXPECT_EQ(b.chk.in_flight(), 0u);
}

TEST(ProtocolViolations, SecondBeginReqBeforeEndReq) {
  CheckerBench b;
  Txn r1(0x0, tlm::TLM_READ_COMMAND), r2(0x80, tlm::TLM_READ_COMMAND);
  b.run([&] {
    b.fw(r1.t, tlm::BEGIN_REQ);
    b.fw(r2.t, tlm::BEGIN_REQ);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::RequestExclusion, 1));
  EXPECT_EQ(b.tgt.fw_seen.size(), 2u);
  EXPECT_EQ(b.root.value("chk.violations_request_exclusion"), 1);
}

TEST(ProtocolViolations, SecondBeginRespBeforeEndResp) {
  CheckerBench b;
  Txn r1(0x0, tlm::TLM_READ_COMMAND), r2(0x80, tlm::TLM_READ_COMMAND);
  b.run([&] {
    for (Txn* x : {&r1, &r2}) {
      b.fw(x->t, tlm::BEGIN_REQ);
      b.bw(x->t, tlm::END_REQ);
      x->t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    b.bw(r1.t, tlm::BEGIN_RESP);
    b.bw(r2.t, tlm::BEGIN_RESP);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::ResponseExclusion, 1));
}

TEST(ProtocolViolations, EndRespTwice) {
  CheckerBench b;
  Txn r(0x0, tlm::TLM_READ_COMMAND);
  b.run([&] {
    b.fw(r.t, tlm::BEGIN_REQ);
    b.bw(r.t, tlm::END_REQ);
    r.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(r.t, tlm::BEGIN_RESP);
    b.fw(r.t, tlm::END_RESP);
    sc_core::wait(ns(2));
    b.fw(r.t, tlm::END_RESP);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::PhaseOrder, 1));
  ASSERT_EQ(b.chk.messages().size(), 1u);
  const std::string& m = b.chk.messages()[0];
  EXPECT_NE(m.find("chk: phase_order: END_RESP"), std::string::npos) << m;
  EXPECT_NE(m.find("at 2 ns"), std::string::npos) << m;
}

TEST(ProtocolViolations, PhasesOnTheWrongPathOrChangedOnAccepted) {
  CheckerBench b;
  Txn r(0x0, tlm::TLM_READ_COMMAND);
  b.ini.on_bw = [](Payload&, tlm_phase& ph, sc_time&) {
    ph = tlm::END_RESP;  // a new phase with TLM_ACCEPTED
    return tlm::TLM_ACCEPTED;
  };
  b.run([&] {
    b.fw(r.t, tlm::BEGIN_REQ);
    b.fw(r.t, tlm::END_REQ);  // END_REQ is the target's
    b.bw(r.t, tlm::END_REQ);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::PhaseOrder, 2));
}

TEST(ProtocolViolations, IncompleteResponseStatus) {
  CheckerBench b;
  Txn r(0x0, tlm::TLM_READ_COMMAND), c(0x80, tlm::TLM_READ_COMMAND), k(0x100, tlm::TLM_READ_COMMAND, 4);
  b.tgt.on_fw = [&](Payload& t, tlm_phase&, sc_time&) {
    return &t == &c.t ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;  // c: completed, status never set
  };
  b.tgt.b_status = tlm::TLM_INCOMPLETE_RESPONSE;
  b.run([&] {
    b.fw(r.t, tlm::BEGIN_REQ);
    b.bw(r.t, tlm::END_REQ);
    b.bw(r.t, tlm::BEGIN_RESP);  // status still TLM_INCOMPLETE_RESPONSE
    b.fw(r.t, tlm::END_RESP);
    b.fw(c.t, tlm::BEGIN_REQ);
    sc_time d = sc_core::SC_ZERO_TIME;
    b.ini.isock->b_transport(k.t, d);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::ResponseStatus, 3));
}

TEST(ProtocolViolations, PayloadReusedWhileInFlight) {
  CheckerBench b;
  Txn r(0x0, tlm::TLM_READ_COMMAND);
  b.run([&] {
    b.fw(r.t, tlm::BEGIN_REQ);
    b.bw(r.t, tlm::END_REQ);
    b.fw(r.t, tlm::BEGIN_REQ);  // its first transaction awaits its response
    sc_time d = sc_core::SC_ZERO_TIME;
    b.ini.isock->b_transport(r.t, d);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::PayloadReuse, 2));
  EXPECT_EQ(b.chk.in_flight(), 1u);
}

// An initiator that frees the payload in its response handler and sends it again before returning
// TLM_COMPLETED: the reuse is reported, and the new transaction is tracked on from there.
TEST(ProtocolViolations, PayloadReusedInsideTheResponseCall) {
  CheckerBench b;
  Txn r(0x0, tlm::TLM_READ_COMMAND);
  b.ini.on_bw = [&](Payload& t, tlm_phase& ph, sc_time&) {
    if (ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    b.fw(t, tlm::BEGIN_REQ);
    return tlm::TLM_COMPLETED;
  };
  b.run([&] {
    b.fw(r.t, tlm::BEGIN_REQ);
    b.bw(r.t, tlm::END_REQ);
    r.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(r.t, tlm::BEGIN_RESP);
    EXPECT_EQ(b.chk.in_flight(), 1u);
    b.ini.on_bw = nullptr;
    b.bw(r.t, tlm::END_REQ);  // the second transaction goes on without further complaint
    r.t.set_response_status(tlm::TLM_OK_RESPONSE);
    b.bw(r.t, tlm::BEGIN_RESP);
    b.fw(r.t, tlm::END_RESP);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::PayloadReuse, 1));
  EXPECT_EQ(b.chk.in_flight(), 0u);
}

TEST(ProtocolViolations, DataLengthZeroAndNullDataPointer) {
  CheckerBench b;
  Txn zero(0x0, tlm::TLM_READ_COMMAND), null(0x80, tlm::TLM_WRITE_COMMAND),
      ign(0x100, tlm::TLM_IGNORE_COMMAND);
  zero.t.set_data_length(0);
  null.t.set_data_ptr(nullptr);
  ign.t.set_data_length(0);  // an IGNORE command carries no data: not checked
  b.tgt.on_fw = [](Payload& t, tlm_phase&, sc_time&) {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  };
  b.run([&] {
    b.fw(zero.t, tlm::BEGIN_REQ);
    b.fw(null.t, tlm::BEGIN_REQ);
    b.fw(ign.t, tlm::BEGIN_REQ);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::Data, 2));
}

TEST(ProtocolViolations, ByteEnablePointerWithLengthZeroAndStreamingWidthZero) {
  CheckerBench b;
  Txn be(0x0, tlm::TLM_WRITE_COMMAND), sw(0x80, tlm::TLM_READ_COMMAND);
  be.t.set_byte_enable_ptr(be.be);
  be.t.set_byte_enable_length(0);
  sw.t.set_streaming_width(0);
  b.tgt.b_status = tlm::TLM_OK_RESPONSE;
  b.run([&] {
    sc_time d = sc_core::SC_ZERO_TIME;
    b.ini.isock->b_transport(be.t, d);
    EXPECT_TRUE(b.only(ProtocolCheck::ByteEnable, 1));
    b.ini.isock->b_transport(sw.t, d);
  });
  EXPECT_EQ(b.chk.violations(ProtocolCheck::StreamingWidth), 1u);
  EXPECT_EQ(b.chk.violations(), 2u);
}

TEST(ProtocolViolations, BadDmiGrantsAndAccessRefusedInsideAGrant) {
  CheckerBench b;
  Txn g(0x40, tlm::TLM_READ_COMMAND, 8), r(0x40, tlm::TLM_READ_COMMAND, 8);
  int mode = 0;
  b.tgt.on_dmi = [&](Payload&, tlm::tlm_dmi& d) {
    d.set_dmi_ptr(mode == 1 ? nullptr : b.tgt.mem);
    d.set_start_address(mode == 0 ? 0x100 : 0x0);
    d.set_end_address(mode == 0 ? 0xff : mode == 2 ? 0x3f : 0xfff);
    return true;
  };
  b.tgt.b_status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
  b.run([&] {
    tlm::tlm_dmi d;
    for (mode = 0; mode < 4; ++mode) b.ini.isock->get_direct_mem_ptr(g.t, d);  // bad, bad, bad, good
    sc_time t = sc_core::SC_ZERO_TIME;
    b.ini.isock->b_transport(r.t, t);  // refused inside [0, 0xfff]
  });
  EXPECT_TRUE(b.only(ProtocolCheck::Dmi, 4));
  EXPECT_EQ(b.chk.dmi_ranges(), 1u);
  EXPECT_EQ(b.root.value("chk.dmi_grants"), 1);
}

TEST(ProtocolViolations, ThrowModeThrowsOnTheFirstViolation) {
  gms::ProtocolCheckerParams p;
  p.throw_on_violation = true;
  p.link = "l1_0->xbar";
  CheckerBench b(p);
  Txn r1(0x1230, tlm::TLM_READ_COMMAND), r2(0x80, tlm::TLM_READ_COMMAND);
  std::string what;
  bool second = false;
  b.run([&] {
    b.fw(r1.t, tlm::BEGIN_REQ);
    try {
      b.fw(r2.t, tlm::BEGIN_REQ);
      second = true;
    } catch (const std::logic_error& e) {
      what = e.what();
    }
  });
  EXPECT_FALSE(second);
  EXPECT_EQ(what,
            "l1_0->xbar: request_exclusion: BEGIN_REQ before END_REQ of the previous request "
            "(address 0x80, at 0 s)");
  EXPECT_TRUE(b.only(ProtocolCheck::RequestExclusion, 1));
  EXPECT_EQ(b.tgt.fw_seen.size(), 1u);  // the offending call went no further
}

TEST(ProtocolViolations, MessagesAreCappedButEveryViolationCounts) {
  gms::ProtocolCheckerParams p;
  p.max_messages = 2;
  CheckerBench b(p);
  Txn r(0x0, tlm::TLM_READ_COMMAND);
  b.run([&] {
    for (int i = 0; i < 5; ++i) b.fw(r.t, tlm::END_RESP);
  });
  EXPECT_TRUE(b.only(ProtocolCheck::PhaseOrder, 5));
  EXPECT_EQ(b.chk.messages().size(), 2u);
}
