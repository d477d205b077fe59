// A block's clock: cycle arithmetic for event-driven blocks (no clocked processes). A block with work
// notifies its event at the next cycle edge it needs; an idle block notifies nothing.
#pragma once
#include <systemc>

#include <cmath>
#include <cstdint>

namespace gms {

class Clock {
 public:
  explicit Clock(double mhz = 1000.0) { set_mhz(mhz); }
  void set_mhz(double mhz) {
    period_ps_ = uint64_t(std::llround(1e6 / mhz));
    if (period_ps_ == 0) period_ps_ = 1;
    period_ = sc_core::sc_time(double(period_ps_), sc_core::SC_PS);
  }
  uint64_t period_ps() const { return period_ps_; }
  const sc_core::sc_time& period() const { return period_; }
  static uint64_t now_ps() { return sc_core::sc_time_stamp().value() / ps_ticks(); }
  // The cycle in progress now (edges at multiples of the period).
  uint64_t cycle() const { return now_ps() / period_ps_; }
  // First edge at or after now.
  uint64_t next_edge_cycle() const { return (now_ps() + period_ps_ - 1) / period_ps_; }
  // Delay from now to the edge starting cycle c (zero if already past).
  sc_core::sc_time until(uint64_t c) const {
    uint64_t t = c * period_ps_, n = now_ps();
    return t > n ? sc_core::sc_time(double(t - n), sc_core::SC_PS) : sc_core::SC_ZERO_TIME;
  }
  sc_core::sc_time cycles(uint64_t n) const {
    return sc_core::sc_time(double(n * period_ps_), sc_core::SC_PS);
  }

 private:
  // sc_time values are in units of the time resolution; 1 ps is the SystemC default.
  static uint64_t ps_ticks() {
    static const uint64_t t = sc_core::sc_time(1, sc_core::SC_PS).value();
    return t ? t : 1;
  }
  uint64_t period_ps_ = 1000;
  sc_core::sc_time period_;
};

}  // namespace gms
