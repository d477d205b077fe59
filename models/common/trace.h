// Opt-in VCD tracing. The CLI's --vcd FILE --trace 'l1*,dram*' builds one TraceSelector; each block asks
// it in its constructor whether its name is selected and, only then, creates its few probe signals.
// Untraced blocks hold null probes, so an untraced run pays one pointer test per update.
#pragma once
#include <systemc>

#include <memory>
#include <string>
#include <vector>

namespace gms {

class TraceSelector {
 public:
  TraceSelector() = default;  // nothing traced
  TraceSelector(const std::string& vcd_path, const std::vector<std::string>& globs);
  ~TraceSelector();
  TraceSelector(const TraceSelector&) = delete;
  TraceSelector& operator=(const TraceSelector&) = delete;

  bool enabled() const { return file_ != nullptr; }
  bool matches(const std::string& block_name) const;
  // The trace file if block_name is selected, else nullptr.
  sc_core::sc_trace_file* file_for(const std::string& block_name) const;
  // Splits "a*,b*" into globs.
  static std::vector<std::string> split_globs(const std::string& s);

 private:
  sc_core::sc_trace_file* file_ = nullptr;
  std::vector<std::string> globs_;
};

// One traced value of a block: a signal that exists only when the block is selected.
// Unchecked writers: nb_transport calls run in the caller's process, so two processes may write a
// probe in one delta; the last write wins, which is what a waveform of a block-level value wants.
template <class T>
class Probe {
 public:
  void attach(sc_core::sc_trace_file* tf, const std::string& block, const std::string& name) {
    if (!tf) return;
    sig_ =
        std::make_unique<sc_core::sc_signal<T, sc_core::SC_UNCHECKED_WRITERS>>((block + "_" + name).c_str());
    sc_core::sc_trace(tf, *sig_, block + "." + name);
  }
  bool on() const { return sig_ != nullptr; }
  void set(const T& v) {
    if (sig_) sig_->write(v);
  }

 private:
  std::unique_ptr<sc_core::sc_signal<T, sc_core::SC_UNCHECKED_WRITERS>> sig_;
};

}  // namespace gms
