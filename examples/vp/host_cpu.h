// The CPU side of the example platform: a loosely-timed initiator with a quantum keeper (temporal
// decoupling) that drives the GPU memory system like a driver and a debugger would, and checks every
// result (docs/vp-integration.md walks through it).
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include "models/system/gpu_mem_sys.h"
#include "vector_kernel.h"

class HostCpu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostCpu> sock;

  // Streams `lines` 128 B lines from `input` to `output` on `gpu` (launches go through its C++ API, as a
  // platform's doorbell register model would call it).
  HostCpu(sc_core::sc_module_name name, gms::GpuMemSys& gpu, uint64_t input, uint64_t output, uint32_t lines);

  bool passed() const { return finished_ && failures_ == 0; }

 private:
  void run();  // the scenario (SC_THREAD)
  void write_inputs();
  void launch_and_wait(VectorKernel& kernel, AccessLog& log);
  void check_gpu_read_inputs(const AccessLog& log, unsigned round);
  void check_outputs_lt(const AccessLog& log);
  void check_outputs_debug(const AccessLog& log);
  void check_outputs_dmi(const AccessLog& log);
  void write_inputs_dmi(unsigned round);

  // Loosely-timed access of `len` bytes: the delay goes into the quantum keeper's local time.
  void transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len);
  // A DMI region covering addr (cached until the target invalidates it); nullptr when refused.
  unsigned char* dmi_pointer(uint64_t addr);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void check(bool ok, const std::string& what);
  static uint8_t input_byte(uint64_t i, unsigned round) { return uint8_t(i * 31 + 7 + round * 64); }

  gms::GpuMemSys& gpu_;
  const uint64_t input_, output_;
  const uint32_t lines_;
  const unsigned bytes_;
  tlm_utils::tlm_quantumkeeper qk_;
  sc_core::sc_event gpu_done_;
  tlm::tlm_dmi dmi_;
  bool dmi_valid_ = false;
  unsigned invalidations_ = 0;
  unsigned failures_ = 0;
  bool finished_ = false;
  VectorKernel stream_, reload_;
  AccessLog stream_log_, reload_log_;
};
