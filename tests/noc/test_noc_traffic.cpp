// Random traffic with back-pressure everywhere (one-response rule, routing back to the right L1, no
// leaked payloads), the functional and debug paths, VCD probes, and a throughput measurement.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "models/common/rng.h"
#include "models/noc/network_interconnect.h"
#include "tests/common/vcd_reader.h"
#include "tests/noc/noc_bench.h"

using gms::test::NocBench;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// Scripts `per_initiator` random requests per L1 (random target, read or write, random chunk mask).
void random_script(NocBench& b, unsigned per_initiator, double mean_gap_ns, uint64_t seed) {
  gms::Rng rng(seed);
  for (auto& ini : b.ini) {
    double t = 0;
    for (unsigned k = 0; k < per_initiator; ++k) {
      t += double(rng.below(uint64_t(2 * mean_gap_ns) + 1));
      const unsigned j = unsigned(rng.below(b.tgt.size()));
      const uint8_t mask = uint8_t(1 + rng.below(15));
      ini->add(t, b.line_to(j, unsigned(rng.below(1000))), rng.chance(0.3), mask);
    }
  }
}

void expect_all_answered_once(const NocBench& b) {
  for (const auto& ini : b.ini)
    for (size_t k = 0; k < ini->records().size(); ++k) {
      const auto& r = ini->records()[k];
      ASSERT_EQ(r.responses, 1u) << "sm " << ini->sm() << " request " << k;
      ASSERT_EQ(r.status, tlm::TLM_OK_RESPONSE) << "sm " << ini->sm() << " request " << k;
      ASSERT_EQ(r.chunks_returned, r.write ? 0 : r.chunk_mask);
      ASSERT_GE(r.answered, r.accepted);
    }
}

}  // namespace

TEST(NocTraffic, RandomTrafficWithBackPressureAnswersEveryRequestOnceToItsSender) {
  gms::NocParams p = gms::test::ns_params();
  p.input_buffer_flits = 6;
  NocBench b(p, 5, 3);
  random_script(b, 300, 3, 42);
  for (unsigned j = 0; j < 3; ++j) {
    b.tgt[j]->hold_requests(0, 12);
    b.tgt[j]->service(5, 30);
  }
  for (unsigned i = 0; i < 5; i += 2) b.ini[i]->hold_responses(0, 10);
  sc_core::sc_start();
  expect_all_answered_once(b);
  size_t arrivals = 0;
  for (const auto& t : b.tgt) {
    arrivals += t->arrivals().size();
    for (size_t k = 1; k < t->arrivals().size(); ++k) ASSERT_GT(t->arrivals()[k].at, t->arrivals()[k - 1].at);
  }
  EXPECT_EQ(arrivals, 1500u);
  EXPECT_EQ(b.stat("requests"), 1500);
  EXPECT_EQ(b.stat("responses"), 1500);
  EXPECT_EQ(b.stat("req.packets"), 1500);
  EXPECT_EQ(b.stat("resp.packets"), 1500);
  EXPECT_EQ(b.pool.in_use(), 0u);  // nobody kept a reference
  // The run really exercised every kind of back-pressure.
  EXPECT_GT(b.stat("req.held"), 0);
  EXPECT_GT(b.stat("req.blocked_cycles"), 0);
  EXPECT_GT(b.stat("resp.blocked_cycles"), 0);
  EXPECT_GT(b.stat("req.credit_stall_cycles"), 0);
  const auto& xbar = dynamic_cast<const gms::NetworkInterconnect&>(*b.noc);
  EXPECT_EQ(xbar.request_network().in_flight(), 0u);
  EXPECT_EQ(xbar.reply_network().in_flight(), 0u);
}

namespace {
// Calls the functional and debug paths from a thread (b_transport may wait).
struct FunctionalCaller : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<FunctionalCaller> isock{"isock"};
  gms::PayloadPool& pool;
  sc_time read_delay, write_delay;
  uint8_t read_chunks = 0;
  unsigned dbg_bytes = 0;
  uint8_t dbg_first = 0;
  SC_HAS_PROCESS(FunctionalCaller);
  FunctionalCaller(sc_core::sc_module_name n, gms::PayloadPool& p) : sc_module(n), pool(p) { SC_THREAD(run); }
  void run() {
    auto& t = pool.allocate();
    gms::req_of(t).chunk_mask = 0x3;
    t.set_address(128 * 2);
    t.set_command(tlm::TLM_READ_COMMAND);
    read_delay = sc_core::SC_ZERO_TIME;
    isock->b_transport(t, read_delay);
    read_chunks = gms::req_of(t).chunks_returned;
    gms::req_of(t).chunk_mask = 0xF;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    write_delay = sc_core::SC_ZERO_TIME;
    isock->b_transport(t, write_delay);
    t.set_address(128 * 1);
    t.set_command(tlm::TLM_READ_COMMAND);
    dbg_bytes = isock->transport_dbg(t);
    dbg_first = t.get_data_ptr()[0];
    t.release();
  }
};
}  // namespace

TEST(NocTraffic, FunctionalAndDebugPathsReachTheRoutedTarget) {
  NocBench b(gms::test::ns_params(), 0, 3);
  FunctionalCaller caller("caller", b.pool);
  caller.isock.bind(b.noc->up);
  sc_core::sc_start();
  EXPECT_EQ(b.tgt[2]->functional_calls(), 2u);
  EXPECT_EQ(b.tgt[0]->functional_calls() + b.tgt[1]->functional_calls(), 0u);
  EXPECT_EQ(caller.read_chunks, 0x3);
  // Uncontended latency each way around the target's 10 ns: read (2 + 1) + 10 + (2 + 3);
  // full-line write (2 + 5) + 10 + (2 + 1).
  EXPECT_EQ(caller.read_delay, sc_time(18, SC_NS));
  EXPECT_EQ(caller.write_delay, sc_time(20, SC_NS));
  EXPECT_EQ(b.tgt[1]->debug_calls(), 1u);
  EXPECT_EQ(caller.dbg_bytes, 128u);
  EXPECT_EQ(caller.dbg_first, 16);  // target 1 fills byte i with 16 + i
  EXPECT_EQ(b.stat("functional"), 2);
  EXPECT_EQ(b.stat("requests"), 0);  // the timed counters stay untouched
}

// Two one-flit read requests for slice 0 at time 0 (1 ns NoC cycles): both are buffered during cycle 0 and
// compete from cycle 1; round robin grants input 0 at cycle 1 and input 1 at cycle 2, and each input's
// credit returns when its flit has left (grant + 1 flit). The probes show that, per port.
TEST(NocTraffic, VcdProbesShowPerPortOccupancyAndGrants) {
  const std::string base = std::string(GMS_BINARY_DIR) + "/noc_probe_test";
  {
    gms::TraceSelector sel(base + ".vcd", {"xb*"});
    NocBench b(gms::test::ns_params(), 2, 1, &sel);
    b.ini[0]->add(0, b.line_to(0, 0), false, 0x1);
    b.ini[1]->add(0, b.line_to(0, 1), false, 0x1);
    sc_core::sc_start();
    EXPECT_EQ(b.stat("resp.packets"), 2);
    sel.close();  // writes the file (destroyed without close(), an error path, it is discarded)
  }
  const auto f = gms::test::VcdFile::load(base + ".vcd");
  const uint64_t ns = 1000 / f.ps_per_unit();
  for (const char* name : {"req_buffered_flits", "req_delivered", "resp_buffered_flits", "resp_delivered"})
    EXPECT_TRUE(f.has(std::string("SystemC.xbar.") + name)) << name;
  EXPECT_EQ(f.signal("SystemC.xbar.req_delivered").value_at(f.last_time()), 2u);
  const auto& in0 = f.signal("SystemC.xbar.req.in0_flits");
  const auto& in1 = f.signal("SystemC.xbar.req.in1_flits");
  const auto& grants = f.signal("SystemC.xbar.req.out0_grants");
  EXPECT_EQ(in0.value_at(0), 1u);
  EXPECT_EQ(in1.value_at(0), 1u);
  EXPECT_EQ(grants.first_time_of(1), 1 * ns);
  EXPECT_EQ(grants.first_time_of(2), 2 * ns);
  EXPECT_EQ(in0.first_time_of(0, 1), 2 * ns);
  EXPECT_EQ(in1.first_time_of(0, 1), 3 * ns);
  // The replies come back through the reply network's input 0 (slice 0) to outputs 0 and 1.
  EXPECT_EQ(f.signal("SystemC.xbar.resp.out0_grants").value_at(f.last_time()), 1u);
  EXPECT_EQ(f.signal("SystemC.xbar.resp.out1_grants").value_at(f.last_time()), 1u);
}

TEST(NocTraffic, SaturatedThroughputRespectsOneFlitPerPortPerCycle) {
  // 16 L1s x 8 slices, every L1 keeping 32 full-line reads to random slices outstanding: the reply
  // network's 8 inputs (5-flit replies) are the bottleneck. Also reports the wall-clock cost of the model.
  NocBench b(gms::test::ns_params(), 16, 8);
  gms::Rng rng(7);
  for (auto& ini : b.ini) {
    ini->max_outstanding(32);
    for (unsigned k = 0; k < 20000; ++k) ini->add(0, b.line_to(unsigned(rng.below(8)), k), false, 0xF);
  }
  for (auto& t : b.tgt) t->service(0);
  const auto t0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  expect_all_answered_once(b);
  const double cycles = sc_core::sc_time_stamp() / sc_time(1, SC_NS);
  const double replies = 16 * 20000;
  EXPECT_EQ(b.stat("resp.flits"), 5 * replies);
  // Eight reply inputs each send at most one flit per cycle.
  EXPECT_GE(cycles, 5 * replies / 8);
  for (unsigned o = 0; o < 8; ++o) EXPECT_LE(b.stat("req.out" + std::to_string(o) + "_busy_cycles"), cycles);
  for (unsigned o = 0; o < 16; ++o)
    EXPECT_LE(b.stat("resp.out" + std::to_string(o) + "_busy_cycles"), cycles);
  // Head-of-line blocking at the reply inputs costs throughput, but not much with 16 outputs for 8 inputs.
  EXPECT_LT(cycles, 1.3 * 5 * replies / 8);
  std::printf(
      "[ perf ] %.0f requests in %.3f s wall: %.0f requests/s (with fake L1s and slices); "
      "%.0f NoC cycles, reply utilization %.3f\n",
      replies, wall, replies / wall, cycles, b.stat("resp.utilization"));
  RecordProperty("requests_per_second", std::to_string(int64_t(replies / wall)));
}

namespace {
// A debug read of three lines (one per target) and a debug write of one line from a thread.
struct DebugCaller : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<DebugCaller> isock{"isock"};
  std::vector<uint8_t> buf = std::vector<uint8_t>(3 * 128 - 8), read;
  unsigned read_bytes = 0, write_bytes = 0;
  SC_HAS_PROCESS(DebugCaller);
  explicit DebugCaller(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(8);  // from byte 8 of line 0 to the end of line 2
    t.set_data_ptr(buf.data());
    t.set_data_length(unsigned(buf.size()));
    t.set_streaming_width(unsigned(buf.size()));
    read_bytes = isock->transport_dbg(t);
    read = buf;  // (FakeTarget answers writes by filling the buffer too)
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_address(128 * 1);
    t.set_data_length(128);
    t.set_streaming_width(128);
    write_bytes = isock->transport_dbg(t);
  }
};
}  // namespace

// A debug access spanning lines of several slices reaches each line's own slice (a multi-line read went
// to the first line's slice only, so lines held dirty in another slice read back stale), and a debug write
// reaches every slice the system names as a holder of the line (a private LLC keeps a copy per cluster).
TEST(NocTraffic, DebugAccessesAreSplitByLineAndWritesReachEveryHolder) {
  NocBench b(gms::test::ns_params(), 0, 3);
  b.noc->set_debug_targets([](uint64_t addr, unsigned, std::vector<unsigned>& out) {
    out.push_back(unsigned(addr / 128) % 3);
    out.push_back((unsigned(addr / 128) + 1) % 3);  // and a second copy in the next slice
  });
  DebugCaller caller("caller");
  caller.isock.bind(b.noc->up);
  sc_core::sc_start();
  EXPECT_EQ(caller.read_bytes, 3u * 128 - 8);
  // FakeTarget j fills byte i of what it is asked with 16 j + i: line 0 from byte 8 (120 bytes), then
  // lines 1 and 2 whole.
  ASSERT_EQ(caller.read.size(), caller.buf.size());
  EXPECT_EQ(caller.read[0], 0);
  EXPECT_EQ(caller.read[119], 119);
  EXPECT_EQ(caller.read[120], 16);
  EXPECT_EQ(caller.read[120 + 127], uint8_t(16 + 127));
  EXPECT_EQ(caller.read[248], 32);
  EXPECT_EQ(caller.write_bytes, 128u);
  // Reads: one call per target; the write of line 1 went to targets 1 and 2.
  EXPECT_EQ(b.tgt[0]->debug_calls(), 1u);
  EXPECT_EQ(b.tgt[1]->debug_calls(), 2u);
  EXPECT_EQ(b.tgt[2]->debug_calls(), 2u);
}
