// A scripted initiator and target around one ProtocolChecker. The test's script runs in the initiator's
// thread and drives both ends: forward calls through the initiator's socket, backward calls through the
// target's, so any sequence (legal or broken) can be played exactly. Each end records what reached it
// and answers through a replaceable handler (default TLM_ACCEPTED, phase unchanged).
#pragma once
#include <gtest/gtest.h>
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>

#include <functional>
#include <vector>

#include "models/protocol/protocol_checker.h"

namespace gms::test {

using Payload = tlm::tlm_generic_payload;
using Handler = std::function<tlm::tlm_sync_enum(Payload&, tlm::tlm_phase&, sc_core::sc_time&)>;

struct Seen {
  Payload* t;
  tlm::tlm_phase ph;
  sc_core::sc_time d;
};

// A plain payload (no memory manager, no extension) with its own buffers.
struct Txn {
  Payload t;
  unsigned char data[128] = {};
  unsigned char be[128] = {};
  Txn(uint64_t addr, tlm::tlm_command cmd, unsigned len = 128);
};

struct ScriptedInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<ScriptedInitiator> isock{"isock"};
  Handler on_bw;
  std::vector<Seen> bw_seen;
  std::vector<std::pair<uint64_t, uint64_t>> invalidated;
  std::function<void()> script;

  SC_HAS_PROCESS(ScriptedInitiator);
  explicit ScriptedInitiator(sc_core::sc_module_name n);
  tlm::tlm_sync_enum nb_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { invalidated.emplace_back(start, end); }
  void run() {
    if (script) script();
  }
};

struct ScriptedTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<ScriptedTarget> tsock{"tsock"};
  Handler on_fw;
  std::vector<Seen> fw_seen;
  // b_transport: adds b_delay, sets b_status, copies/reads mem.
  sc_core::sc_time b_delay = sc_core::sc_time(10, sc_core::SC_NS);
  tlm::tlm_response_status b_status = tlm::TLM_OK_RESPONSE;
  unsigned blocking = 0, debug = 0;
  // DMI: the grant the test wants (default: [0, 0xfff] over mem, read/write).
  std::function<bool(Payload&, tlm::tlm_dmi&)> on_dmi;
  unsigned char mem[4096] = {};

  explicit ScriptedTarget(sc_core::sc_module_name n);
  tlm::tlm_sync_enum nb_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  void b_transport(Payload& t, sc_core::sc_time& d);
  unsigned transport_dbg(Payload& t);
  bool dmi(Payload& t, tlm::tlm_dmi& d);
};

struct CheckerBench {
  StatGroup root{"root"};
  BlockEnv env{&root};
  ScriptedInitiator ini{"ini"};
  ProtocolChecker chk;
  ScriptedTarget tgt{"tgt"};

  explicit CheckerBench(const ProtocolCheckerParams& p = {});
  // Forward call from the initiator (phase in, phase and status out).
  tlm::tlm_sync_enum fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    return ini.isock->nb_transport_fw(t, ph, d);
  }
  tlm::tlm_sync_enum fw(Payload& t, tlm::tlm_phase_enum ph) {
    tlm::tlm_phase p = ph;
    return fw(t, p, sc_core::SC_ZERO_TIME);
  }
  // Backward call from the target.
  tlm::tlm_sync_enum bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time d = sc_core::SC_ZERO_TIME) {
    return tgt.tsock->nb_transport_bw(t, ph, d);
  }
  tlm::tlm_sync_enum bw(Payload& t, tlm::tlm_phase_enum ph) {
    tlm::tlm_phase p = ph;
    return bw(t, p, sc_core::SC_ZERO_TIME);
  }
  // Runs the script in the initiator's thread: one sc_start for the whole test case.
  void run(std::function<void()> script) {
    ini.script = std::move(script);
    sc_core::sc_start();
  }
  // Every counter is zero but c's, which is n (the total too).
  ::testing::AssertionResult only(ProtocolCheck c, uint64_t n) const;
  // No violation at all (the first message in the failure text otherwise).
  ::testing::AssertionResult clean() const;
};

// A delay in nanoseconds (the benches' unit).
inline sc_core::sc_time ns(double v) {
  return sc_core::sc_time(v, sc_core::SC_NS);
}

}  // namespace gms::test
