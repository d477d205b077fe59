// Payloads from foreign initiators (no MemReq extension, no memory manager, annotated delays) cross the
// crossbar and their replies return to the right initiator through the side table.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/common/at_port.h"
#include "tests/noc/noc_bench.h"

using gms::test::NocBench;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
sc_time ns(double v) {
  return sc_time(v, SC_NS);
}

// Sends one plain 64-byte read (its own payload, no extension) with an annotated delay.
struct ForeignInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<ForeignInitiator> isock{"isock"};
  tlm::tlm_generic_payload t;
  unsigned char data[64] = {};
  sc_time delay;
  sc_time answered;
  unsigned responses = 0;
  gms::AtInitiatorPort port;
  SC_HAS_PROCESS(ForeignInitiator);
  ForeignInitiator(sc_core::sc_module_name n, uint64_t addr, sc_time d) : sc_module(n), delay(d) {
    t.set_address(addr);
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_data_ptr(data);
    t.set_data_length(64);
    port = gms::AtInitiatorPort(
        [this](gms::Payload& p, tlm::tlm_phase& ph, sc_time& dd) {
          dd = delay;  // BEGIN_REQ with the annotated delay; END_RESP without
          delay = sc_core::SC_ZERO_TIME;
          return isock->nb_transport_fw(p, ph, dd);
        },
        nullptr,
        [this](gms::Payload&) {
          answered = sc_core::sc_time_stamp();
          ++responses;
          return true;
        });
    isock.register_nb_transport_bw(this, &ForeignInitiator::nb_bw);
    SC_METHOD(send);
  }
  tlm::tlm_sync_enum nb_bw(gms::Payload& p, tlm::tlm_phase& ph, sc_time& d) {
    return port.nb_transport_bw(p, ph, d);
  }
  void send() { port.send(t); }
};
}  // namespace

TEST(NocForeign, PayloadsWithoutMemReqReturnToTheirInitiator) {
  NocBench b(gms::test::ns_params(), 0, 1);
  ForeignInitiator a("a", b.line_to(0, 0), sc_core::SC_ZERO_TIME), c("c", b.line_to(0, 1), ns(5));
  a.isock.bind(b.noc->up);
  c.isock.bind(b.noc->up);
  sc_core::sc_start();
  const auto& arr = b.tgt[0]->arrivals();
  ASSERT_EQ(arr.size(), 2u);
  EXPECT_EQ(arr[0].sm, gms::test::FakeTarget::kForeign);
  EXPECT_EQ(arr[0].at, ns(3));  // 1-flit read request
  EXPECT_EQ(arr[1].at, ns(8));  // arrives at 0 + 5 ns annotated delay: 5 + 2 + 1
  // Replies carry data_length = 64 bytes: 3 flits. Sent at 13 and 18: 13 + 2 + 3, 18 + 2 + 3.
  EXPECT_EQ(a.responses, 1u);
  EXPECT_EQ(c.responses, 1u);
  EXPECT_EQ(a.answered, ns(18));
  EXPECT_EQ(c.answered, ns(23));
  EXPECT_EQ(b.stat("resp.flits"), 6);
  EXPECT_EQ(b.stat("requests"), 2);
  EXPECT_EQ(b.stat("responses"), 2);
}
