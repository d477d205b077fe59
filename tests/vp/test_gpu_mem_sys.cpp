// GpuMemSys as a library module behind a host: hierarchical names, no simulation of its own, host data
// through a launch and back (b_transport, transport_dbg, DMI) on several organisations, DMI revocation,
// debug reads of dirty LLC lines, host-access errors and latency. One process per test (one elaboration).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "examples/vp/vector_kernel.h"
#include "models/dram/backing_store.h"
#include "models/dram/memory_channel.h"
#include "models/l1/l1_cache.h"
#include "models/llc/last_level_cache.h"
#include "models/noc/interconnect.h"
#include "models/sm/streaming_multiprocessor.h"
#include "models/system/gpu_mem_sys.h"
#include "tests/vp/host_initiator.h"

namespace {

using gms::GpuMemSys;
using gms::test::HostInitiator;
using sc_core::sc_time;

constexpr uint64_t kSrc = 0x100000, kDst = 0x200000;
constexpr uint32_t kCtas = 24;  // lines per buffer
constexpr unsigned kBytes = kCtas * 128;

gms::SystemConfig config(const std::string& file, const std::vector<std::string>& sets = {}) {
  return gms::load_system_config_file(std::string(GMS_SOURCE_DIR) + "/configs/" + file, sets);
}

uint8_t host_byte(uint64_t i, unsigned round = 0) {
  return uint8_t(i * 7 + 3 + round * 101);
}

std::vector<uint8_t> host_buffer(unsigned round = 0) {
  std::vector<uint8_t> v(kBytes);
  for (unsigned i = 0; i < kBytes; ++i) v[i] = host_byte(i, round);
  return v;
}

TEST(GpuMemSys, BuildsNamedBlocksAndRunsNothingByItself) {
  GpuMemSys gpu("gpu", config("tiny.yaml"));
  EXPECT_STREQ(gpu.sm(0).name(), "gpu.sm0");
  EXPECT_STREQ(gpu.l1(1).name(), "gpu.l1_1");
  EXPECT_STREQ(gpu.interconnect().name(), "gpu.xbar");
  EXPECT_STREQ(gpu.llc(0).name(), "gpu.llc0");
  EXPECT_STREQ(gpu.dram(0).name(), "gpu.dram0");
  EXPECT_EQ(gpu.stats().name(), "gpu");
  EXPECT_EQ(gpu.stats().value("sm1.requests"), 0);
  EXPECT_TRUE(gpu.workloads_done());
  EXPECT_FALSE(gpu.busy());
  sc_core::sc_start();  // the host socket may stay unbound; nothing runs until work is given
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}

// The round trip on one organisation: the host writes the source with b_transport, a launch loads it and
// stores the destination, the host reads the destination back three ways.
void round_trip(const gms::SystemConfig& cfg) {
  GpuMemSys gpu("gpu", cfg);
  AccessLog obs;
  VectorKernel wl("vector", kSrc, kDst, kCtas);
  unsigned done_calls = 0;
  HostInitiator host("host", [&](HostInitiator& h) {
    sc_time delay = sc_core::SC_ZERO_TIME;
    h.write(kSrc, host_buffer(), delay);
    EXPECT_GT(delay, sc_core::SC_ZERO_TIME);
    sc_core::wait(delay);  // the host's own time catches up before it launches
    gpu.launch(
        wl, [&] { ++done_calls; }, &obs);
    EXPECT_TRUE(gpu.busy());
    sc_core::wait(gpu.idle_event());
    EXPECT_FALSE(gpu.busy());
    EXPECT_EQ(done_calls, 1u);
    // The GPU read what the host wrote.
    ASSERT_EQ(obs.loaded.size(), size_t(kBytes));
    for (unsigned i = 0; i < kBytes; ++i) ASSERT_EQ(obs.loaded.at(kSrc + i), host_byte(i)) << i;
    ASSERT_EQ(obs.stored.size(), size_t(kBytes));
    // The host reads what the GPU stored: b_transport, transport_dbg, DMI.
    delay = sc_core::SC_ZERO_TIME;
    std::vector<uint8_t> lt = h.read(kDst, kBytes, delay);
    std::vector<uint8_t> dbg(kBytes);
    EXPECT_EQ(h.debug(tlm::TLM_READ_COMMAND, kDst, dbg.data(), kBytes), kBytes);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(h.dmi(kDst, dmi));
    EXPECT_TRUE(dmi.is_read_write_allowed());
    ASSERT_EQ(dmi.get_start_address(), kDst);
    ASSERT_GE(dmi.get_end_address(), kDst + 4095);
    ASSERT_EQ(lt.size(), size_t(kBytes));
    for (unsigned i = 0; i < kBytes; ++i) {
      ASSERT_EQ(lt[i], obs.stored.at(kDst + i)) << i;
      ASSERT_EQ(dbg[i], lt[i]) << i;
      ASSERT_EQ(dmi.get_dmi_ptr()[i], lt[i]) << i;
    }
  });
  host.sock.bind(gpu.host);
  sc_core::sc_start();
  EXPECT_TRUE(host.finished);
  EXPECT_EQ(gpu.stats().value("kernels.kernels"), 1);
  EXPECT_EQ(gpu.protocol_violations(), 0u);
}

TEST(GpuMemSys, HostDataRoundTripsThroughALaunchTiny) {
  round_trip(config("tiny.yaml"));
}

TEST(GpuMemSys, HostDataRoundTripsThroughALaunchFermiCheckedLinks) {
  round_trip(config("fermi.yaml", {"system.protocol_check=true"}));
}

TEST(GpuMemSys, HostDataRoundTripsThroughALaunchPrivateLlc) {
  round_trip(config("fermi.yaml", {"llc.mode=private"}));
}

TEST(GpuMemSys, HostDataRoundTripsThroughALaunchAdaptiveLlcOnHxbar) {
  round_trip(config("fermi.yaml", {"noc.type=hxbar", "llc.mode=adaptive"}));
}

// Lines the first launch cached are written by the host between launches (b_transport and DMI); the
// second launch reads the new bytes: nothing stale survives a launch's end, not even in L1s that keep their
// lines across kernels.
TEST(GpuMemSys, SecondLaunchSeesWhatTheHostWroteBetweenLaunches) {
  GpuMemSys gpu("gpu", config("tiny.yaml", {"l1.flush_at_kernel_end=false"}));
  AccessLog first, second;
  VectorKernel load1("vector", kSrc, kDst, kCtas, false), load2("vector", kSrc, kDst, kCtas, false);
  HostInitiator host("host", [&](HostInitiator& h) {
    sc_time delay = sc_core::SC_ZERO_TIME;
    h.write(kSrc, host_buffer(0), delay);
    gpu.launch(load1, nullptr, &first);
    sc_core::wait(gpu.idle_event());
    // Half by b_transport, the other half through a DMI pointer.
    std::vector<uint8_t> next = host_buffer(1);
    h.write(kSrc, std::vector<uint8_t>(next.begin(), next.begin() + kBytes / 2), delay);
    tlm::tlm_dmi dmi;
    ASSERT_TRUE(h.dmi(kSrc + kBytes / 2, dmi));
    for (unsigned i = kBytes / 2; i < kBytes; ++i)
      dmi.get_dmi_ptr()[kSrc + i - dmi.get_start_address()] = next[i];
    gpu.launch(load2, nullptr, &second);
    EXPECT_EQ(h.invalidations, 1u);  // the pointer is revoked as the launch starts
    sc_core::wait(gpu.idle_event());
    for (unsigned i = 0; i < kBytes; ++i) {
      ASSERT_EQ(first.loaded.at(kSrc + i), host_byte(i, 0)) << i;
      ASSERT_EQ(second.loaded.at(kSrc + i), host_byte(i, 1)) << i;
    }
  });
  host.sock.bind(gpu.host);
  sc_core::sc_start();
  EXPECT_TRUE(host.finished);
  EXPECT_EQ(gpu.stats().value("kernels.kernels"), 2);
}

TEST(GpuMemSys, DmiIsRefusedWhileALaunchRuns) {
  GpuMemSys gpu("gpu", config("tiny.yaml"));
  VectorKernel wl("vector", kSrc, kDst, kCtas);
  HostInitiator host("host", [&](HostInitiator& h) {
    tlm::tlm_dmi dmi;
    gpu.launch(wl);
    sc_core::wait(sc_time(100, sc_core::SC_NS));
    ASSERT_TRUE(gpu.busy());
    EXPECT_FALSE(h.dmi(kDst, dmi));
    EXPECT_FALSE(dmi.is_read_allowed());
    EXPECT_LE(dmi.get_start_address(), kDst);  // the refused range covers the address
    EXPECT_GE(dmi.get_end_address(), kDst);
    EXPECT_THROW(gpu.launch(wl), std::logic_error);  // one launch at a time
    sc_core::wait(gpu.idle_event());
    EXPECT_TRUE(h.dmi(kDst, dmi));
  });
  host.sock.bind(gpu.host);
  sc_core::sc_start();
  EXPECT_TRUE(host.finished);
}

// Programs (the test bench's way) do not flush at their end: the stores sit dirty in the LLC. Debug reads
// through the host socket see them though the backing store does not have them yet; DMI is refused.
TEST(GpuMemSys, HostDebugReadsSeeDirtyLinesHeldInTheLlc) {
  GpuMemSys gpu("gpu", config("tiny.yaml"));
  AccessLog obs;
  VectorKernel wl("vector", kSrc, kDst, kCtas);
  gms::StatGroup program("program");
  gpu.add_program(wl, 0, 2, program, &obs);
  HostInitiator host("host", [](HostInitiator&) {});
  host.sock.bind(gpu.host);
  gpu.start_programs();
  sc_core::sc_start();
  ASSERT_TRUE(gpu.workloads_done());
  std::vector<uint8_t> dbg(kBytes), store(kBytes);
  ASSERT_EQ(host.debug(tlm::TLM_READ_COMMAND, kDst, dbg.data(), kBytes), kBytes);
  gpu.memory().read(kDst, store.data(), kBytes);
  unsigned stale = 0;
  for (unsigned i = 0; i < kBytes; ++i) {
    ASSERT_EQ(dbg[i], obs.stored.at(kDst + i)) << i;
    stale += store[i] != dbg[i];
  }
  EXPECT_GT(stale, 0u);  // the LLC really held newer data than DRAM
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(host.dmi(kDst, dmi));
  // A debug write reaches the LLC's copy too: a later debug read returns it.
  uint8_t b = 0x5a;
  ASSERT_EQ(host.debug(tlm::TLM_WRITE_COMMAND, kDst + 5, &b, 1), 1u);
  uint8_t r = 0;
  ASSERT_EQ(host.debug(tlm::TLM_READ_COMMAND, kDst + 5, &r, 1), 1u);
  EXPECT_EQ(r, 0x5a);
}

TEST(GpuMemSys, HostBTransportChecksThePayloadAndAnnotatesTheUncontendedLatency) {
  GpuMemSys gpu("gpu", config("tiny.yaml"));
  HostInitiator host("host", [](HostInitiator&) {});
  host.sock.bind(gpu.host);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  uint8_t buf[256] = {};
  sc_time one = sc_core::SC_ZERO_TIME, two = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(host.transport(tlm::TLM_READ_COMMAND, 0x1000, buf, 128, one), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(host.transport(tlm::TLM_READ_COMMAND, 0x1040, buf, 128, two), tlm::TLM_OK_RESPONSE);  // 2 lines
  EXPECT_GT(one, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(two, one + one);
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_WRITE_COMMAND);
  t.set_address(0x1000);
  t.set_data_ptr(buf);
  t.set_data_length(8);
  t.set_streaming_width(4);  // a FIFO-like access
  sc_time d = sc_core::SC_ZERO_TIME;
  host.sock->b_transport(t, d);
  EXPECT_EQ(t.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
  t.set_command(tlm::TLM_IGNORE_COMMAND);
  t.set_streaming_width(8);
  host.sock->b_transport(t, d);
  EXPECT_EQ(t.get_response_status(), tlm::TLM_OK_RESPONSE);
  // Byte enables: only enabled bytes are written.
  uint8_t data[4] = {1, 2, 3, 4}, be[4] = {0xff, 0, 0xff, 0};
  tlm::tlm_generic_payload w;
  w.set_command(tlm::TLM_WRITE_COMMAND);
  w.set_address(0x2000);
  w.set_data_ptr(data);
  w.set_data_length(4);
  w.set_streaming_width(4);
  w.set_byte_enable_ptr(be);
  w.set_byte_enable_length(4);
  host.sock->b_transport(w, d);
  ASSERT_EQ(w.get_response_status(), tlm::TLM_OK_RESPONSE);
  uint8_t got[4];
  gpu.memory().read(0x2000, got, 4);
  uint8_t initial[4];
  gms::BackingStore fresh;
  fresh.read(0x2000, initial, 4);
  EXPECT_EQ(got[0], 1);
  EXPECT_EQ(got[1], initial[1]);
  EXPECT_EQ(got[2], 3);
  EXPECT_EQ(got[3], initial[3]);
}

}  // namespace
