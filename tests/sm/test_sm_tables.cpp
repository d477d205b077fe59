// The SM's in-flight tables grow with what is actually in flight, not with the configured limits: the
// largest limit (65535 requests per SM and per warp) costs nothing until requests are sent.
#include <gtest/gtest.h>

#include "tests/sm/sm_test_system.h"

using namespace gms;
using namespace gms::test;

namespace {

SmParams generous_params() {
  SmParams p;
  p.count = 1;
  p.max_outstanding_per_sm = 65535;
  p.max_outstanding_per_warp = 65535;
  return p;
}

// 4 warps x 4 loads of 8 lines each (one lane per line).
TestKernel eight_line_loads() {
  return make_kernel("k", 1, 4, [](uint32_t, uint32_t w) {
    std::vector<WarpInst> prog;
    for (uint32_t i = 0; i < 4; ++i)
      prog.push_back(make_inst(i, MemKind::Load, 0x100000 * (w + 1) + i * 0x10000, 128, 8));
    return prog;
  });
}

}  // namespace

TEST(SmTables, LargestLimitsCreateNoEntriesUpFront) {
  // 128 SMs with the largest limits: before, each SM filled 65535 instruction records (~22 MB) up front.
  SmSystem sys(generous_params(), 128, {eight_line_loads()}, 5);
  for (const auto& sm : sys.sms) EXPECT_EQ(sm->table_entries(), 0u) << sm->name();
}

TEST(SmTables, EntriesFollowThePeakInFlight) {
  SmSystem sys(generous_params(), 1, {eight_line_loads()}, 40);
  sys.run();
  const double peak = sys.stat("sm0.max_in_flight");
  EXPECT_EQ(sys.stat("sm0.responses"), 4 * 4 * 8);
  ASSERT_GT(peak, 8);  // several instructions' lines were in flight at once
  // One line entry per line in flight at the peak, one instruction entry per instruction in flight (each has
  // at least one line in flight) plus the one in the pipeline.
  EXPECT_GE(sys.sms[0]->table_entries(), size_t(peak) + 1);
  EXPECT_LE(sys.sms[0]->table_entries(), 2 * size_t(peak) + 1);
}
