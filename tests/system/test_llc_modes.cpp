// LLC organisations in the whole system (paper 004; models/llc/llc_mode_controller.h): every workload
// under a private LLC and under forced shared <-> private switches mid-kernel (drain, write-back or
// invalidation, MC-router gating, resume) and under the adaptive controller, on the full crossbar and the
// H-Xbar, finds every byte (0
// mismatches) and every block answers every request; the switches really happened, in simulated time; and
// the sharing-intensive workload runs faster under a private LLC (paper 004's direction). One process per
// case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tb/system/multi_program.h"
#include "tests/config_error_of.h"
#include "tests/system/system_case.h"

namespace {

using gms::test::Case;
using gms::test::make_case;

const std::vector<std::string> kWorkloads = {
    "bfs",      "colmajor_copy", "kmeans",       "matmul",         "mix",           "sharing", "small",
    "spmv_csr", "stencil2d",     "two_programs", "two_programs_a", "two_programs_b"};

std::vector<Case> mode_cases() {
  std::vector<Case> v;
  for (const auto& w : kWorkloads) {
    v.push_back(make_case("fermi", "private_full", w, {"llc.mode=private"}));
    v.push_back(make_case("fermi", "private_hxbar", w, {"llc.mode=private", "noc.type=hxbar"}));
    // A switch every 2,000 LLC cycles: several per kernel on the longer workloads.
    v.push_back(make_case("fermi", "switching_hxbar", w, {"noc.type=hxbar", "llc.force_switch_cycles=2000"}));
    v.push_back(make_case("tiny", "switching_full", w, {"llc.force_switch_cycles=1000"}));
    // The adaptive controller with windows short enough to decide within these workloads.
    v.push_back(make_case("fermi", "adaptive_hxbar", w,
                          {"noc.type=hxbar", "llc.mode=adaptive", "llc.adaptive.profile_cycles=500",
                           "llc.adaptive.epoch_cycles=20000"}));
  }
  return v;
}

class LlcModes : public ::testing::TestWithParam<Case> {};

TEST_P(LlcModes, EveryByteSurvivesAndEveryRequestIsAnswered) {
  const Case& c = GetParam();
  auto sys = gms::test::run_checked(c);
  ASSERT_TRUE(sys);
  const gms::StatGroup& s = sys->stats();
  const bool switching = c.name.find("switching") != std::string::npos;
  const double to_private = s.value("llc_mode.to_private"), to_shared = s.value("llc_mode.to_shared");
  if (switching) {
    // Toggles alternate, starting shared: as many to shared as to private, or one fewer.
    EXPECT_TRUE(to_private == to_shared || to_private == to_shared + 1) << to_private << " " << to_shared;
    if (c.workload == "colmajor_copy") {
      EXPECT_GE(to_private, 3) << "several switches mid-kernel";
      // Each switch costs simulated time: at least the MC-routers' gate or wake cycles (20 NoC cycles).
      EXPECT_GE(s.value("llc_mode.reconfig_cycles"), 20 * (to_private + to_shared));
      EXPECT_GT(s.value("llc_mode.lines_written_back") + s.value("llc_mode.lines_invalidated"), 0);
    }
  } else if (c.name.find("adaptive") != std::string::npos) {
    // Every switch the policy made went through, and each to-private came from Rule 1 or 2.
    EXPECT_EQ(to_private, s.value("llc_adaptive.rule1") + s.value("llc_adaptive.rule2"));
    EXPECT_LE(to_shared, to_private);
  } else {
    EXPECT_EQ(to_private + to_shared, 0);
    EXPECT_GE(s.value("llc_mode.kernel_flushes"), 1) << "the private slices are flushed at kernel ends";
  }
  if (c.name.find("private_hxbar") != std::string::npos) {
    // Private: the MC-routers were gated from the start, so requests crossed them only through the bypass.
    EXPECT_EQ(s.value("xbar.req.crossbar_traversals"), s.value("xbar.req.link_flits") / 3)
        << "SM-routers only: each request flit crosses one switch and three links";
    EXPECT_GT(s.value("xbar.req.bypassed_flits"), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Organisations, LlcModes, ::testing::ValuesIn(mode_cases()), gms::test::case_name);

// Two programs with their own organisations at once (tests/data/llc_adaptive/two_orgs.yaml): the private
// one on SMs 0-7 (fermi's cluster 0) sends every request to its cluster's slice of each controller (the
// even slices), the shared one spreads over all; the MC-routers stay on; the slices are flushed at kernel
// ends (the private program's copies); every byte checked.
TEST(LlcModesMultiProgram, TwoProgramsSeeDifferentOrganisationsAtOnce) {
  Case c = make_case("fermi", "two_orgs", "two_orgs", {"noc.type=hxbar"});
  c.workload_path = std::string(GMS_SOURCE_DIR) + "/tests/data/llc_adaptive/two_orgs.yaml";
  auto sys = gms::test::run_checked(c);
  ASSERT_TRUE(sys);
  const gms::StatGroup& s = sys->stats();
  double even = 0, odd = 0;
  for (int i = 0; i < 12; ++i) (i % 2 ? odd : even) += s.value("llc" + std::to_string(i) + ".accesses");
  EXPECT_GT(even, 2 * odd) << "even " << even << " odd " << odd;
  EXPECT_GT(odd, 0) << "the shared program uses every slice";
  EXPECT_EQ(s.value("xbar.req.mc_router0.gated_cycles"), 0);
  EXPECT_EQ(s.value("xbar.req.mc_router0.bypassed_flits"), 0);
  EXPECT_GE(s.value("llc_mode.kernel_flushes"), 1);
  EXPECT_EQ(s.value("llc_mode.to_private") + s.value("llc_mode.to_shared"), 0);
}

TEST(LlcModesMultiProgram, PerProgramModesRefuseAnAdaptiveOrSwitchingLlc) {
  const std::string path = std::string(GMS_SOURCE_DIR) + "/tests/data/llc_adaptive/two_orgs.yaml";
  const gms::SystemConfig cfg = gms::test::load_config("fermi", {"llc.mode=adaptive"});
  gms::LoadedPrograms progs = gms::load_multi_program(path, cfg.sm.count);
  EXPECT_EQ(config_error_of([&] { gms::GpuSystem sys(cfg, progs.specs, gms::test::quiet()); }),
            "llc.mode: per-program llc_mode (programs file) needs llc.mode shared or private and no "
            "llc.force_switch_cycles: the organisation of each program is fixed");
}

}  // namespace
