// Every interconnect topology (noc.type full, crossbar, concentrated, hxbar) in the whole system, on the
// tiny and fermi presets with every workload file of configs/workloads/: the run finishes, the golden
// check finds 0 mismatches, every block answers every request, and the NoC's packet counts equal the
// LLC's requests and responses. Router variants (2 VCs of 4 flits, shorter than a 5-flit line packet;
// separable round-robin allocation) on hxbar and on concentrated with 4 terminals per port. A config
// error for an H-Xbar that breaks the co-design rule. One process per case (gtest_discover_tests).
//
// Each case prints its SM cycles ("[ sm_cycles ] ...") to compare topologies; only sanity is asserted.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "tb/checker/golden_memory.h"
#include "tb/system/gpu_system.h"
#include "tb/system/multi_program.h"
#include "tb/workloads/workload_loader.h"
#include "tests/config_error_of.h"

namespace {

struct Case {
  std::string name;    // test name suffix: config_variant_workload
  std::string config;  // preset in configs/
  std::string workload;
  std::vector<std::string> overrides;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.config << " " << c.workload;
  for (const auto& o : c.overrides) *os << " " << o;
}

const std::vector<std::string> kTypes = {"full", "crossbar", "concentrated", "hxbar"};

// Every workload file in configs/workloads/ (each runs in well under a second on tiny and fermi);
// two_programs.yaml is the multi-program document over two_programs_a and two_programs_b.
const std::vector<std::string> kWorkloads = {
    "bfs",      "colmajor_copy", "kmeans",       "matmul",         "mix",           "sharing", "small",
    "spmv_csr", "stencil2d",     "two_programs", "two_programs_a", "two_programs_b"};

// Router variants: 2 VCs x 4 flits per input port (a 128 B line packet is 5 flits, so wormhole packets
// span buffers) and separable round-robin allocation.
const std::vector<std::string> kRouterVariant = {"noc.router.vcs=2", "noc.router.vc_buffer_flits=4",
                                                 "noc.router.allocator=rr"};

Case make_case(const std::string& config, const std::string& variant, const std::string& workload,
               std::vector<std::string> overrides) {
  Case c;
  c.name = config + "_" + variant + "_" + workload;
  c.config = config;
  c.workload = workload;
  c.overrides = std::move(overrides);
  return c;
}

std::vector<Case> topology_cases(const std::string& config) {
  std::vector<Case> v;
  for (const auto& t : kTypes)
    for (const auto& w : kWorkloads) v.push_back(make_case(config, t, w, {"noc.type=" + t}));
  return v;
}

std::vector<Case> router_variant_cases() {
  std::vector<Case> v;
  for (const auto& w : kWorkloads) {
    std::vector<std::string> hx = {"noc.type=hxbar"};
    hx.insert(hx.end(), kRouterVariant.begin(), kRouterVariant.end());
    v.push_back(make_case("fermi", "hxbar_vc2_buf4_rr", w, hx));
    std::vector<std::string> conc = {"noc.type=concentrated", "noc.concentration=4"};
    conc.insert(conc.end(), kRouterVariant.begin(), kRouterVariant.end());
    v.push_back(make_case("fermi", "concentrated4_vc2_buf4_rr", w, conc));
  }
  return v;
}

gms::SystemConfig load_config(const std::string& name, const std::vector<std::string>& sets) {
  auto doc = gms::ConfigNode::load_file(std::string(GMS_SOURCE_DIR) + "/configs/" + name + ".yaml");
  for (const auto& s : sets) doc.apply_override(s);
  return gms::SystemConfig::from(doc);
}

gms::RunOptions quiet() {
  gms::RunOptions o;
  o.progress = false;
  return o;
}

// Sum of `counter` over the LLC slices.
double llc_sum(const gms::StatGroup& s, unsigned slices, const std::string& counter) {
  double n = 0;
  for (unsigned i = 0; i < slices; ++i) n += s.value("llc" + std::to_string(i) + "." + counter);
  return n;
}

void run_case(const Case& c) {
  const gms::SystemConfig cfg = load_config(c.config, c.overrides);
  const std::string path = std::string(GMS_SOURCE_DIR) + "/configs/workloads/" + c.workload + ".yaml";
  std::unique_ptr<gms::Workload> single;
  gms::LoadedPrograms progs;
  std::unique_ptr<gms::GpuSystem> sys;
  if (gms::is_multi_program_file(path)) {
    progs = gms::load_multi_program(path, cfg.sm.count);
    sys = std::make_unique<gms::GpuSystem>(cfg, progs.specs, quiet());
    for (size_t i = 0; i < progs.workloads.size(); ++i) progs.workloads[i]->attach(sys->program_stats(i));
  } else {
    single = gms::load_workload_file(path);
    sys = std::make_unique<gms::GpuSystem>(cfg, *single, quiet());
  }
  const gms::RunResult r = sys->run();
  ASSERT_TRUE(r.finished) << r.error;

  // The data contract: every program's loads checked, none differ, no conflicting writes.
  ASSERT_GE(sys->programs(), 1u);
  for (size_t p = 0; p < sys->programs(); ++p) {
    ASSERT_NE(sys->checker(p), nullptr);
    EXPECT_GT(sys->checker(p)->loads_checked(), 0u) << "program " << p;
    EXPECT_EQ(sys->checker(p)->write_conflicts(), 0u) << "program " << p;
  }
  EXPECT_EQ(sys->mismatches(), 0u);

  // One response per request, in every block (SMs, L1s, NoC, LLC slices, DRAM channels).
  std::string report;
  EXPECT_TRUE(sys->all_requests_answered(&report)) << report;

  // The NoC carried each LLC request once and each LLC response once.
  const gms::StatGroup& s = sys->stats();
  const unsigned slices = cfg.llc.slices;
  const double req_packets = s.value("xbar.req.packets"), resp_packets = s.value("xbar.resp.packets");
  EXPECT_GT(req_packets, 0);
  EXPECT_EQ(s.value("xbar.functional"), 0);
  EXPECT_EQ(req_packets, s.value("xbar.requests"));
  EXPECT_EQ(req_packets, llc_sum(s, slices, "requests"));
  EXPECT_EQ(req_packets, s.value("system.llc_accesses"));
  EXPECT_EQ(resp_packets, llc_sum(s, slices, "responses"));
  EXPECT_EQ(resp_packets, s.value("xbar.responses"));
  EXPECT_EQ(resp_packets, req_packets);
  // Every packet is at least one flit.
  EXPECT_GE(s.value("system.noc_request_flits"), req_packets);
  EXPECT_GE(s.value("system.noc_reply_flits"), resp_packets);

  const double sm_cycles = s.value("system.sm_cycles");
  EXPECT_GT(sm_cycles, 0);
  std::printf("[ sm_cycles ] %s %s", c.config.c_str(), c.workload.c_str());
  for (const auto& o : c.overrides) std::printf(" %s", o.c_str());
  std::printf(" : %.0f cycles (wall %.2f s)\n", sm_cycles, r.wall_seconds);
  ::testing::Test::RecordProperty("sm_cycles", std::to_string(uint64_t(sm_cycles)));
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  return i.param.name;
}

class NocTopology : public ::testing::TestWithParam<Case> {};

TEST_P(NocTopology, RunsWithZeroMismatchesAndEveryPacketAccounted) {
  run_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Tiny, NocTopology, ::testing::ValuesIn(topology_cases("tiny")), case_name);
INSTANTIATE_TEST_SUITE_P(Fermi, NocTopology, ::testing::ValuesIn(topology_cases("fermi")), case_name);
INSTANTIATE_TEST_SUITE_P(RouterVariants, NocTopology, ::testing::ValuesIn(router_variant_cases()), case_name);
// fermi: 12 LLC slices on 6 DRAM channels, so the co-design rule needs 2 SM-routers; 3 is an error,
// raised when the NoC builds its topology (end of elaboration, inside run()).
TEST(NocTopologyConfig, HxbarClustersBreakingTheCoDesignRuleIsAConfigError) {
  const gms::SystemConfig cfg = load_config("fermi", {"noc.type=hxbar", "noc.hxbar.clusters=3"});
  auto wl = gms::load_workload_file(std::string(GMS_SOURCE_DIR) + "/configs/workloads/small.yaml");
  const std::string msg = config_error_of([&] {
    gms::GpuSystem sys(cfg, *wl, quiet());
    sys.run();
  });
  EXPECT_EQ(msg,
            "noc.hxbar.clusters: 3 SM-routers, but the co-design rule (paper 004 section 4.1) needs one per "
            "LLC slice of a memory controller: 2");
}

}  // namespace
