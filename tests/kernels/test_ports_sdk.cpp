// The CUDA SDK ports (matrixMul, mergeSort, binomialOptions, fastWalshTransform, histogram): each computes
// its sample's result (checked against a sequential reference), emits a stream whose shape is computed by
// hand on a tiny input, and emits the same stream twice.
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
  EXPECT_EQ(p->check(), "") << name << " " << size;
}

void expect_deterministic(const std::string& name, const std::string& size) {
  auto a = make_port(name, size), b = make_port(name, size);
  const auto sa = pull_all(*a), sb = pull_all(*b);
  EXPECT_GT(sa.insts, 0u);
  EXPECT_EQ(sa.insts, sb.insts) << name;
  EXPECT_EQ(sa.hash, sb.hash) << name;
  EXPECT_EQ(a->check(), "") << name;  // pulled streams compute the result too
}

TEST(SdkPorts, MatrixMulComputesAndStreams) {
  expect_checks("sdk/matrixmul", "{wa: 96, ha: 64, wb: 128, seed: 3}");
  expect_checks("sdk/matrixmul", "{wa: 64, ha: 32, wb: 32, launches: 1}");  // the sample's constants
  expect_deterministic("sdk/matrixmul", "{wa: 64, ha: 64, wb: 96, seed: 5}");
  // wA = hA = 32, wB = 64: 2 CTAs of 32 warps (warp = one row of the tile), one tile step each: load A,
  // load B, two barriers, store C.
  const auto s = pull_all(*make_port("sdk/matrixmul", "{wa: 32, ha: 32, wb: 64, launches: 3}"));
  EXPECT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.ctas, 3u * 2);
  EXPECT_EQ(s.insts, 3u * 2 * 32 * 5);
  EXPECT_EQ(s.loads, 3u * 2 * 32 * 2);
  EXPECT_EQ(s.stores, 3u * 2 * 32);
  ASSERT_EQ(s.first.size(), 3u);
  EXPECT_EQ(s.first[0].kind, MemKind::Load);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  EXPECT_EQ(s.first[0].addr[0], kBase);  // A[0]
  EXPECT_EQ(s.first[0].addr[31], kBase + 31 * 4);
  // The default: 20 x 10 CTAs of 32 warps, 10 tile steps (4 instructions each) and the store; 2 launches.
  auto p = make_port("sdk/matrixmul");
  const auto d = pull_all(*p);
  EXPECT_EQ(d.insts, 2u * 200 * 32 * (10 * 4 + 1));
  EXPECT_EQ(p->check(), "");
}

}  // namespace
}  // namespace gms::kernels
