#include "tests/vp/host_initiator.h"

namespace gms::test {

namespace {

// A payload over the caller's buffer (one streaming width: the whole access).
void describe(tlm::tlm_generic_payload& t, tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(len);
  t.set_streaming_width(len);
}

}  // namespace

HostInitiator::HostInitiator(sc_core::sc_module_name name, std::function<void(HostInitiator&)> script)
    : sc_core::sc_module(name), sock("sock"), script_(std::move(script)) {
  sock.register_invalidate_direct_mem_ptr(this, &HostInitiator::invalidate);
  SC_HAS_PROCESS(HostInitiator);
  SC_THREAD(run);
}

void HostInitiator::run() {
  script_(*this);
  finished = true;
}

tlm::tlm_response_status HostInitiator::transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data,
                                                  unsigned len, sc_core::sc_time& delay) {
  tlm::tlm_generic_payload t;
  describe(t, cmd, addr, data, len);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sock->b_transport(t, delay);
  return t.get_response_status();
}

std::vector<uint8_t> HostInitiator::read(uint64_t addr, unsigned len, sc_core::sc_time& delay) {
  std::vector<uint8_t> v(len);
  if (transport(tlm::TLM_READ_COMMAND, addr, v.data(), len, delay) != tlm::TLM_OK_RESPONSE) v.clear();
  return v;
}

void HostInitiator::write(uint64_t addr, const std::vector<uint8_t>& bytes, sc_core::sc_time& delay) {
  std::vector<uint8_t> v = bytes;
  transport(tlm::TLM_WRITE_COMMAND, addr, v.data(), unsigned(v.size()), delay);
}

unsigned HostInitiator::debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
  tlm::tlm_generic_payload t;
  describe(t, cmd, addr, data, len);
  return sock->transport_dbg(t);
}

bool HostInitiator::dmi(uint64_t addr, tlm::tlm_dmi& out) {
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_READ_COMMAND);
  t.set_address(addr);
  out.init();
  return sock->get_direct_mem_ptr(t, out);
}

}  // namespace gms::test
