// Opt-in VCD tracing. The CLI's --vcd FILE --trace 'l1*,dram*' builds one TraceSelector; each block asks
// it in its constructor whether its name is selected and, only then, declares its few probes in the VCD.
// Untraced blocks hold null probes, so an untraced run pays one pointer test per update; a traced change
// is recorded at the current simulation time by our own VcdWriter (no sc_signal, no SystemC trace file).
#pragma once
#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "models/common/vcd_writer.h"

namespace gms {

class TraceSelector {
 public:
  TraceSelector() = default;  // nothing traced
  // Writes exactly `vcd_path` (no extension added); ConfigError naming it if it cannot be opened.
  TraceSelector(const std::string& vcd_path, const std::vector<std::string>& globs);
  // Only the simulated-time window [from_ps, to_ps] is written (VcdWriter::set_window).
  void set_window_ps(uint64_t from_ps, uint64_t to_ps);
  ~TraceSelector();  // without close() (an error path) the VCD is discarded, an older file kept
  TraceSelector(const TraceSelector&) = delete;
  TraceSelector& operator=(const TraceSelector&) = delete;

  bool enabled() const { return vcd_ != nullptr; }
  bool matches(const std::string& block_name) const;
  // The VCD if block_name is selected, else nullptr. Remembers every block that asked.
  VcdWriter* file_for(const std::string& block_name) const;
  // After elaboration: ConfigError naming the first glob that selected none of the blocks that asked.
  void check_every_glob_matched() const;
  // Writes the values pending at `end` (default: the current simulation time; the last change traced if
  // later), closes the VCD and renames it over its path; OutputError naming the file if any write failed.
  void close();
  void close(const sc_core::sc_time& end);
  // Splits "a*,b*" into globs.
  static std::vector<std::string> split_globs(const std::string& s);

 private:
  std::unique_ptr<VcdWriter> vcd_;
  std::vector<std::string> globs_;
  mutable std::vector<std::string> blocks_;  // the blocks that asked (for the error message)
};

// One traced value of a block (an unsigned integer or a bool), declared only when the block is selected.
// nb_transport calls run in the caller's process, so two processes may set a probe in one instant; the
// last set wins, which is what a waveform of a block-level value wants.
template <class T>
class Probe {
  static_assert(std::is_same_v<T, bool> || (std::is_integral_v<T> && std::is_unsigned_v<T>),
                "a Probe traces an unsigned integer or a bool");

 public:
  void attach(VcdWriter* vcd, const std::string& block, const std::string& name) {
    if (!vcd) return;
    vcd_ = vcd;
    id_ = vcd->declare(block, name, std::is_same_v<T, bool> ? 1u : unsigned(8 * sizeof(T)));
  }
  bool on() const { return vcd_ != nullptr; }
  void set(const T& v) {
    if (vcd_) vcd_->set(id_, uint64_t(v), sc_core::sc_time_stamp().value());
  }
  // A bool probe marking an event: 1 now, back to 0 after `width`.
  void pulse(const sc_core::sc_time& width) {
    static_assert(std::is_same_v<T, bool>, "a bool probe pulses 1; others pulse a value");
    if (vcd_) vcd_->pulse(id_, sc_core::sc_time_stamp().value(), width.value());
  }
  // An event with a value (a bus cycle: a DRAM command): v now, back to 0 after `width`.
  void pulse(const T& v, const sc_core::sc_time& width) {
    if (vcd_) vcd_->pulse(id_, sc_core::sc_time_stamp().value(), width.value(), uint64_t(v));
  }

 private:
  VcdWriter* vcd_ = nullptr;
  uint32_t id_ = 0;
};

}  // namespace gms
