#include "models/noc/rtl/rtl_clock.h"

#include <stdexcept>

#include "models/common/clock.h"
#include "models/common/vcd_writer.h"

namespace gms {

namespace {

uint64_t checked_period(uint64_t period_ps) {
  if (period_ps < 2)
    throw std::invalid_argument("RTL clock: a period of " + std::to_string(period_ps) +
                                " ps has no mid-cycle instant for the rising edge");
  return period_ps;
}

}  // namespace

RtlClock::RtlClock(sc_core::sc_module_name name, uint64_t period_ps, VcdWriter* tf, const std::string& scope)
    : sc_module(name),
      period_ps_(checked_period(period_ps)),
      phase_ps_(period_ps / 2),
      // High from the rising edge to the next cycle edge: the falling edge is at the cycle edge (harmless:
      // the blocks use the rising edge only).
      clk_("clk", Clock::ps(period_ps), double(period_ps - phase_ps_) / double(period_ps),
           Clock::ps(phase_ps_), true),
      rst_("rst", true),
      tf_(tf) {
  SC_HAS_PROCESS(RtlClock);
  SC_THREAD(reset_sequence);
  if (tf_) {
    clk_id_ = tf_->declare(scope, "clk", 1);
    rst_id_ = tf_->declare(scope, "rst", 1);
    SC_METHOD(trace_edge);
    sensitive << clk_.posedge_event();
    dont_initialize();
  }
}

void RtlClock::start_of_simulation() {
  if (tf_) tf_->set(rst_id_, 1, sc_core::sc_time_stamp().value());
}

void RtlClock::reset_sequence() {
  for (unsigned k = 0; k < kResetEdges; ++k) wait(clk_.posedge_event());
  // Written in the delta of the last reset edge: the registers sample rst still high at that edge.
  rst_.write(false);
  in_reset_ = false;
  reset_done_.notify(sc_core::SC_ZERO_TIME);
  if (tf_) tf_->set(rst_id_, 0, sc_core::sc_time_stamp().value());
}

void RtlClock::trace_edge() {
  tf_->pulse(clk_id_, sc_core::sc_time_stamp().value(), Clock::ps(period_ps_ - phase_ps_).value());
}

}  // namespace gms
