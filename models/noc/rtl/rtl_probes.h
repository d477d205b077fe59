// Traces a Verilated model's public signals (those its Verilog marks /*verilator public_flat_rd*/) into the
// run's VCD, beside the TLM-level probes: one variable per signal, per element of an unpacked array
// ("ptr_q(3)") and per 64 bits of a wider vector ("req(127:64)"). Found by name through Verilator's scope
// table, so a block's Verilog decides what its waveform shows; sample() records the values at the current
// simulation time (the transactor calls it once the model has settled).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gms {

class VcdWriter;

class RtlProbes {
 public:
  // Declares the public signals of the Verilated scope `verilated_scope` ("<SystemC name of the model>.
  // <Verilog module>") under `vcd_scope`. Elaboration, after the model is constructed; vcd null: no-op.
  void attach(VcdWriter* vcd, const std::string& vcd_scope, const std::string& verilated_scope);
  bool on() const { return vcd_ != nullptr; }
  void sample() const;

 private:
  struct Var {
    const unsigned char* data;  // little-endian storage of the value (a Verilator CData .. QData or words)
    unsigned bytes;             // 1 .. 8 bytes read from data
    unsigned width;             // bits
    uint32_t id;                // VCD variable
  };
  VcdWriter* vcd_ = nullptr;
  std::vector<Var> vars_;
};

}  // namespace gms
