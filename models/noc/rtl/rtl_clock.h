// The clock and reset of the RTL blocks of one clock domain (noc.arbiter: rtl, docs/cosim.md "Clock"): a
// free-running sc_core::sc_clock with the domain's period whose rising edge falls in the middle of each
// cycle, and a synchronous, active-high reset held for the first reset_edges() rising edges.
//
// The blocks of the model (the crossbar among them) run at the domain's cycle edges, multiples of the period
// from time 0; an RTL block's transactor drives its inputs there and the block's registers take them at the
// rising edge half a cycle later, so a transactor's inputs and the edge never meet in one instant. The first
// rising edge (period / 2) both resets the registers and ends the reset: from the edge of cycle 1 on, every
// block is out of reset, and the crossbar never arbitrates before cycle 1.
//
// A free-running clock keeps the kernel busy whether or not the model has work: the owner of the simulation
// tells the two apart through WakeScheduler::add_background_clock() (NetworkInterconnect registers this one).
//
// Traced (a VCD given: the block name "<interconnect>_rtl_clk" selected by --trace): `clk` pulses at every
// rising edge and `rst` shows the reset, under that scope. Untraced, no process of its own runs per edge.
// Plain SystemC: compiled in every build (noc.arbiter: rtl itself needs Verilator).
#pragma once
#include <systemc>

#include <cstdint>
#include <string>

namespace gms {

class VcdWriter;

class RtlClock : public sc_core::sc_module {
 public:
  // Elaboration only. period_ps: the domain's cycle (at least 2 ps, else std::invalid_argument: the rising
  // edge must fall strictly inside a cycle).
  RtlClock(sc_core::sc_module_name name, uint64_t period_ps, VcdWriter* tf = nullptr,
           const std::string& scope = "");

  static constexpr unsigned reset_edges() { return kResetEdges; }
  uint64_t period_ps() const { return period_ps_; }
  // Offset of each rising edge in its cycle: period / 2 (rounded down).
  uint64_t phase_ps() const { return phase_ps_; }
  // True at the time of a rising edge (a multiple of the period, plus the phase).
  bool at_rising_edge(uint64_t t_ps) const { return t_ps % period_ps_ == phase_ps_; }
  // The start of the first cycle after t_ps (a cycle edge: a multiple of the period).
  uint64_t next_cycle_ps(uint64_t t_ps) const { return (t_ps / period_ps_ + 1) * period_ps_; }

  const sc_core::sc_clock& clk() const { return clk_; }
  const sc_core::sc_signal<bool>& rst() const { return rst_; }
  bool in_reset() const { return in_reset_; }
  // Notified (delta) when the reset has ended.
  const sc_core::sc_event& reset_done_event() const { return reset_done_; }

 private:
  static constexpr unsigned kResetEdges = 1;
  void reset_sequence();  // thread: rst high for kResetEdges rising edges, then released
  void trace_edge();      // traced only: pulses `clk` at each rising edge
  void start_of_simulation() override;

  uint64_t period_ps_, phase_ps_;
  sc_core::sc_clock clk_;
  sc_core::sc_signal<bool> rst_;
  sc_core::sc_event reset_done_;
  bool in_reset_ = true;
  VcdWriter* tf_ = nullptr;
  uint32_t clk_id_ = 0, rst_id_ = 0;
};

}  // namespace gms
