// memory_map.mapping in the whole system: pae and hynix on the fermi preset with every workload file and on
// the h100 preset with small.yaml keep the data contract (0 golden mismatches, every request answered);
// every DRAM channel's per-bank histogram counts each queued request once; naming bitfield explicitly
// changes no statistic; hynix with explicit dram.mapping bits is a ConfigError. Each case prints its SM
// cycles and DRAM row-hit rate ("[ mapping ] ...") to compare the mappings. One process per case.
#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "tb/system/gpu_system.h"
#include "tests/cli/cli_runner.h"
#include "tests/config_error_of.h"
#include "tests/system/system_case.h"

namespace {

using gms::test::load_config;

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

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  return i.param.config + "_" + i.param.mapping + "_" + i.param.workload;
}

class AddressMappingSystem : public ::testing::TestWithParam<Case> {};

TEST_P(AddressMappingSystem, RunsWithZeroMismatches) {
  const Case& c = GetParam();
  // The shared harness checks the data contract (0 mismatches, every request answered, NoC accounting).
  auto sys = gms::test::run_checked(
      gms::test::make_case(c.config, c.mapping, c.workload, {"memory_map.mapping=" + c.mapping}));
  ASSERT_TRUE(sys);
  const gms::StatGroup& s = sys->stats();
  const gms::SystemConfig cfg = load_config(c.config, {"memory_map.mapping=" + c.mapping});
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
