// The PolyBench-ACC, Parboil and CUDA SDK ports: each computes its benchmark's result (checked against a
// sequential reference), emits a stream whose shape is computed by hand on a tiny input, and emits the same
// stream twice.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

void expect_checks(const std::string& name, const std::string& size) {
  auto p = make_port(name, size);
  ASSERT_NE(p, nullptr) << name;
  p->run_functionally();
  EXPECT_EQ(p->check(), "") << name;
}

void expect_deterministic(const std::string& name, const std::string& size) {
  auto a = make_port(name, size), b = make_port(name, size);
  const auto sa = pull_all(*a), sb = pull_all(*b);
  EXPECT_GT(sa.insts, 0u);
  EXPECT_EQ(sa.insts, sb.insts) << name;
  EXPECT_EQ(sa.hash, sb.hash) << name;
  EXPECT_EQ(a->check(), "") << name;  // pulled streams compute the result too
}

// ---- PolyBench ----

TEST(PolybenchPorts, GemmComputesAndStreams) {
  expect_checks("polybench/gemm", "{n: 48}");
  expect_deterministic("polybench/gemm", "{n: 40}");
  // n = 32: grid 1 x 4 CTAs of 8 warps; each warp loads C, stores C, then 32 x (load A, load B, store C).
  auto p = make_port("polybench/gemm", "{n: 32}");
  const auto s = pull_all(*p);
  EXPECT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.ctas, 4u);
  EXPECT_EQ(s.warps, 32u);
  EXPECT_EQ(s.insts, 32u * (2 + 3 * 32));
  EXPECT_EQ(s.stores, 32u * (1 + 32));
  ASSERT_EQ(s.first.size(), 1u);
  const uint64_t c_base = kBase + 2 * 32 * 32 * 4;  // A, B then C, 256 B aligned
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], c_base);
  EXPECT_EQ(s.first[0].addr[31], c_base + 31 * 4);
}

// The default inputs' stream sizes (minutes): --gtest_also_run_disabled_tests
// --gtest_filter='*DefaultInputs*'.
TEST(PolybenchParboilPorts, DISABLED_DefaultInputs) {
  for (const PortInfo* info : PortRegistry::builtin().all()) {
    if (info->name.rfind("polybench/", 0) && info->name.rfind("parboil/", 0) && info->name.rfind("sdk/", 0))
      continue;
    auto p = make_port(info->name);
    const auto s = pull_all(*p);
    std::printf("%-24s kernels %3llu  CTAs %7llu  warps %8llu  warp insts %10llu  check '%s'\n",
                info->name.c_str(), (unsigned long long)s.kernels, (unsigned long long)s.ctas,
                (unsigned long long)s.warps, (unsigned long long)s.insts, p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
