// NoC energy (docs/blocks/noc.md "Energy"): Orion-style per-event energies times the activity the routers
// and links count, plus leakage of every router that is not power-gated. The coefficients are per bit so
// that channel width (flit_bytes) scales them, and the crossbar's per-flit energy grows with its radix (a
// matrix crossbar drives wires across all its ports), which is what makes a low-radix H-Xbar cheaper than
// a 64-port crossbar (paper 004 Figure 7c). Defaults and their sources are in noc_energy.cpp.
#pragma once
#include <cstdint>

#include "models/common/config.h"
#include "models/noc/router/router_stats.h"

namespace gms {

struct EnergyParams {
  double wire_pj_per_bit_mm = 0.15;        // a repeated global wire, per bit per mm
  double buffer_write_pj_per_bit = 0.05;   // input-buffer (register-file FIFO) write
  double buffer_read_pj_per_bit = 0.04;    // input-buffer read
  double crossbar_pj_per_bit_port = 0.01;  // a traversal, per bit, per port its row and column span
  double allocator_pj = 0.2;               // one VC- or switch-allocator request
  double bypass_pj_per_bit = 0.01;         // a flit through a gated MC-router's bypass latch and mux
  double buffer_leak_nw_per_bit = 20.0;    // leakage per input-buffer bit
  double crossbar_leak_nw_per_bit = 2.0;   // leakage per crosspoint bit (inputs x outputs x flit bits)
  double short_link_mm = 1.0;              // SM <-> SM-router, slice <-> MC-router (H-Xbar)
  double long_link_mm = 12.3;              // SM-router <-> MC-router; SM -> crossbar -> slice in total

  static EnergyParams from(const ConfigNode& n);
};

// The per-event energies of a network with `flit_bits`-bit channels, in pJ; static power in mW.
class NocEnergyModel {
 public:
  NocEnergyModel(const EnergyParams& p, uint32_t flit_bits) : p_(p), bits_(flit_bits) {}

  double buffer_pj(const RouterActivity& a) const {
    return (double(a.buffer_writes) * p_.buffer_write_pj_per_bit +
            double(a.buffer_reads) * p_.buffer_read_pj_per_bit) *
           bits_;
  }
  // A traversal drives an input row across all outputs and an output column across all inputs.
  double crossbar_pj(const RouterActivity& a, uint32_t inputs, uint32_t outputs) const {
    return double(a.crossbar) * bits_ * double(inputs + outputs) * p_.crossbar_pj_per_bit_port;
  }
  double allocator_pj(const RouterActivity& a) const { return double(a.va_ops + a.sa_ops) * p_.allocator_pj; }
  double bypass_pj(const RouterActivity& a) const {
    return double(a.bypassed) * p_.bypass_pj_per_bit * bits_;
  }
  double link_pj(uint64_t flits, double mm) const {
    return double(flits) * bits_ * p_.wire_pj_per_bit_mm * mm;
  }
  // Leakage of a powered router: its input buffers and its crosspoints.
  double leakage_mw(uint32_t inputs, uint32_t outputs, uint32_t vcs, uint32_t depth) const {
    const double buffer_bits = double(inputs) * vcs * depth * bits_;
    const double crosspoint_bits = double(inputs) * outputs * bits_;
    return (buffer_bits * p_.buffer_leak_nw_per_bit + crosspoint_bits * p_.crossbar_leak_nw_per_bit) * 1e-6;
  }

 private:
  EnergyParams p_;
  uint32_t bits_;
};

}  // namespace gms
