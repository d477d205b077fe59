#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/sm/gto_scheduler.h"
#include "models/sm/lrr_scheduler.h"
#include "models/sm/sm_params.h"

using gms::ConfigError;
using gms::ConfigNode;
using gms::SmParams;

namespace {
std::string error_of(const std::string& yaml) {
  try {
    SmParams::from(ConfigNode::load_string(yaml, "sm.yaml").child("sm"));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
gms::WarpReadiness readiness(std::vector<uint8_t> ready, std::vector<uint64_t> age) {
  gms::WarpReadiness r{gms::SlotMask(ready.size()), age};
  for (uint32_t s = 0; s < ready.size(); ++s) r.ready.assign(s, ready[s] != 0);
  return r;
}
}  // namespace

TEST(SmParams, DefaultsAreFermi) {
  SmParams p = SmParams::from(ConfigNode::load_string("sm: {}\n", "d.yaml").child("sm"));
  EXPECT_EQ(p.count, 15u);
  EXPECT_DOUBLE_EQ(p.clock_mhz, 1400.0);
  EXPECT_EQ(p.max_warps, 48u);
  EXPECT_EQ(p.max_threads, 1536u);
  EXPECT_EQ(p.max_ctas, 8u);
  EXPECT_EQ(p.max_regs, 32768u);
  EXPECT_EQ(p.max_shmem, 49152u);
  EXPECT_EQ(p.scheduler, gms::SchedulerKind::Gto);
  EXPECT_EQ(p.max_outstanding_per_warp, 8u);
  EXPECT_EQ(p.max_outstanding_per_sm, 64u);
  EXPECT_EQ(p.schedulers, 1u);
  EXPECT_TRUE(p.scoreboard);
}

TEST(SmParams, ReadsEveryKey) {
  SmParams p =
      SmParams::from(ConfigNode::load_string(
                         "sm:\n  count: 80\n  clock_mhz: 1530\n  max_warps: 64\n  max_threads: 2048\n"
                         "  max_ctas: 32\n  max_regs: 65536\n  max_shmem: 65536\n  scheduler: lrr\n"
                         "  max_outstanding_per_warp: 6\n  max_outstanding_per_sm: 128\n  schedulers: 4\n"
                         "  scoreboard: false\n",
                         "v.yaml")
                         .child("sm"));
  EXPECT_EQ(p.count, 80u);
  EXPECT_DOUBLE_EQ(p.clock_mhz, 1530.0);
  EXPECT_EQ(p.max_warps, 64u);
  EXPECT_EQ(p.max_threads, 2048u);
  EXPECT_EQ(p.max_ctas, 32u);
  EXPECT_EQ(p.max_regs, 65536u);
  EXPECT_EQ(p.max_shmem, 65536u);
  EXPECT_EQ(p.scheduler, gms::SchedulerKind::Lrr);
  EXPECT_EQ(p.max_outstanding_per_warp, 6u);
  EXPECT_EQ(p.max_outstanding_per_sm, 128u);
  EXPECT_EQ(p.schedulers, 4u);
  EXPECT_FALSE(p.scoreboard);
}

TEST(SmParams, RejectsBadValues) {
  EXPECT_EQ(error_of("sm:\n  count: 0\n"), "sm.yaml:2: sm.count: value 0 out of range [1, 4096]");
  EXPECT_EQ(error_of("sm:\n  scheduler: rr\n"), "sm.yaml:2: sm.scheduler: 'rr' is not one of: gto, lrr");
  EXPECT_EQ(error_of("sm:\n  max_threads: 16\n"),
            "sm.yaml:2: sm.max_threads: value 16 out of range [32, 1048576]");
  EXPECT_EQ(error_of("sm:\n  max_outstanding_per_sm: 70000\n"),
            "sm.yaml:2: sm.max_outstanding_per_sm: value 70000 out of range [1, 65535]");
  EXPECT_EQ(error_of("sm:\n  max_outstanding_per_warp: 9\n  max_outstanding_per_sm: 8\n"),
            "sm.yaml:2: sm.max_outstanding_per_warp: value 9 exceeds max_outstanding_per_sm (8)");
  EXPECT_EQ(error_of("sm:\n  max_warps: 2\n  schedulers: 4\n"),
            "sm.yaml:3: sm.schedulers: value 4 exceeds max_warps (2): a sub-partition without a warp slot");
  EXPECT_EQ(error_of("sm:\n  scoreboard: maybe\n"),
            "sm.yaml:2: sm.scoreboard: expected true or false, got 'maybe'");
  EXPECT_EQ(error_of("sm:\n  max_warp: 4\n"), "sm.yaml:2: sm.max_warp: unknown key");
  EXPECT_EQ(error_of("sm:\n  clock_mhz: fast\n"), "sm.yaml:2: sm.clock_mhz: expected a number, got 'fast'");
}

TEST(WarpScheduler, LrrRotatesAfterTheLastIssued) {
  gms::LrrScheduler s(4);
  auto r = readiness({1, 1, 0, 1}, {0, 1, 2, 3});
  EXPECT_EQ(s.pick(r), 0);
  EXPECT_EQ(s.pick(r), 1);
  EXPECT_EQ(s.pick(r), 3);  // 2 not ready
  EXPECT_EQ(s.pick(r), 0);
  r = readiness({0, 0, 1, 0}, {0, 1, 2, 3});
  EXPECT_EQ(s.pick(r), 2);
  r = readiness({1, 1, 1, 1}, {0, 1, 2, 3});
  EXPECT_EQ(s.pick(r), 3);
  r = readiness({0, 0, 0, 0}, {0, 1, 2, 3});
  EXPECT_EQ(s.pick(r), -1);
}

TEST(WarpScheduler, GtoStaysGreedyThenTakesTheOldest) {
  gms::GtoScheduler s(4);
  auto r = readiness({1, 1, 1, 1}, {7, 5, 6, 9});
  EXPECT_EQ(s.pick(r), 1);  // oldest (age 5)
  EXPECT_EQ(s.pick(r), 1);  // greedy
  r = readiness({1, 0, 1, 1}, {7, 5, 6, 9});
  EXPECT_EQ(s.pick(r), 2);  // greedy warp not ready: oldest ready (age 6)
  r = readiness({1, 1, 1, 1}, {7, 5, 6, 9});
  EXPECT_EQ(s.pick(r), 2);  // stays with the new greedy warp although slot 1 is older
  r = readiness({1, 1, 1, 1}, {7, 5, 10, 9});
  EXPECT_EQ(s.pick(r), 1);  // slot 2 now holds a different (new) warp: not greedy any more
  r = readiness({0, 0, 0, 0}, {7, 5, 10, 9});
  EXPECT_EQ(s.pick(r), -1);
}
