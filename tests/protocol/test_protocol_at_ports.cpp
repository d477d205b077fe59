// Our own AT ports (AtInitiatorPort / AtTargetPort, as every block uses them) keep the base protocol:
// the interconnect tests' fake L1 and fake slice, both back-pressuring at random, talk through the
// checker without a violation, and the checker leaves their timing alone.
#include <gtest/gtest.h>

#include "models/protocol/protocol_checker.h"
#include "tests/noc/fake_initiator.h"
#include "tests/noc/fake_target.h"

namespace {

// One fake L1 and one fake slice: 200 reads and writes, END_REQ and END_RESP withheld at random (the
// fakes seed their generators by index, so two pairs see the same random choices).
struct Pair {
  gms::test::FakeInitiator ini;
  gms::test::FakeTarget tgt;
  Pair(const char* ini_name, const char* tgt_name, gms::PayloadPool& pool)
      : ini(ini_name, 0, pool), tgt(tgt_name, 0) {
    tgt.hold_requests(0, 6);
    tgt.service(5, 20);
    ini.hold_responses(0, 4);
    ini.max_outstanding(8);
    for (unsigned i = 0; i < 200; ++i) ini.add(i * 2.0, i * 128, i % 3 == 0, gms::kFullChunkMask);
  }
};

}  // namespace

TEST(ProtocolAtPorts, RandomBackPressureKeepsTheProtocolAndTheTiming) {
  gms::StatGroup root("root");
  gms::PayloadPool pool;
  gms::BlockEnv env{&root};
  env.pool = &pool;
  Pair checked("ini_c", "tgt_c", pool), plain("ini_p", "tgt_p", pool);
  gms::ProtocolChecker chk("chk", env);
  checked.ini.isock.bind(chk.tsock);
  chk.isock.bind(checked.tgt.tsock);
  plain.ini.isock.bind(plain.tgt.tsock);
  sc_core::sc_start();

  EXPECT_EQ(chk.violations(), 0u) << (chk.messages().empty() ? "" : chk.messages()[0]);
  EXPECT_EQ(root.value("chk.checked_requests"), 200);
  EXPECT_EQ(chk.in_flight(), 0u);
  const auto& a = checked.ini.records();
  const auto& b = plain.ini.records();
  ASSERT_EQ(a.size(), 200u);
  ASSERT_EQ(b.size(), 200u);
  unsigned held = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].responses, 1u);
    EXPECT_EQ(a[i].accepted, b[i].accepted) << "request " << i;
    EXPECT_EQ(a[i].answered, b[i].answered) << "request " << i;
    held += a[i].accepted > a[i].issue;
  }
  EXPECT_GT(held, 0u);  // the run did exercise withheld END_REQs
}
