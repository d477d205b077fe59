// Every registered L1 design on the fermi preset with the mixed load/store workload (four kernels,
// streaming, strided, random and hot/cold, stores among the loads): the golden check finds 0 mismatches,
// every block answers every request, and the design's own counters add up. One process per design.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/l1/l1_cache.h"
#include "tb/checker/golden_memory.h"
#include "tb/system/gpu_system.h"
#include "tb/workloads/workload_loader.h"

namespace {

void run_mix(const std::vector<std::string>& overrides) {
  auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/fermi.yaml");
  for (const auto& o : overrides) doc.apply_override(o);
  auto cfg = gms::SystemConfig::from(doc);
  auto wl = gms::load_workload_file(std::string(GMS_SOURCE_DIR) + "/configs/workloads/mix.yaml");
  gms::RunOptions ro;
  ro.progress = false;
  gms::GpuSystem sys(cfg, *wl, ro);
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  ASSERT_NE(sys.checker(), nullptr);
  EXPECT_GT(sys.checker()->loads_checked(), 10000u);
  EXPECT_EQ(sys.checker()->mismatches(), 0u);
  EXPECT_EQ(sys.checker()->write_conflicts(), 0u);
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
  const auto& s = sys.stats();
  double sm_load_insts = 0, l1_load_insts = 0;
  for (unsigned i = 0; i < cfg.sm.count; ++i) {
    sm_load_insts += s.value("sm" + std::to_string(i) + ".load_insts");
    l1_load_insts += s.value("l1_" + std::to_string(i) + ".load_insts");
    const std::string l1 = "l1_" + std::to_string(i) + ".";
    const double loads = s.value(l1 + "loads");
    // Every load served is exactly one of the outcomes, and every request got one response.
    EXPECT_EQ(loads, s.value(l1 + "hits") + s.value(l1 + "hit_pending") + s.value(l1 + "misses") +
                         s.value(l1 + "partial_hits") + s.value(l1 + "bypasses"))
        << l1;
    EXPECT_EQ(s.value(l1 + "requests"), s.value(l1 + "responses")) << l1;
    EXPECT_EQ(s.value(l1 + "accesses"), loads + s.value(l1 + "stores") + s.value(l1 + "reservation_fails"))
        << l1;
    EXPECT_LE(s.value(l1 + "load_insts_missed"), s.value(l1 + "load_insts")) << l1;
  }
  // The L1s see each load instruction once, however many requests it became (MemReq::inst).
  EXPECT_EQ(l1_load_insts, sm_load_insts);
}

class L1Design : public ::testing::TestWithParam<std::string> {};

TEST_P(L1Design, MixedLoadStoreKernelsHaveZeroMismatchesAndEveryRequestAnswered) {
  run_mix({"l1.design=" + GetParam()});
}

// Small lines: the SM coalesces to 32 or 64 B (one request per small line), the baseline stores them.
class L1SmallLines : public ::testing::TestWithParam<unsigned> {};

TEST_P(L1SmallLines, MixedLoadStoreKernelsHaveZeroMismatchesAndEveryRequestAnswered) {
  run_mix({"l1.line_bytes=" + std::to_string(GetParam()), "l1.set_index=linear"});
}

INSTANTIATE_TEST_SUITE_P(Bytes, L1SmallLines, ::testing::Values(32u, 64u));

// A 28 KiB L1 (the H100's smallest carve-out): 56 sets, a set count that is not a power of two.
class L1NonPowerOfTwoSets : public ::testing::TestWithParam<std::string> {};

TEST_P(L1NonPowerOfTwoSets, MixedLoadStoreKernelsHaveZeroMismatchesAndEveryRequestAnswered) {
  run_mix({"l1.design=" + GetParam(), "l1.size_bytes=28672", "l1.set_index=linear"});
}

INSTANTIATE_TEST_SUITE_P(Designs, L1NonPowerOfTwoSets,
                         ::testing::Values("baseline", "sector", "tsc", "gcache"));

INSTANTIATE_TEST_SUITE_P(Every, L1Design, ::testing::ValuesIn(gms::l1_design_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
