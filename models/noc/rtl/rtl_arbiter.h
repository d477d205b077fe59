// The transactor of the Verilated round-robin arbiter (rr_arbiter.sv, noc.arbiter: rtl): implements the
// Arbiter interface by driving the model's pins, so the crossbar runs its switch allocation in RTL.
//
// The model is clocked by the free-running sc_clock of an RtlClock (the NoC clock's period, rising edge in
// the middle of each NoC cycle) and reset by it. grant(), called at a NoC cycle edge, writes the request
// matrix, the order of service and `valid`, waits two delta cycles (the model evaluates in the first, its
// outputs update at its end) and reads the grants: no simulated time passes. Half a cycle later the rising
// edge moves the pointers of the outputs that granted, and the transactor's edge method lowers `valid` in
// that edge's delta (the registers sample the old value), so an edge without an arbitration moves nothing.
// The next grant() comes at a later cycle edge, after that edge: it sees the pointers the C++
// RoundRobinArbiter would have. grant() waits with sc_core::wait, so it runs in a thread process; the
// system's WakeScheduler runs the whole batch of blocks from a thread then, and no other block runs in
// between: simulated time, the order of everything and so every statistic are those of the C++ arbiter
// (docs/cosim.md).
//
// Reset: the clock's first rising edge (half a cycle in) resets the pointers. A grant() before that waits for
// the reset to end and arbitrates at the first cycle edge after it (simulated time passes, which the C++
// arbiter never does; the crossbar never arbitrates before its cycle 1, so in a system it does not happen).
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
  // Elaboration only: a SystemC module named site.name, a child of the module being built, clocked and reset
  // by *site.clock (std::invalid_argument when null). Its public Verilog signals go to site.tf under
  // site.scope. ConfigError if the kernel's time resolution is not the Verilog time precision (1 ps).
  explicit RtlArbiter(const ArbiterSite& site);
  ~RtlArbiter() override;
  void grant(std::vector<SwitchRequest>& grants) override;
  bool waits() const override { return true; }
  // Arbitrations the registers took: rising edges with `valid` high.
  uint64_t commits() const;

 private:
  void on_resize() override;  // ConfigError beyond capacity()
  void drive_inputs();
  void read_grants(std::vector<SwitchRequest>& grants);

  struct Pins;  // the Verilated model, its signals and the edge method (rtl_arbiter.cpp)
  std::unique_ptr<Pins> pins_;
  std::vector<uint32_t> req_words_;    // the request matrix, 32 bits a word: bit o * capacity() + i
  std::vector<uint32_t> order_words_;  // field k: the output served k-th
  std::vector<uint32_t> req_set_;      // words of req_words_ set in the last cycle (cleared in the next)
  std::vector<uint32_t> order_;        // outputs in order of service
  std::vector<char> listed_;           // per output: already in order_
};

}  // namespace gms
