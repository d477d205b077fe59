#include "tests/system/system_case.h"

#include <cstdio>

#include "models/common/config.h"
#include "tb/checker/golden_memory.h"
#include "tb/system/multi_program.h"
#include "tb/workloads/workload_loader.h"

namespace gms::test {

Case make_case(const std::string& config, const std::string& variant, const std::string& workload,
               std::vector<std::string> overrides) {
  Case c;
  c.name = config + "_" + variant + "_" + workload;
  c.config = config;
  c.workload = workload;
  c.overrides = std::move(overrides);
  return c;
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

std::unique_ptr<gms::GpuSystem> run_checked(const Case& c, gms::Workload* workload) {
  // Every link runs through a TLM base-protocol checker (models/protocol): zero violations below.
  std::vector<std::string> sets = c.overrides;
  sets.push_back("system.protocol_check=true");
  const gms::SystemConfig cfg = load_config(c.config, sets);
  const std::string path = c.workload_path.empty()
                               ? std::string(GMS_SOURCE_DIR) + "/configs/workloads/" + c.workload + ".yaml"
                               : c.workload_path;
  std::unique_ptr<gms::Workload> single;
  gms::LoadedPrograms progs;
  std::unique_ptr<gms::GpuSystem> sys;
  if (workload) {
    sys = std::make_unique<gms::GpuSystem>(cfg, *workload, quiet());
  } else if (gms::is_multi_program_file(path)) {
    progs = gms::load_multi_program(path, cfg.sm.count);
    sys = std::make_unique<gms::GpuSystem>(cfg, progs.specs, quiet());
    for (size_t i = 0; i < progs.workloads.size(); ++i) progs.workloads[i]->attach(sys->program_stats(i));
  } else {
    single = gms::load_workload_file(path);
    sys = std::make_unique<gms::GpuSystem>(cfg, *single, quiet());
  }
  const gms::RunResult r = sys->run();
  if (!r.finished) {
    ADD_FAILURE() << "the run did not finish: " << r.error;
    return nullptr;
  }

  // The data contract: every program's loads checked, none differ, no conflicting writes.
  EXPECT_GE(sys->programs(), 1u);
  for (size_t p = 0; p < sys->programs(); ++p) {
    if (!sys->checker(p)) {
      ADD_FAILURE() << "program " << p << " has no checker";
      continue;
    }
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

  EXPECT_EQ(s.value("system.protocol_violations"), 0);
  const double sm_cycles = s.value("system.sm_cycles");
  EXPECT_GT(sm_cycles, 0);
  std::printf("[ sm_cycles ] %s %s", c.config.c_str(), c.workload.c_str());
  for (const auto& o : c.overrides) std::printf(" %s", o.c_str());
  std::printf(" : %.0f cycles (wall %.2f s)\n", sm_cycles, r.wall_seconds);
  ::testing::Test::RecordProperty("sm_cycles", std::to_string(uint64_t(sm_cycles)));
  return sys;
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  return i.param.name;
}

}  // namespace gms::test
