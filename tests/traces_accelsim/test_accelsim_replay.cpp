// The hand-written sample replays through the whole system (tiny and fermi presets) with the instruction,
// line-request and sector counts computed by hand, and every load checked against the golden memory.
#include <gtest/gtest.h>

#include <cctype>

#include "tb/checker/golden_memory.h"
#include "tb/system/gpu_system.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

using gms::test::sum_sms;

void replay_small(const std::string& preset) {
  auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/" + preset);
  auto cfg = gms::SystemConfig::from(doc);
  auto w = gms::load_accelsim_workload(gms::test::sample("small"));
  gms::RunOptions opt;
  opt.progress = false;
  opt.check_data = true;
  gms::GpuSystem sys(cfg, *w, opt);
  dynamic_cast<gms::AccelSimWorkload&>(*w).attach_stats(sys.stats());
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  // Hand-computed (docs/accelsim-import.md walks through them): 7 warp instructions; lines 1+1+2+1+1 in
  // kernel 1 and 4+1 in kernel 2; sectors 4+2+2+4+4 and 16+2.
  EXPECT_EQ(sys.stats().value("system.warp_insts"), 8);
  EXPECT_EQ(sys.stats().value("system.line_requests"), 12);
  EXPECT_EQ(sum_sms(sys.stats(), "load_line_requests"), 9);
  EXPECT_EQ(sum_sms(sys.stats(), "store_line_requests"), 2);
  EXPECT_EQ(sum_sms(sys.stats(), "load_sectors"), 28);
  EXPECT_EQ(sum_sms(sys.stats(), "store_sectors"), 6);
  EXPECT_EQ(sys.stats().value("accelsim.loads"), 5);
  EXPECT_EQ(sys.stats().value("accelsim.atomics"), 1);  // the ATOMG: 32 lanes on one counter, one line
  EXPECT_EQ(sum_sms(sys.stats(), "atomic_line_requests"), 1);
  EXPECT_EQ(sum_sms(sys.stats(), "atomic_sectors"), 1);
  ASSERT_NE(sys.checker(), nullptr);
  EXPECT_GT(sys.checker()->loads_checked(), 0u);
  EXPECT_EQ(sys.checker()->mismatches(), 0u);
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
}

}  // namespace

TEST(AccelSimReplay, SmallSampleThroughTiny) {
  replay_small("tiny.yaml");
}

TEST(AccelSimReplay, SmallSampleThroughFermi) {
  replay_small("fermi.yaml");
}

// The real H100 vector-add kernel through the fermi preset: the SMs' own counters equal the hardware's.
TEST(AccelSimReplay, H100VectorAddThroughFermi) {
  auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/fermi.yaml");
  auto cfg = gms::SystemConfig::from(doc);
  auto w = gms::load_accelsim_workload(gms::test::sample("h100/kernel-2.traceg.xz"));
  gms::RunOptions opt;
  opt.progress = false;
  gms::GpuSystem sys(cfg, *w, opt);
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  EXPECT_EQ(sys.stats().value("system.warp_insts"), 245760);
  EXPECT_EQ(sys.stats().value("system.line_requests"), 245760);
  EXPECT_EQ(sum_sms(sys.stats(), "load_sectors"), 655360);
  EXPECT_EQ(sum_sms(sys.stats(), "store_sectors"), 327680);
  EXPECT_EQ(sys.checker()->mismatches(), 0u);
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
}
