// The RTL arbiter's transactor (models/noc/rtl/) against the C++ RoundRobinArbiter: the same requests,
// issued in the same order, get identical grants (same pairs, same order) every cycle, over thousands of
// cycles of random request patterns, with inputs that request several outputs (so the order of service and
// the skipping of inputs already granted matter). A request issued in the first delta cycle of time 0,
// while the RTL is still in reset, is answered correctly without simulated time passing. Each case
// elaborates once (its own process under ctest).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/vcd_writer.h"
#include "models/noc/arbiter.h"
#include "models/noc/rtl/rtl_arbiter.h"
#include "tests/config_error_of.h"

using gms::RoundRobinArbiter;
using gms::RtlArbiter;
using gms::SwitchRequest;

namespace {

// Runs `body` in a thread process from the first delta cycle of time 0 (grant() waits: a thread calls it).
struct Driver : sc_core::sc_module {
  std::function<void()> body;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(go); }
  void go() { body(); }
};

std::string show(const std::vector<SwitchRequest>& g) {
  std::string s;
  for (const auto& x : g) s += "(" + std::to_string(x.input) + "->" + std::to_string(x.output) + ")";
  return s;
}

struct Pattern {
  unsigned inputs, outputs;
  double load;        // chance that an input requests in a cycle
  unsigned max_outs;  // outputs an input requests at most (several: order of service matters)
  double idle;        // chance of a cycle without any request (the clock stays gated)
};

// Random requests for `cycles` cycles, one NoC cycle (1 ns) apart; returns the cycles that had requests.
uint64_t compare_random(RtlArbiter& rtl, const Pattern& p, uint64_t cycles, uint32_t seed) {
  RoundRobinArbiter ref;
  ref.resize(p.inputs, p.outputs);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<SwitchRequest> reqs, got, want;
  uint64_t busy = 0, granted = 0;
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
    sc_core::wait(1, sc_core::SC_NS);
  }
  EXPECT_GT(granted, cycles / 2);
  return busy;
}

void run_case(const Pattern& p, uint64_t cycles, uint32_t seed, gms::VcdWriter* vcd = nullptr) {
  RtlArbiter rtl({"arbiter", vcd, "arbiter"});
  rtl.resize(p.inputs, p.outputs);
  Driver d("driver");
  uint64_t busy = 0;
  d.body = [&] { busy = compare_random(rtl, p, cycles, seed); };
  sc_core::sc_start();
  EXPECT_GT(busy, 0u);
  // The clock is gated: two reset pulses, then one edge per cycle with requests.
  EXPECT_EQ(rtl.clock_edges(), 2 + busy);
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

// Tracing adds delta cycles (the probes sample after the clock edge): the grants stay the same.
TEST(RtlArbiter, TracedRunGrantsTheSame) {
  const std::string path = std::string(GMS_BINARY_DIR) + "/test-tmp-rtl_arbiter_traced.vcd";
  gms::VcdWriter vcd(path, "1 ps");
  run_case({15, 12, 0.6, 3, 0.1}, 2000, 6, &vcd);
  vcd.close(sc_core::sc_time_stamp().value());
  std::remove(path.c_str());
}

// A request in the first delta cycle of time 0, while reset is asserted: grant() waits for the reset to
// end (delta cycles only) and answers as the C++ arbiter does.
TEST(RtlArbiter, RequestDuringResetIsAnsweredAtTimeZero) {
  RtlArbiter rtl({"arbiter", nullptr, ""});
  rtl.resize(4, 2);
  RoundRobinArbiter ref;
  ref.resize(4, 2);
  Driver d("driver");
  std::vector<SwitchRequest> got, want;
  uint64_t delta_before = 0, delta_after = 0;
  d.body = [&] {
    const std::vector<SwitchRequest> reqs = {{2, 1}, {3, 1}, {1, 0}, {2, 0}};
    delta_before = sc_core::sc_delta_count();
    EXPECT_LT(rtl.clock_edges(), 2u);  // reset is still pulsing the clock
    rtl.allocate(reqs, got);
    delta_after = sc_core::sc_delta_count();
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
    ref.allocate(reqs, want);
    // And the pointers moved as the C++ ones did: the same requests again rotate the same way.
    std::vector<SwitchRequest> got2, want2;
    rtl.allocate(reqs, got2);
    ref.allocate(reqs, want2);
    EXPECT_EQ(show(got2), show(want2));
  };
  sc_core::sc_start();
  EXPECT_EQ(delta_before, 0u);
  EXPECT_GT(delta_after, 4u);  // it waited for the reset pulses
  EXPECT_EQ(show(got), show(want));
  EXPECT_EQ(show(want), "(2->1)(1->0)");
}

TEST(RtlArbiter, CrossbarLargerThanTheVerilatedCapacityIsAConfigError) {
  const unsigned n = RtlArbiter::capacity();
  RtlArbiter rtl({"arbiter", nullptr, ""});
  EXPECT_EQ(config_error_of([&] { rtl.resize(n + 1, 2); }),
            "noc.arbiter: rtl: the Verilated arbiter has at most " + std::to_string(n) +
                " inputs and outputs (CMake GMS_RTL_ARBITER_PORTS); this crossbar has " +
                std::to_string(n + 1) + " inputs and 2 outputs");
}
