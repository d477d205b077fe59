// The system-test harness shared by the whole-system suites: a Case (preset, workload, overrides), and
// run_checked(), which runs it and asserts the data contract every suite needs: the run finishes, every
// program's loads were checked with 0 mismatches, every block answered every request, the NoC carried
// each LLC request and response once, and a TLM base-protocol checker on every link saw no violation. One
// process per case (gtest_discover_tests).
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "tb/system/gpu_system.h"

namespace gms::test {

struct Case {
  std::string name;      // test name suffix: config_variant_workload
  std::string config;    // preset in configs/
  std::string workload;  // a file of configs/workloads/ (without .yaml)
  std::vector<std::string> overrides;
  std::string workload_path;  // if set, this file instead of configs/workloads/<workload>.yaml
};

inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.config << " " << c.workload;
  for (const auto& o : c.overrides) *os << " " << o;
}

Case make_case(const std::string& config, const std::string& variant, const std::string& workload,
               std::vector<std::string> overrides);
gms::SystemConfig load_config(const std::string& name, const std::vector<std::string>& sets);
gms::RunOptions quiet();
// Sum of `counter` over the LLC slices.
double llc_sum(const gms::StatGroup& s, unsigned slices, const std::string& counter);
// Runs the case with the common assertions (ADD_FAILURE on each broken one) and prints its SM cycles;
// returns the finished system for suite-specific checks (nullptr if the run did not finish).
// `workload`: run this object instead of the case's workload file (a test's own kernel port).
std::unique_ptr<gms::GpuSystem> run_checked(const Case& c, gms::Workload* workload = nullptr);
std::string case_name(const ::testing::TestParamInfo<Case>& i);

}  // namespace gms::test
