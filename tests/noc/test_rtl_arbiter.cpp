// The RTL arbiter's transactor (models/noc/rtl/) against the C++ RoundRobinArbiter: the same requests,
// issued in the same order, get identical grants (same pairs, same order) every cycle, over thousands of
// cycles of random request patterns, with inputs that request several outputs (so the order of service and
// the skipping of inputs already granted matter) and cycles without requests (whose rising edges must move
// no pointer). The model runs on a free-running RtlClock (1 ns, rising mid-cycle); the driver arbitrates at
// the cycle edges, as the crossbar does. A request issued at time 0, during reset, waits for the first cycle
// after it; a second arbitration in one clock cycle and one at a rising edge's time are refused. Each case
// elaborates once (its own process under ctest).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/vcd_writer.h"
#include "models/noc/arbiter.h"
#include "models/noc/rtl/rtl_arbiter.h"
#include "models/noc/rtl/rtl_clock.h"
#include "tests/config_error_of.h"

using gms::RoundRobinArbiter;
using gms::RtlArbiter;
using gms::RtlClock;
using gms::SwitchRequest;
using sc_core::sc_time;

namespace {

constexpr uint64_t kPeriodPs = 1000;  // the driver's NoC cycle

// Runs `body` in a thread process from the first delta cycle of time 0 (grant() waits: a thread calls it),
// then stops the simulation (the clock never lets the kernel starve).
struct Driver : sc_core::sc_module {
  std::function<void()> body;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(go); }
  void go() {
    body();
    sc_core::sc_stop();
  }
};

sc_time ps(uint64_t n) {
  return sc_time::from_value(n);  // the default resolution, 1 ps
}

std::string show(const std::vector<SwitchRequest>& g) {
  std::string s;
  for (const auto& x : g) s += "(" + std::to_string(x.input) + "->" + std::to_string(x.output) + ")";
  return s;
}

struct Pattern {
  unsigned inputs, outputs;
  double load;        // chance that an input requests in a cycle
  unsigned max_outs;  // outputs an input requests at most (several: order of service matters)
  double idle;        // chance of a cycle without any request (its rising edge must move no pointer)
};

// Random requests for `cycles` cycles, one NoC cycle (1 ns) apart from cycle 1 on (the first after reset, and
// the first the crossbar can arbitrate at); returns the cycles that had requests.
uint64_t compare_random(RtlArbiter& rtl, const Pattern& p, uint64_t cycles, uint32_t seed) {
  RoundRobinArbiter ref;
  ref.resize(p.inputs, p.outputs);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<SwitchRequest> reqs, got, want;
  uint64_t busy = 0, granted = 0;
  sc_core::wait(ps(kPeriodPs));
  for (uint64_t c = 0; c < cycles; ++c) {
    reqs.clear();
    if (u(rng) >= p.idle) {
      for (unsigned i = 0; i < p.inputs; ++i) {
        if (u(rng) >= p.load) continue;
        const unsigned n = 1 + rng() % p.max_outs;
        for (unsigned k = 0; k < n; ++k) reqs.push_back({i, uint32_t(rng() % p.outputs)});
      }
      std::shuffle(reqs.begin(), reqs.end(), rng);  // the order of first request varies
    }
    ref.allocate(reqs, want);
    const sc_core::sc_time before = sc_core::sc_time_stamp();
    rtl.allocate(reqs, got);
    EXPECT_EQ(sc_core::sc_time_stamp(), before) << "grant() let simulated time pass";
    if (show(got) != show(want)) {
      ADD_FAILURE() << "cycle " << c << ": RTL " << show(got) << ", C++ " << show(want);
      return busy;
    }
    busy += !reqs.empty();
    granted += got.size();
    sc_core::wait(ps(kPeriodPs));
  }
  EXPECT_GT(granted, cycles / 2);
  return busy;
}

void run_case(const Pattern& p, uint64_t cycles, uint32_t seed, gms::VcdWriter* vcd = nullptr) {
  RtlClock clock("clock", kPeriodPs, vcd, "clock");
  RtlArbiter rtl({"arbiter", vcd, "arbiter", &clock});
  rtl.resize(p.inputs, p.outputs);
  Driver d("driver");
  uint64_t busy = 0;
  d.body = [&] { busy = compare_random(rtl, p, cycles, seed); };
  sc_core::sc_start();
  EXPECT_GT(busy, 0u);
  // The clock ran every cycle; the registers took exactly the cycles with requests.
  EXPECT_EQ(rtl.commits(), busy);
  EXPECT_EQ(sc_core::sc_time_stamp(), ps((cycles + 1) * kPeriodPs));
}

}  // namespace

TEST(RtlArbiter, FermiSizedCrossbarOneRequestPerInput) {
  run_case({15, 12, 0.7, 1, 0.1}, 5000, 1);
}

TEST(RtlArbiter, InputsRequestingSeveralOutputs) {
  run_case({15, 12, 0.6, 4, 0.05}, 5000, 2);
}

TEST(RtlArbiter, FullCapacityUnderHeavyLoad) {
  const unsigned n = RtlArbiter::capacity();
  run_case({n, n, 0.9, 3, 0.0}, 3000, 3);
}

TEST(RtlArbiter, MoreOutputsThanInputsAndOneInput) {
  run_case({3, 9, 0.8, 5, 0.2}, 4000, 4);
  // (a second system cannot be elaborated in this process: the 1-input case is the next test)
}

TEST(RtlArbiter, OneInput) {
  run_case({1, 4, 0.9, 2, 0.1}, 2000, 5);
}

// Tracing adds delta cycles (the probes sample after the clock edge) and a process on the clock: the grants
// stay the same.
TEST(RtlArbiter, TracedRunGrantsTheSame) {
  const std::string path = std::string(GMS_BINARY_DIR) + "/test-tmp-rtl_arbiter_traced.vcd";
  gms::VcdWriter vcd(path, "1 ps");
  run_case({15, 12, 0.6, 3, 0.1}, 2000, 6, &vcd);
  vcd.close(sc_core::sc_time_stamp().value());
  std::remove(path.c_str());
}

// A request in the first delta cycle of time 0, while reset is asserted: grant() waits for the reset (the
// first rising edge, at 0.5 ns) and arbitrates at the first cycle edge after it (1 ns), as the C++ arbiter
// does at its first call; the pointers then move as the C++ ones did.
TEST(RtlArbiter, RequestDuringResetIsServedAtTheFirstCycleAfterIt) {
  RtlClock clock("clock", kPeriodPs);
  RtlArbiter rtl({"arbiter", nullptr, "", &clock});
  rtl.resize(4, 2);
  RoundRobinArbiter ref;
  ref.resize(4, 2);
  Driver d("driver");
  std::vector<SwitchRequest> got, want, got2, want2;
  uint64_t delta_before = 0;
  sc_time answered;
  d.body = [&] {
    const std::vector<SwitchRequest> reqs = {{2, 1}, {3, 1}, {1, 0}, {2, 0}};
    delta_before = sc_core::sc_delta_count();
    EXPECT_TRUE(clock.in_reset());
    rtl.allocate(reqs, got);
    answered = sc_core::sc_time_stamp();
    ref.allocate(reqs, want);
    sc_core::wait(ps(kPeriodPs));
    rtl.allocate(reqs, got2);
    ref.allocate(reqs, want2);
    sc_core::wait(ps(kPeriodPs));  // past the edge that takes it
  };
  sc_core::sc_start();
  EXPECT_EQ(delta_before, 0u);
  EXPECT_EQ(answered, ps(kPeriodPs));
  EXPECT_EQ(show(got), show(want));
  EXPECT_EQ(show(want), "(2->1)(1->0)");
  EXPECT_EQ(show(got2), show(want2));
  EXPECT_EQ(show(want2), "(3->1)(2->0)");
  EXPECT_EQ(rtl.commits(), 2u);
}

// The clock: rising edges half a cycle into each cycle (an odd period rounds the phase down), reset held for
// the first one and released in its delta cycle.
TEST(RtlClock, RisesMidCycleAndResetsAtItsFirstEdge) {
  RtlClock clock("clock", 1429);  // 700 MHz, the fermi NoC
  EXPECT_EQ(clock.phase_ps(), 714u);
  std::vector<uint64_t> rising, falling;
  std::vector<bool> rst_at_edge;
  struct Watch : sc_core::sc_module {
    std::function<void()> on_edge;
    SC_HAS_PROCESS(Watch);
    Watch(sc_core::sc_module_name n, const sc_core::sc_clock& c) : sc_module(n) {
      SC_METHOD(edge);
      sensitive << c;
      dont_initialize();
    }
    void edge() { on_edge(); }
  } watch("watch", clock.clk());
  watch.on_edge = [&] {
    (clock.clk().read() ? rising : falling).push_back(sc_core::sc_time_stamp().value());
    if (clock.clk().read()) rst_at_edge.push_back(clock.rst().read());
  };
  sc_core::sc_start(ps(4 * 1429));
  EXPECT_EQ(rising, (std::vector<uint64_t>{714, 714 + 1429, 714 + 2 * 1429, 714 + 3 * 1429}));
  EXPECT_EQ(falling, (std::vector<uint64_t>{1429, 2 * 1429, 3 * 1429}));   // at the cycle edges
  EXPECT_EQ(rst_at_edge, (std::vector<bool>{true, false, false, false}));  // what the registers sample
  EXPECT_FALSE(clock.in_reset());
  EXPECT_TRUE(clock.at_rising_edge(714 + 1429));
  EXPECT_FALSE(clock.at_rising_edge(1429));
  EXPECT_EQ(clock.next_cycle_ps(714), 1429u);
  EXPECT_EQ(clock.next_cycle_ps(1429), 2u * 1429);
}

// One arbitration per clock cycle: a second one before the rising edge took the first, or one at a rising
// edge's time, would see pointers the C++ arbiter does not have; the transactor refuses both.
TEST(RtlArbiter, SecondArbitrationInACycleOrOneAtARisingEdgeIsALogicError) {
  RtlClock clock("clock", kPeriodPs);
  RtlArbiter rtl({"arbiter", nullptr, "", &clock});
  rtl.resize(4, 2);
  Driver d("driver");
  std::vector<SwitchRequest> got;
  d.body = [&] {
    sc_core::wait(ps(kPeriodPs));
    rtl.allocate({{0, 0}}, got);
    EXPECT_THROW(rtl.allocate({{1, 1}}, got), std::logic_error);
    sc_core::wait(ps(kPeriodPs + kPeriodPs / 2));  // 2.5 ns: the rising edge of cycle 2
    EXPECT_THROW(rtl.allocate({{1, 1}}, got), std::logic_error);
  };
  sc_core::sc_start();
  EXPECT_EQ(rtl.commits(), 1u);
}

TEST(RtlArbiter, CrossbarLargerThanTheVerilatedCapacityIsAConfigError) {
  const unsigned n = RtlArbiter::capacity();
  RtlClock clock("clock", kPeriodPs);
  RtlArbiter rtl({"arbiter", nullptr, "", &clock});
  EXPECT_EQ(config_error_of([&] { rtl.resize(n + 1, 2); }),
            "noc.arbiter: rtl: the Verilated arbiter has at most " + std::to_string(n) +
                " inputs and outputs (CMake GMS_RTL_ARBITER_PORTS); this crossbar has " +
                std::to_string(n + 1) + " inputs and 2 outputs");
}
