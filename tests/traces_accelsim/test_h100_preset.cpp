// The H100 preset (configs/h100.yaml) on the two real H100 kernels at both carve-outs: the counts equal
// Nsight's, every load checks against the golden memory, and the sector hit rates land within the issue's
// accuracy targets of the hardware figures in ../shared/traces/h100-sample/README.md (L1 load sector hit
// rate within 2 points, L2 sector hit rate within 3). The rates come from modelled mechanisms, not fitting:
// docs/presets.md.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "tb/checker/golden_memory.h"
#include "tb/system/gpu_system.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

using gms::test::sum_sms;

struct Case {
  const char* kernel;
  uint32_t l1_bytes;
  double load_sectors, store_sectors;
  double hw_l1, hw_l2;  // hardware L1 load sector hit rate, L2 sector hit rate (%)
};

class H100Preset : public ::testing::TestWithParam<Case> {};

TEST_P(H100Preset, CountsMatchNsightAndHitRatesLandWithinTheTargets) {
  const Case& c = GetParam();
  auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/h100.yaml");
  auto cfg = gms::SystemConfig::from(doc);
  cfg.l1.size_bytes = c.l1_bytes;
  cfg.sm.max_shmem = 256 * 1024 - c.l1_bytes;
  auto w = gms::load_accelsim_workload(gms::test::sample(std::string("h100/") + c.kernel));
  gms::RunOptions opt;
  opt.progress = false;
  opt.check_data = true;
  gms::GpuSystem sys(cfg, *w, opt);
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  gms::StatGroup& s = sys.stats();
  EXPECT_EQ(sum_sms(s, "load_sectors"), c.load_sectors);
  EXPECT_EQ(sum_sms(s, "store_sectors"), c.store_sectors);
  EXPECT_EQ(s.value("system.warp_insts"), 245760);
  EXPECT_EQ(sys.checker()->mismatches(), 0u);
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
  const double l1 = 100 * s.value("system.l1_load_sector_hit_rate");
  const double l2 = 100 * s.value("system.llc_sector_hit_rate");
  EXPECT_NEAR(l1, c.hw_l1, 2.0);
  EXPECT_NEAR(l2, c.hw_l2, 3.0);
}

INSTANTIATE_TEST_SUITE_P(Samples, H100Preset,
                         ::testing::Values(Case{"kernel-2.traceg.xz", 229376, 655360, 327680, 0.0, 36.2},
                                           Case{"kernel-2.traceg.xz", 28672, 655360, 327680, 0.0, 36.1},
                                           Case{"kernel-6.traceg.xz", 229376, 898560, 163840, 68.4, 66.0},
                                           Case{"kernel-6.traceg.xz", 28672, 898560, 163840, 68.4, 66.1}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return std::string(i.param.kernel[7] == '2' ? "vecadd" : "stencil") +
                                  (i.param.l1_bytes > 100000 ? "_224k" : "_28k");
                         });

}  // namespace
