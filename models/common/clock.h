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
    period_ = ps(period_ps_);
  }
  uint64_t period_ps() const { return period_ps_; }
  const sc_core::sc_time& period() const { return period_; }
  static uint64_t now_ps() {
    // The inline accessor: sc_time_stamp() is an out-of-line library call, and blocks ask often.
    const uint64_t v = sc_core::sc_get_curr_simcontext()->time_stamp().value(), t = ps_ticks();
    return t == 1 ? v : v / t;  // 1 ps resolution (the default): no division
  }
  // The cycle in progress now (edges at multiples of the period).
  uint64_t cycle() const { return now_ps() / period_ps_; }
  // First edge at or after now.
  uint64_t next_edge_cycle() const { return (now_ps() + period_ps_ - 1) / period_ps_; }
  // Absolute time of the edge starting cycle c.
  uint64_t edge_ps(uint64_t c) const { return c * period_ps_; }
  // Delay from now to the edge starting cycle c (zero if already past).
  sc_core::sc_time until(uint64_t c) const {
    uint64_t t = c * period_ps_, n = now_ps();
    return t > n ? ps(t - n) : sc_core::SC_ZERO_TIME;
  }
  sc_core::sc_time cycles(uint64_t n) const { return ps(n * period_ps_); }
  // A duration of whole picoseconds; from_value avoids sc_time's floating-point constructor (hot path).
  static sc_core::sc_time ps(uint64_t n) { return sc_core::sc_time::from_value(n * ps_ticks()); }

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
