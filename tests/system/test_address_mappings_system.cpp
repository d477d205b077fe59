// memory_map.mapping in the whole system: pae and hynix on the fermi preset with every workload file and on
// the h100 preset with small.yaml keep the data contract (0 golden mismatches, every request answered);
// every DRAM channel's per-bank histogram counts each queued request once; naming bitfield explicitly
// changes no statistic; hynix with explicit dram.mapping bits is a ConfigError. Each case prints its SM
// cycles and DRAM row-hit rate ("[ mapping ] ...") to compare the mappings. One process per case.
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
#include "tests/cli/cli_runner.h"
#include "tests/config_error_of.h"

namespace {

struct Case {
  std::string config, mapping, workload;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.config << " " << c.mapping << " " << c.workload;
}

const std::vector<std::string> kWorkloads = {
    "bfs",      "colmajor_copy", "kmeans",       "matmul",         "mix",           "sharing", "small",
    "spmv_csr", "stencil2d",     "two_programs", "two_programs_a", "two_programs_b"};

std::vector<Case> cases() {
  std::vector<Case> v;
  for (const char* m : {"pae", "hynix"})
    for (const auto& w : kWorkloads) v.push_back({"fermi", m, w});
  for (const char* m : {"bitfield", "pae", "hynix"}) v.push_back({"h100", m, "small"});
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

struct Ran {
  std::unique_ptr<gms::Workload> single;
  gms::LoadedPrograms progs;
  std::unique_ptr<gms::GpuSystem> sys;
  gms::RunResult result;
};

std::unique_ptr<Ran> run(const gms::SystemConfig& cfg, const std::string& workload) {
  auto r = std::make_unique<Ran>();
  const std::string path = std::string(GMS_SOURCE_DIR) + "/configs/workloads/" + workload + ".yaml";
  if (gms::is_multi_program_file(path)) {
    r->progs = gms::load_multi_program(path, cfg.sm.count);
    r->sys = std::make_unique<gms::GpuSystem>(cfg, r->progs.specs, quiet());
    for (size_t i = 0; i < r->progs.workloads.size(); ++i)
      r->progs.workloads[i]->attach(r->sys->program_stats(i));
  } else {
    r->single = gms::load_workload_file(path);
    r->sys = std::make_unique<gms::GpuSystem>(cfg, *r->single, quiet());
  }
  r->result = r->sys->run();
  return r;
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  return i.param.config + "_" + i.param.mapping + "_" + i.param.workload;
}

class AddressMappingSystem : public ::testing::TestWithParam<Case> {};

TEST_P(AddressMappingSystem, RunsWithZeroMismatches) {
  const Case& c = GetParam();
  const gms::SystemConfig cfg = load_config(c.config, {"memory_map.mapping=" + c.mapping});
  auto r = run(cfg, c.workload);
  ASSERT_TRUE(r->result.finished) << r->result.error;
  for (size_t p = 0; p < r->sys->programs(); ++p) {
    ASSERT_NE(r->sys->checker(p), nullptr);
    EXPECT_GT(r->sys->checker(p)->loads_checked(), 0u) << "program " << p;
  }
  EXPECT_EQ(r->sys->mismatches(), 0u);
  std::string report;
  EXPECT_TRUE(r->sys->all_requests_answered(&report)) << report;
  const gms::StatGroup& s = r->sys->stats();
  for (unsigned ch = 0; ch < cfg.dram.channels; ++ch) {
    const std::string d = "dram" + std::to_string(ch) + ".";
    EXPECT_EQ(s.value(d + "bank_requests"), s.value(d + "reads") + s.value(d + "writes")) << d;
  }
  std::printf("[ mapping ] %s %s %s : %.0f SM cycles, DRAM row-hit rate %.4f\n", c.config.c_str(),
              c.mapping.c_str(), c.workload.c_str(), s.value("system.sm_cycles"),
              s.value("system.dram_row_hit_rate"));
}

INSTANTIATE_TEST_SUITE_P(Presets, AddressMappingSystem, ::testing::ValuesIn(cases()), case_name);

// bitfield is the default: naming it changes no statistic (each run a gpumemsys child process: one
// SystemC elaboration per process; the whole stats.csv is compared).
TEST(AddressMappingConfig, ExplicitBitfieldEqualsTheDefault) {
  EXPECT_EQ(load_config("fermi", {}).memory_map.mapping, gms::AddressMapping::Bitfield);
  auto stats = [](const std::string& name, const std::string& extra) {
    const std::string dir = temp_dir("addrmap_" + name);
    CliResult r = run_cli("run -q -c " + gms_src("configs/fermi.yaml") + " -w " +
                          gms_src("configs/workloads/small.yaml") + " -o " + dir + extra);
    EXPECT_EQ(r.status, 0) << r.out;
    return read_file(dir + "/stats.csv");
  };
  const std::string def = stats("default", ""),
                    named = stats("bitfield", " --set memory_map.mapping=bitfield");
  EXPECT_FALSE(def.empty());
  EXPECT_EQ(def, named);
}

TEST(AddressMappingConfig, HynixSetsTheDramBitOrderAndRejectsExplicitBits) {
  const gms::SystemConfig h = load_config("fermi", {"memory_map.mapping=hynix"});
  EXPECT_EQ(h.dram.column_bits, (std::vector<unsigned>{6, 7, 9, 10, 11}));
  EXPECT_EQ(h.dram.bank_bits, (std::vector<unsigned>{8, 12, 13, 14}));
  EXPECT_EQ(config_error_of([] {
              load_config("fermi", {"memory_map.mapping=hynix", "dram.mapping.bank_bits=[11, 12, 13, 14]"});
            }),
            "--set memory_map.mapping=hynix: memory_map.mapping: hynix sets the DRAM bank/row/column bits "
            "itself; remove dram.mapping or use bitfield");
}

}  // namespace
