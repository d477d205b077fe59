// A scripted host-side (CPU-like) initiator for GpuMemSys tests: one thread runs the script, with helpers
// for b_transport, transport_dbg and DMI, and a count of the DMI invalidations it received.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <systemc>

#include <cstdint>
#include <functional>
#include <vector>

namespace gms::test {

class HostInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostInitiator> sock;

  HostInitiator(sc_core::sc_module_name name, std::function<void(HostInitiator&)> script);

  // b_transport of `len` bytes; the delay accumulates in `delay` (the caller's local time offset).
  tlm::tlm_response_status transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len,
                                     sc_core::sc_time& delay);
  std::vector<uint8_t> read(uint64_t addr, unsigned len, sc_core::sc_time& delay);
  void write(uint64_t addr, const std::vector<uint8_t>& bytes, sc_core::sc_time& delay);
  // transport_dbg; returns the bytes served.
  unsigned debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
  // get_direct_mem_ptr for addr.
  bool dmi(uint64_t addr, tlm::tlm_dmi& out);

  unsigned invalidations = 0;  // invalidate_direct_mem_ptr calls received
  bool finished = false;       // the script ran to its end

 private:
  void run();
  void invalidate(sc_dt::uint64, sc_dt::uint64) { ++invalidations; }
  std::function<void(HostInitiator&)> script_;
};

}  // namespace gms::test
