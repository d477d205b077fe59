// The committed warp-instruction counts of every port's default input (tb/kernels/default_counts.cpp, what
// `gpumemsys kernels` lists) are what the port makes: one test per port recounts its default input. A port
// whose default stream changes must change its row. One ctest each (they run side by side).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tb/kernels/default_counts.h"
#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

std::vector<std::string> names() {
  std::vector<std::string> v;
  for (const PortInfo* p : PortRegistry::builtin().all()) v.push_back(p->name);
  return v;
}

class DefaultCounts : public ::testing::TestWithParam<std::string> {};

TEST_P(DefaultCounts, TheRecordedCountsAreWhatThePortMakes) {
  const WarpInstCounts* want = default_counts(GetParam());
  ASSERT_NE(want, nullptr) << GetParam() << " has no row in tb/kernels/default_counts.cpp";
  auto w = test::make_port(GetParam());
  uint64_t launches = 0;
  const WarpInstCounts got = count_warp_insts(*w, launches);
  EXPECT_GT(launches, 0u);
  EXPECT_EQ(got.loads, want->loads);
  EXPECT_EQ(got.stores, want->stores);
  EXPECT_EQ(got.atomics, want->atomics);
  EXPECT_EQ(got.barriers, want->barriers);
  EXPECT_EQ(got.compute, want->compute);
  EXPECT_EQ(w->check(), "");
}

INSTANTIATE_TEST_SUITE_P(Ports, DefaultCounts, ::testing::ValuesIn(names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace gms::kernels
