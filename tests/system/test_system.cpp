// Whole-system tests: the data contract (golden memory), the one-response rule, corruption detection.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "models/common/memory_image.h"
#include "models/dram/backing_store.h"
#include "tb/checker/golden_memory.h"
#include "tb/system/gpu_system.h"
#include "tb/system/multi_program.h"
#include "tb/workloads/workload_loader.h"

namespace {

gms::SystemConfig load_config(const std::string& name, const std::vector<std::string>& sets = {}) {
  auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/" + name);
  for (const auto& s : sets) doc.apply_override(s);
  return gms::SystemConfig::from(doc);
}

std::unique_ptr<gms::Workload> load_wl(const std::string& name) {
  return gms::load_workload_file(std::string(GMS_SOURCE_DIR) + "/configs/workloads/" + name);
}

gms::RunOptions quiet() {
  gms::RunOptions o;
  o.progress = false;
  return o;
}

}  // namespace

TEST(System, FermiMixedLoadStoreHasZeroMismatches) {
  auto cfg = load_config("fermi.yaml");
  auto wl = load_wl("mix.yaml");
  gms::GpuSystem sys(cfg, *wl, quiet());
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  ASSERT_NE(sys.checker(), nullptr);
  EXPECT_GT(sys.checker()->loads_checked(), 10000u);
  EXPECT_EQ(sys.checker()->mismatches(), 0u);
  EXPECT_EQ(sys.checker()->write_conflicts(), 0u);
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
  // Every block took part.
  EXPECT_GT(sys.stats().value("system.l1_accesses"), 0);
  EXPECT_GT(sys.stats().value("system.llc_accesses"), 0);
  EXPECT_GT(sys.stats().value("system.dram_bytes"), 0);
  EXPECT_GT(sys.stats().value("system.l1_hit_rate"), 0.0);  // hot/cold kernel reuses lines
}

// Paper 004's 96 KB 16-way slice (48 sets, issue 12) in the Fermi system: lines are evicted and written
// back through the non-power-of-two index and every load still sees the right bytes.
TEST(System, FortyEightSetLlcSlicesHaveZeroMismatches) {
  auto cfg = load_config("fermi.yaml", {"llc.size_bytes=98304", "llc.ways=16"});
  ASSERT_EQ(cfg.llc.sets(), 48u);
  auto wl = load_wl("mix.yaml");
  gms::GpuSystem sys(cfg, *wl, quiet());
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  EXPECT_GT(sys.checker()->loads_checked(), 10000u);
  EXPECT_EQ(sys.checker()->mismatches(), 0u);
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
  double writebacks = 0;
  for (unsigned s = 0; s < cfg.llc.slices; ++s)
    writebacks += sys.stats().value("llc" + std::to_string(s) + ".writebacks");
  EXPECT_GT(writebacks, 1000);
}

TEST(System, TinySmallWorkloadAnswersEveryRequest) {
  auto cfg = load_config("tiny.yaml");
  auto wl = load_wl("small.yaml");
  gms::GpuSystem sys(cfg, *wl, quiet());
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  EXPECT_EQ(sys.checker()->mismatches(), 0u);
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
  // Requests counted at the SM equal the responses the SMs received, and the L1s saw them all.
  EXPECT_EQ(sys.stats().value("sm0.requests") + sys.stats().value("sm1.requests"),
            sys.stats().value("system.line_requests"));
  EXPECT_EQ(sys.stats().value("system.l1_accesses"), sys.stats().value("system.line_requests"));
}

TEST(System, CorruptedBackingStoreIsCaught) {
  auto cfg = load_config("tiny.yaml");
  auto wl = load_wl("small.yaml");
  gms::GpuSystem sys(cfg, *wl, quiet());
  // Flip bytes the second kernel reads (it reads the first kernel's region) without telling the checker.
  for (uint64_t a = 0x100000 + 0x8000; a < 0x100000 + 0x8000 + 4096; ++a) {
    uint8_t b = uint8_t(gms::initial_byte(a) ^ 0x5a);
    sys.memory().write(a, &b, 1, nullptr);
  }
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  EXPECT_GT(sys.checker()->mismatches(), 0u);
}

TEST(System, TwoProgramsShareTheGpuEachOnItsOwnSms) {
  auto cfg = load_config("tiny.yaml");
  gms::LoadedPrograms progs = gms::load_multi_program(
      std::string(GMS_SOURCE_DIR) + "/configs/workloads/two_programs.yaml", cfg.sm.count);
  ASSERT_EQ(progs.specs.size(), 2u);
  gms::GpuSystem sys(cfg, progs.specs, quiet());
  for (size_t i = 0; i < progs.workloads.size(); ++i) progs.workloads[i]->attach(sys.program_stats(i));
  gms::RunResult r = sys.run();
  ASSERT_TRUE(r.finished) << r.error;
  std::string report;
  EXPECT_TRUE(sys.all_requests_answered(&report)) << report;
  EXPECT_EQ(sys.mismatches(), 0u);
  EXPECT_GT(sys.checker(0)->loads_checked(), 0u);
  EXPECT_GT(sys.checker(1)->loads_checked(), 0u);
  // Each program's kernels ran on its own SM only: SM i issued exactly program i's instructions.
  const gms::StatGroup& s = sys.stats();
  EXPECT_EQ(s.value("sm0.warp_insts"),
            s.value("streamer.workload.inst_executed_ld") + s.value("streamer.workload.inst_executed_st"));
  EXPECT_EQ(s.value("sm1.warp_insts"),
            s.value("hotcold.workload.inst_executed_ld") + s.value("hotcold.workload.inst_executed_st"));
  EXPECT_EQ(s.value("streamer.kernels.kernels"), 2);  // its own kernel boundaries
  EXPECT_EQ(s.value("hotcold.kernels.kernels"), 1);
  // streaming: 2 kernels x 8 CTAs x 4 warps x 8 instructions; hotcold: 8 CTAs x 4 warps x 16.
  EXPECT_EQ(s.value("sm0.warp_insts"), 2 * 8 * 4 * 8);
  EXPECT_EQ(s.value("sm1.warp_insts"), 8 * 4 * 16);
}
