// A TLM-2.0 base-protocol checker that sits on one link (issue 13): it forwards every call between the
// block upstream (bound to tsock) and the block downstream (isock) unchanged and with no added delay,
// and checks on the way that both ends keep the base protocol's rules (IEEE 1666-2011 ch. 14-15):
// phase order per payload, the request and response exclusion rules, the response status, no payload
// reuse before completion, consistent data / byte-enable / streaming-width attributes and DMI grants.
// A violation is counted (per check and in total) and the first few are kept as messages; it throws
// std::logic_error instead when asked, for tests that want to stop at the first one.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/common/block_env.h"
#include "models/common/stats.h"

namespace gms {

// One rule family; each has its own counter `violations_<name>` (names from stat_name).
enum class ProtocolCheck : uint8_t {
  PhaseOrder,         // a phase out of sequence for its payload, or on the wrong path
  RequestExclusion,   // BEGIN_REQ while another request awaits END_REQ on the link
  ResponseExclusion,  // BEGIN_RESP while another response awaits END_RESP on the link
  ResponseStatus,     // a response (BEGIN_RESP, TLM_COMPLETED, b_transport return) still INCOMPLETE
  PayloadReuse,       // BEGIN_REQ with a payload whose transaction has not completed on the link
  Data,               // read/write with data length 0 or no data pointer
  ByteEnable,         // byte-enable pointer without length, or a length without pointer
  StreamingWidth,     // read/write with streaming width 0
  Dmi,                // DMI grant with start > end, no pointer, not covering the address; or refused access
};
constexpr size_t kProtocolChecks = 9;
// "phase_order", "request_exclusion", ...: the check's short name.
const char* to_string(ProtocolCheck c);

struct ProtocolCheckerParams {
  bool throw_on_violation = false;  // throw std::logic_error at the first violation instead of counting
  unsigned max_messages = 16;       // violation messages kept (all are counted)
  std::string link;                 // the link's name in messages; empty: the module's name
};

class ProtocolChecker : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ProtocolChecker> tsock;     // the upstream block's isock binds here
  tlm_utils::simple_initiator_socket<ProtocolChecker> isock;  // binds to the downstream block's tsock

  // Registers its StatGroup (named like the module) under env.stats, or as a root group when null.
  ProtocolChecker(sc_core::sc_module_name name, const BlockEnv& env, const ProtocolCheckerParams& p = {});
  ~ProtocolChecker() override;

  uint64_t violations() const { return total_->value; }
  uint64_t violations(ProtocolCheck c) const { return count_[size_t(c)]->value; }
  // The first max_messages violations: "<link>: <check>: <what> (address 0x.., at <time>)".
  const std::vector<std::string>& messages() const { return messages_; }
  void set_throw_on_violation(bool on) { p_.throw_on_violation = on; }

  size_t in_flight() const { return state_.size(); }  // payloads between BEGIN_REQ and completion
  size_t dmi_ranges() const { return dmi_.size(); }   // granted ranges not invalidated since
  const StatGroup& stats() const { return *stats_; }

 private:
  // Where a payload's transaction stands on this link (completed ones are erased).
  enum class Stage : uint8_t { Request, Accepted, Response };
  struct DmiRange {
    uint64_t start, end;
  };
  using Payload = tlm::tlm_generic_payload;

  // Forward path (from upstream) and backward path (from downstream), checked and passed on.
  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  void b_transport(Payload& t, sc_core::sc_time& d);
  unsigned transport_dbg(Payload& t);
  bool get_direct_mem_ptr(Payload& t, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  // Phase transitions, each checking the payload's stage first.
  void begin_req(Payload& t);
  void end_req(Payload& t, const char* how);
  void begin_resp(Payload& t, const char* how);
  void end_resp(Payload& t, const char* how);
  void completed(Payload& t, const tlm::tlm_phase& sent);  // TLM_COMPLETED returned to `sent`
  void after_fw(Payload& t, const tlm::tlm_phase& sent, tlm::tlm_sync_enum s, const tlm::tlm_phase& ph);
  void after_bw(Payload& t, const tlm::tlm_phase& sent, tlm::tlm_sync_enum s, const tlm::tlm_phase& ph);

  // Attribute, response and DMI rules (protocol_rules.cpp).
  void check_attributes(const Payload& t, const char* call);
  void check_response(const Payload& t, const char* how);
  void check_dmi_grant(const Payload& t, const tlm::tlm_dmi& dmi, bool granted);
  bool in_granted_dmi(uint64_t addr) const;

  void violation(ProtocolCheck c, const Payload* t, const std::string& what);

  ProtocolCheckerParams p_;
  std::unique_ptr<StatGroup> stats_;
  Counter* total_ = nullptr;
  std::array<Counter*, kProtocolChecks> count_{};
  Counter* requests_ = nullptr;
  Counter* blocking_ = nullptr;
  Counter* dmi_grants_ = nullptr;
  std::vector<std::string> messages_;
  std::unordered_map<const Payload*, Stage> state_;
  const Payload* req_in_phase_ = nullptr;   // BEGIN_REQ sent, END_REQ (or an implied one) not yet
  const Payload* resp_in_phase_ = nullptr;  // BEGIN_RESP sent, END_RESP (or completion) not yet
  std::vector<DmiRange> dmi_;
};

}  // namespace gms
