// The transactor of the Verilated round-robin arbiter (rr_arbiter.sv, noc.arbiter: rtl): implements the
// Arbiter interface by driving the model's pins, so the crossbar runs its switch allocation in RTL.
//
// grant() writes the request matrix and the order of service, waits two delta cycles (the model evaluates
// in the first, its outputs update at its end), reads the grants and raises the clock: the edge moves the
// pointers of the outputs that granted. It waits with sc_core::wait, so it runs in a thread process; the
// system's WakeScheduler runs the whole batch of blocks from a thread then, and no other block runs in
// between: simulated time, the order of everything and so every statistic are those of the C++
// RoundRobinArbiter. The clock is gated: it pulses only in cycles with a request (docs/cosim.md, "Clock").
//
// Reset: asserted from the start, two clock pulses in the first delta cycles of time 0, then released; a
// grant() called before that waits for it (delta cycles, no simulated time).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "models/noc/arbiter.h"

namespace gms {

class RtlArbiter final : public Arbiter {
 public:
  // The Verilated model's inputs and outputs (GMS_RTL_ARBITER_PORTS, a CMake cache variable).
  static unsigned capacity();
  // Elaboration only: a SystemC module named site.name, a child of the module being built. Its public
  // Verilog signals go to site.tf under site.scope. ConfigError if the kernel's time resolution is not the
  // Verilog time precision (1 ps).
  explicit RtlArbiter(const ArbiterSite& site);
  ~RtlArbiter() override;
  void grant(std::vector<SwitchRequest>& grants) override;
  bool waits() const override { return true; }
  // Clock edges the model has seen (reset pulses included).
  uint64_t clock_edges() const;

 private:
  void on_resize() override;  // ConfigError beyond capacity()
  void drive_inputs();
  void read_grants(std::vector<SwitchRequest>& grants);

  struct Pins;  // the Verilated model, its signals and the reset process (rtl_arbiter.cpp)
  std::unique_ptr<Pins> pins_;
  std::vector<uint32_t> req_words_;    // the request matrix, 32 bits a word: bit o * capacity() + i
  std::vector<uint32_t> order_words_;  // field k: the output served k-th
  std::vector<uint32_t> req_set_;      // words of req_words_ set in the last cycle (cleared in the next)
  std::vector<uint32_t> order_;        // outputs in order of service
  std::vector<char> listed_;           // per output: already in order_
};

}  // namespace gms
