#include "host_cpu.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

HostCpu::HostCpu(sc_core::sc_module_name name, gms::GpuMemSys& gpu, uint64_t input, uint64_t output,
                 uint32_t lines)
    : sc_core::sc_module(name),
      sock("sock"),
      gpu_(gpu),
      input_(input),
      output_(output),
      lines_(lines),
      bytes_(lines * 128),
      stream_("stream", input, output, lines),
      reload_("reload", input, output, lines, false) {
  sock.register_invalidate_direct_mem_ptr(this, &HostCpu::invalidate_direct_mem_ptr);
  SC_HAS_PROCESS(HostCpu);
  SC_THREAD(run);
}

void HostCpu::run() {
  qk_.reset();
  // 1. The driver fills the input buffer with loosely-timed stores, running ahead of simulated time by up
  //    to one quantum, then synchronises before it starts the GPU.
  write_inputs();
  // 2. The GPU streams input to output, approximately timed; a debugger peeks while it runs.
  launch_and_wait(stream_, stream_log_);
  // 3. What the GPU read is what the host wrote; what it stored reads back three ways.
  check_gpu_read_inputs(stream_log_, 0);
  check_outputs_lt(stream_log_);
  check_outputs_debug(stream_log_);
  check_outputs_dmi(stream_log_);
  // 4. The host rewrites the input through DMI pointers; the next launch revokes them and reads the bytes.
  write_inputs_dmi(1);
  const unsigned before = invalidations_;
  launch_and_wait(reload_, reload_log_);
  check(invalidations_ > before && !dmi_valid_, "DMI pointers revoked when the launch started");
  check_gpu_read_inputs(reload_log_, 1);
  qk_.sync();
  finished_ = true;
  std::printf("vp_example: %s at %s (%u check failures)\n", passed() ? "PASS" : "FAIL",
              sc_core::sc_time_stamp().to_string().c_str(), failures_);
}

void HostCpu::write_inputs() {
  for (unsigned i = 0; i < bytes_; i += 8) {  // 8-byte CPU stores
    uint8_t word[8];
    for (unsigned k = 0; k < 8; ++k) word[k] = input_byte(i + k, 0);
    transport(tlm::TLM_WRITE_COMMAND, input_ + i, word, 8);
  }
  std::printf("vp_example: host wrote %u B with b_transport, local time %s ahead of %s\n", bytes_,
              qk_.get_local_time().to_string().c_str(), sc_core::sc_time_stamp().to_string().c_str());
  qk_.sync();
}

void HostCpu::launch_and_wait(VectorKernel& kernel, AccessLog& log) {
  qk_.sync();  // the GPU starts at the host's time
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  gpu_.launch(
      kernel, [this] { gpu_done_.notify(sc_core::SC_ZERO_TIME); }, &log);
  // A debugger's peek while the kernel runs: the memory as of now (no timing, no state change).
  sc_core::wait(sc_core::sc_time(100, sc_core::SC_NS));
  uint8_t peek[8] = {};
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_READ_COMMAND);
  t.set_address(output_);
  t.set_data_ptr(peek);
  t.set_data_length(8);
  t.set_streaming_width(8);
  const unsigned got = sock->transport_dbg(t);
  std::printf("vp_example: kernel '%s' running (busy %d), debugger peek at 0x%llx: %u B, first byte 0x%02x\n",
              kernel.name().c_str(), int(gpu_.busy()), (unsigned long long)output_, got, peek[0]);
  if (gpu_.busy()) sc_core::wait(gpu_done_);
  check(!gpu_.busy() && log.kernels == 1, "kernel '" + kernel.name() + "' finished");
  std::printf("vp_example: kernel '%s' done after %s (caches written back)\n", kernel.name().c_str(),
              (sc_core::sc_time_stamp() - start).to_string().c_str());
}

void HostCpu::check_gpu_read_inputs(const AccessLog& log, unsigned round) {
  unsigned wrong = 0;
  for (unsigned i = 0; i < bytes_; ++i) {
    auto it = log.loaded.find(input_ + i);
    wrong += it == log.loaded.end() || it->second != input_byte(i, round);
  }
  check(wrong == 0, "GPU loads returned the host's input (" + std::to_string(wrong) + " wrong bytes)");
}

void HostCpu::check_outputs_lt(const AccessLog& log) {
  std::vector<uint8_t> out(bytes_);
  for (unsigned i = 0; i < bytes_; i += 64) transport(tlm::TLM_READ_COMMAND, output_ + i, out.data() + i, 64);
  unsigned wrong = 0;
  for (unsigned i = 0; i < bytes_; ++i) wrong += out[i] != log.stored.at(output_ + i);
  check(log.stored.size() == bytes_ && wrong == 0,
        "b_transport reads what the GPU stored (" + std::to_string(wrong) + " wrong bytes)");
}

void HostCpu::check_outputs_debug(const AccessLog& log) {
  std::vector<uint8_t> out(bytes_);
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_READ_COMMAND);
  t.set_address(output_);
  t.set_data_ptr(out.data());
  t.set_data_length(bytes_);
  t.set_streaming_width(bytes_);
  const unsigned got = sock->transport_dbg(t);
  unsigned wrong = 0;
  for (unsigned i = 0; i < bytes_; ++i) wrong += out[i] != log.stored.at(output_ + i);
  check(got == bytes_ && wrong == 0, "transport_dbg reads what the GPU stored");
}

void HostCpu::check_outputs_dmi(const AccessLog& log) {
  std::vector<uint8_t> out(bytes_);
  for (unsigned i = 0; i < bytes_;) {  // region by region (one backing-store page each)
    const unsigned char* p = dmi_pointer(output_ + i);
    if (!p) break;
    const unsigned n = unsigned(std::min<uint64_t>(bytes_ - i, dmi_.get_end_address() - (output_ + i) + 1));
    std::memcpy(out.data() + i, p, n);
    qk_.inc(dmi_.get_read_latency() * double(n / 8));  // as 8-byte CPU loads
    i += n;
  }
  if (qk_.need_sync()) qk_.sync();
  unsigned wrong = 0;
  for (unsigned i = 0; i < bytes_; ++i) wrong += out[i] != log.stored.at(output_ + i);
  check(dmi_valid_ && wrong == 0,
        "DMI reads what the GPU stored (" + std::to_string(wrong) + " wrong bytes)");
}

void HostCpu::write_inputs_dmi(unsigned round) {
  std::vector<uint8_t> in(bytes_);
  for (unsigned i = 0; i < bytes_; ++i) in[i] = input_byte(i, round);
  for (unsigned i = 0; i < bytes_;) {
    unsigned char* p = dmi_pointer(input_ + i);
    if (!p) break;
    const unsigned n = unsigned(std::min<uint64_t>(bytes_ - i, dmi_.get_end_address() - (input_ + i) + 1));
    std::memcpy(p, in.data() + i, n);
    qk_.inc(dmi_.get_write_latency() * double(n / 8));
    i += n;
  }
  check(dmi_valid_, "DMI granted over the input between launches");
}

void HostCpu::transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len) {
  tlm::tlm_generic_payload t;
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(data);
  t.set_data_length(len);
  t.set_streaming_width(len);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = qk_.get_local_time();
  sock->b_transport(t, delay);
  qk_.set(delay);
  check(t.is_response_ok(), "b_transport at 0x" + std::to_string(addr) + ": " + t.get_response_string());
  if (qk_.need_sync()) qk_.sync();
}

unsigned char* HostCpu::dmi_pointer(uint64_t addr) {
  if (!dmi_valid_ || addr < dmi_.get_start_address() || addr > dmi_.get_end_address()) {
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(addr);
    dmi_.init();
    dmi_valid_ = sock->get_direct_mem_ptr(t, dmi_) && dmi_.is_read_write_allowed();
    if (!dmi_valid_) return nullptr;
  }
  return dmi_.get_dmi_ptr() + (addr - dmi_.get_start_address());
}

void HostCpu::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  ++invalidations_;
  if (dmi_valid_ && start <= dmi_.get_end_address() && end >= dmi_.get_start_address()) dmi_valid_ = false;
}

void HostCpu::check(bool ok, const std::string& what) {
  if (ok) return;
  ++failures_;
  std::printf("vp_example: check failed: %s\n", what.c_str());
}
