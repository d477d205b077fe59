// The rules about a payload's attributes, its response and DMI grants, and how a violation is reported.
#include <sstream>
#include <stdexcept>

#include "models/protocol/protocol_checker.h"

namespace gms {

const char* to_string(ProtocolCheck c) {
  switch (c) {
    case ProtocolCheck::PhaseOrder:
      return "phase_order";
    case ProtocolCheck::RequestExclusion:
      return "request_exclusion";
    case ProtocolCheck::ResponseExclusion:
      return "response_exclusion";
    case ProtocolCheck::ResponseStatus:
      return "response_status";
    case ProtocolCheck::PayloadReuse:
      return "payload_reuse";
    case ProtocolCheck::Data:
      return "data";
    case ProtocolCheck::ByteEnable:
      return "byte_enable";
    case ProtocolCheck::StreamingWidth:
      return "streaming_width";
    case ProtocolCheck::Dmi:
      return "dmi";
  }
  return "?";
}

// IEEE 1666-2011 14.11-14.15. The data and streaming-width rules hold for reads and writes only: an
// IGNORE command carries no data (our pool hands payloads out as IGNORE until a block sets a command).
void ProtocolChecker::check_attributes(const Payload& t, const char* call) {
  const std::string at = std::string(" (") + call + ")";
  if (!t.is_read() && !t.is_write()) return;
  if (t.get_data_length() == 0) violation(ProtocolCheck::Data, &t, "data length 0" + at);
  if (!t.get_data_ptr()) violation(ProtocolCheck::Data, &t, "no data pointer" + at);
  if (t.get_streaming_width() == 0) violation(ProtocolCheck::StreamingWidth, &t, "streaming width 0" + at);
  const bool has_be = t.get_byte_enable_ptr() != nullptr;
  if (has_be && t.get_byte_enable_length() == 0)
    violation(ProtocolCheck::ByteEnable, &t, "byte-enable pointer with length 0" + at);
  if (!has_be && t.get_byte_enable_length() != 0)
    violation(ProtocolCheck::ByteEnable, &t, "byte-enable length without a pointer" + at);
}

// A response must say how the transaction ended (14.17); and a target that granted DMI over an address
// must serve it through transport too (the initiator could reach the same bytes directly).
void ProtocolChecker::check_response(const Payload& t, const char* how) {
  const tlm::tlm_response_status s = t.get_response_status();
  if (s == tlm::TLM_INCOMPLETE_RESPONSE) {
    violation(ProtocolCheck::ResponseStatus, &t, std::string(how) + " with TLM_INCOMPLETE_RESPONSE");
  } else if (s == tlm::TLM_ADDRESS_ERROR_RESPONSE && !dmi_.empty() && in_granted_dmi(t.get_address())) {
    violation(ProtocolCheck::Dmi, &t, std::string(how) + ": address error inside a granted DMI range");
  }
}

// 11.2.8: the granted range includes the address asked for and comes with a pointer; a refusal may
// still name the range it covers, but never an inverted one.
void ProtocolChecker::check_dmi_grant(const Payload& t, const tlm::tlm_dmi& dmi, bool granted) {
  const uint64_t start = dmi.get_start_address(), end = dmi.get_end_address();
  std::ostringstream range;
  range << std::hex << " [0x" << start << ", 0x" << end << "]";
  if (start > end) {
    violation(ProtocolCheck::Dmi, &t, "DMI range with start > end" + range.str());
    return;
  }
  if (!granted) return;
  bool ok = true;
  if (!dmi.get_dmi_ptr()) {
    violation(ProtocolCheck::Dmi, &t, "DMI granted without a pointer" + range.str());
    ok = false;
  }
  if (t.get_address() < start || t.get_address() > end) {
    violation(ProtocolCheck::Dmi, &t, "DMI granted over a range that misses the address" + range.str());
    ok = false;
  }
  if (!ok) return;
  dmi_.push_back({start, end});
  ++*dmi_grants_;
}

bool ProtocolChecker::in_granted_dmi(uint64_t addr) const {
  for (const DmiRange& r : dmi_)
    if (addr >= r.start && addr <= r.end) return true;
  return false;
}

void ProtocolChecker::violation(ProtocolCheck c, const Payload* t, const std::string& what) {
  ++*total_;
  ++*count_[size_t(c)];
  if (messages_.size() >= p_.max_messages && !p_.throw_on_violation) return;  // counted; text not kept
  std::ostringstream os;
  os << p_.link << ": " << to_string(c) << ": " << what << " (";
  if (t) os << "address 0x" << std::hex << t->get_address() << std::dec << ", ";
  os << "at " << sc_core::sc_time_stamp() << ")";
  if (messages_.size() < p_.max_messages) messages_.push_back(os.str());
  if (p_.throw_on_violation) throw std::logic_error(os.str());
}

}  // namespace gms
