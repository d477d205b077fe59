// The memory system with a free-running RTL clock (noc.arbiter: rtl, docs/cosim.md "Clock") under a
// platform's own run loop: the clock keeps the kernel busy for ever, so the loop reads the model's own
// activity (GpuMemSys::next_activity) and lets the kernel pause where the model goes idle
// (pause_when_idle). A run that completes pauses at its last activity; one that deadlocks (a memory stand-in
// that never answers) pauses as soon as nothing is left to do, far before the loop's limit, with the
// workload unfinished: both end where the kernel would have starved without the clock.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "examples/vp/vector_kernel.h"
#include "models/dram/memory_channel.h"
#include "models/system/gpu_mem_sys.h"
#include "models/system/system_config.h"

namespace {

using sc_core::sc_time;

// A memory channel that takes every request and never answers: END_REQ never comes back.
class BlackHole : public gms::MemoryChannel {
 public:
  BlackHole(sc_core::sc_module_name name, unsigned channel)
      : MemoryChannel(name, channel), stats_(basename()) {}
  sc_time functional_latency() const override { return sc_time(40, sc_core::SC_NS); }
  gms::StatGroup& stats() override { return stats_; }
  unsigned requests = 0;

 protected:
  tlm::tlm_sync_enum nb_transport_fw(int, Payload&, tlm::tlm_phase& ph, sc_time&) override {
    requests += ph == tlm::BEGIN_REQ;
    return tlm::TLM_ACCEPTED;
  }
  void b_transport(int, Payload&, sc_time&) override {}
  unsigned transport_dbg(int, Payload&) override { return 0; }
  bool get_direct_mem_ptr(int, Payload&, tlm::tlm_dmi& dmi) override {
    dmi.allow_none();
    return false;
  }

 private:
  gms::StatGroup stats_;
};

gms::SystemConfig tiny_rtl() {
  return gms::load_system_config_file(std::string(GMS_SOURCE_DIR) + "/configs/tiny.yaml",
                                      {"noc.arbiter=rtl"});
}

// sc_start(limit) until the model is idle (a loop like GpuSystem's, without its watchdog); the steps taken.
unsigned run_until_idle(gms::GpuMemSys& gpu, const sc_time& limit) {
  unsigned steps = 0;
  while (gpu.next_activity() && sc_core::sc_time_stamp() < limit) {
    sc_core::sc_start(limit - sc_core::sc_time_stamp());
    ++steps;
  }
  return steps;
}

}  // namespace

TEST(RtlRunLoop, CompletedRunPausesAtItsLastActivity) {
  gms::GpuMemSys gpu("gpu", tiny_rtl());
  ASSERT_TRUE(gpu.has_background_clocks());
  gms::StatGroup stats("program");
  VectorKernel wl("vector", 0x40000, 0x80000, 64);
  gpu.add_program(wl, 0, unsigned(gpu.num_sms()), stats, nullptr);
  gpu.start_programs();
  gpu.pause_when_idle();
  const sc_time limit(1, sc_core::SC_MS);
  run_until_idle(gpu, limit);
  EXPECT_TRUE(gpu.workloads_done());
  EXPECT_FALSE(gpu.next_activity());
  EXPECT_TRUE(sc_core::sc_pending_activity());  // only the clock
  const sc_time end = sc_core::sc_time_stamp();
  EXPECT_LT(end, sc_time(100, sc_core::SC_US));
  EXPECT_GE(end, gpu.finish_time());
  EXPECT_GT(gpu.stats().value("xbar.requests"), 0.0);
}

TEST(RtlRunLoop, DeadlockPausesAsSoonAsNothingIsLeftToDo) {
  gms::GpuMemSysOptions opt;
  BlackHole* hole = nullptr;
  opt.make_dram = [&](sc_core::sc_module_name n, const gms::DramParams&, unsigned c, const gms::AddressMap&,
                      gms::BackingStore&, const gms::BlockEnv&) {
    auto b = std::make_unique<BlackHole>(n, c);
    hole = b.get();
    return b;
  };
  gms::GpuMemSys gpu("gpu", tiny_rtl(), opt);
  gms::StatGroup stats("program");
  VectorKernel wl("vector", 0x40000, 0x80000, 64);
  gpu.add_program(wl, 0, unsigned(gpu.num_sms()), stats, nullptr);
  gpu.start_programs();
  gpu.pause_when_idle();
  const sc_time limit(1, sc_core::SC_MS);
  EXPECT_EQ(run_until_idle(gpu, limit), 1u);  // one sc_start: it paused, it did not run to the limit
  EXPECT_FALSE(gpu.workloads_done());
  EXPECT_FALSE(gpu.next_activity());
  EXPECT_TRUE(sc_core::sc_pending_activity());
  EXPECT_LT(sc_core::sc_time_stamp(), sc_time(10, sc_core::SC_US));
  ASSERT_NE(hole, nullptr);
  EXPECT_GT(hole->requests, 0u);
}
