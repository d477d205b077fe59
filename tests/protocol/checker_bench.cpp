#include "tests/protocol/checker_bench.h"

#include <cstring>

namespace gms::test {

Txn::Txn(uint64_t addr, tlm::tlm_command cmd, unsigned len) {
  t.set_address(addr);
  t.set_command(cmd);
  t.set_data_ptr(data);
  t.set_data_length(len);
  t.set_streaming_width(len);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

ScriptedInitiator::ScriptedInitiator(sc_core::sc_module_name n) : sc_module(n) {
  isock.register_nb_transport_bw(this, &ScriptedInitiator::nb_bw);
  isock.register_invalidate_direct_mem_ptr(this, &ScriptedInitiator::invalidate);
  SC_THREAD(run);
}

tlm::tlm_sync_enum ScriptedInitiator::nb_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  bw_seen.push_back({&t, ph, d});
  return on_bw ? on_bw(t, ph, d) : tlm::TLM_ACCEPTED;
}

ScriptedTarget::ScriptedTarget(sc_core::sc_module_name n) : sc_module(n) {
  tsock.register_nb_transport_fw(this, &ScriptedTarget::nb_fw);
  tsock.register_b_transport(this, &ScriptedTarget::b_transport);
  tsock.register_transport_dbg(this, &ScriptedTarget::transport_dbg);
  tsock.register_get_direct_mem_ptr(this, &ScriptedTarget::dmi);
}

tlm::tlm_sync_enum ScriptedTarget::nb_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  fw_seen.push_back({&t, ph, d});
  return on_fw ? on_fw(t, ph, d) : tlm::TLM_ACCEPTED;
}

void ScriptedTarget::b_transport(Payload& t, sc_core::sc_time& d) {
  ++blocking;
  d += b_delay;
  const uint64_t a = t.get_address() % sizeof mem;
  if (t.is_read()) std::memcpy(t.get_data_ptr(), mem + a, t.get_data_length());
  if (t.is_write()) std::memcpy(mem + a, t.get_data_ptr(), t.get_data_length());
  t.set_response_status(b_status);
}

unsigned ScriptedTarget::transport_dbg(Payload& t) {
  ++debug;
  const uint64_t a = t.get_address() % sizeof mem;
  std::memcpy(t.get_data_ptr(), mem + a, t.get_data_length());
  return t.get_data_length();
}

bool ScriptedTarget::dmi(Payload& t, tlm::tlm_dmi& d) {
  if (on_dmi) return on_dmi(t, d);
  d.set_dmi_ptr(mem);
  d.set_start_address(0);
  d.set_end_address(sizeof mem - 1);
  d.allow_read_write();
  return true;
}

CheckerBench::CheckerBench(const ProtocolCheckerParams& p) : chk("chk", env, p) {
  ini.isock.bind(chk.tsock);
  chk.isock.bind(tgt.tsock);
}

::testing::AssertionResult CheckerBench::only(ProtocolCheck c, uint64_t n) const {
  for (size_t i = 0; i < kProtocolChecks; ++i) {
    const uint64_t want = ProtocolCheck(i) == c ? n : 0;
    if (chk.violations(ProtocolCheck(i)) != want)
      return ::testing::AssertionFailure() << "violations_" << to_string(ProtocolCheck(i)) << " = "
                                           << chk.violations(ProtocolCheck(i)) << ", expected " << want;
  }
  if (chk.violations() != n)
    return ::testing::AssertionFailure() << "violations = " << chk.violations() << ", expected " << n;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult CheckerBench::clean() const {
  if (chk.violations() == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << chk.violations() << " violations, first: " << (chk.messages().empty() ? "" : chk.messages()[0]);
}

}  // namespace gms::test
