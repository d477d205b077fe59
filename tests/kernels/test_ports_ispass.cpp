// GPGPU-Sim ISPASS-2009 ports: each runs functionally to the benchmark's result on a small input, emits an
// exactly known stream on a tiny one, and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

void expect_deterministic(const std::string& name, const std::string& size) {
  auto a = make_port(name, size), b = make_port(name, size);
  const test::StreamSummary sa = pull_all(*a), sb = pull_all(*b);
  EXPECT_GT(sa.insts, 0u);
  EXPECT_EQ(sa.kernels, sb.kernels);
  EXPECT_EQ(sa.insts, sb.insts);
  EXPECT_EQ(sa.hash, sb.hash);
  EXPECT_EQ(a->check(), "");  // the simulated pull computes the result too
}

// ---- nn ----

TEST(Ispass, NnComputesTheLayers) {
  for (const char* size : {"{images: 1}", "{images: 3, seed: 7}"}) {
    auto p = make_port("ispass/nn", size);
    p->run_functionally();
    EXPECT_EQ(p->check(), "") << size;
  }
}

TEST(Ispass, NnStream) {
  // One image: layer 1, 6 CTAs of 13x13 threads (6 warps, the last of 9 lanes), each a bias load, 25
  // (image, weight) load pairs and a store; layer 2, 50 CTAs of one 25-lane warp, a bias load, 25 x 6 pairs
  // and a store; layer 3, 100 one-thread CTAs, 1 + 2 x 1250 loads and a store; layer 4, 10 CTAs, 1 + 2 x 100
  // loads and a store.
  std::vector<WarpInst> l1;  // the first warp's instructions in layer 1
  std::vector<uint32_t> masks(4, 0);
  const auto s = pull_all(*make_port("ispass/nn", "{images: 1}"),
                          [&](uint64_t k, const std::string&, const WarpInst& i) {
                            if (k == 0 && l1.size() < 52) l1.push_back(i);
                            masks[k] |= i.active_mask;
                            if (k == 0 && i.active_mask != ~0u) {
                              EXPECT_EQ(i.active_mask, 0x1ffu);
                            }
                          });
  ASSERT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.kernel_names[0], "executeFirstLayer");
  EXPECT_EQ(s.kernel_names[3], "executeFourthLayer");
  EXPECT_EQ(s.ctas, 6u + 50 + 100 + 10);
  EXPECT_EQ(s.insts_per_kernel[0], 6u * 6 * 52);
  EXPECT_EQ(s.insts_per_kernel[1], 50u * 302);
  EXPECT_EQ(s.insts_per_kernel[2], 100u * 2502);
  EXPECT_EQ(s.insts_per_kernel[3], 10u * 202);
  EXPECT_EQ(s.stores, 6u * 6 + 50 + 100 + 10);
  EXPECT_EQ(s.atomics, 0u);
  EXPECT_EQ(masks[1], 0x1ffffffu);
  EXPECT_EQ(masks[2], 1u);
  // Layer1_Neurons (841 floats, 3364 B) then Layer1_Weights on the next 256 B boundary.
  const uint64_t l1w = kBase + 3584;
  ASSERT_EQ(l1.size(), 52u);
  EXPECT_EQ(l1[0].kind, MemKind::Load);
  EXPECT_EQ(l1[0].addr[0], l1w);  // the bias, every lane
  EXPECT_EQ(l1[0].addr[31], l1w);
  EXPECT_EQ(l1[1].addr[0], kBase);                     // window (0, 0)
  EXPECT_EQ(l1[1].addr[12], kBase + 24 * 4);           // thread (12, 0): column 24
  EXPECT_EQ(l1[1].addr[13], kBase + 58 * 4);           // thread (0, 1): row 2
  EXPECT_EQ(l1[2].addr[5], l1w + 4);                   // weight 1 of map 0
  EXPECT_EQ(l1[49].addr[13], kBase + (58 + 120) * 4);  // the window's last pixel
  EXPECT_EQ(l1[51].kind, MemKind::Store);
}

TEST(Ispass, NnDeterministic) {
  expect_deterministic("ispass/nn", "{images: 2}");
}

// The default inputs' stream sizes (a minute): --gtest_also_run_disabled_tests
// --gtest_filter='*IspassDefaultInputs*'.
TEST(Ispass, DISABLED_IspassDefaultInputs) {
  const std::pair<const char*, const char*> runs[] = {
      {"ispass/nn", "{}"},
      {"ispass/nn", "{images: 1}"},
  };
  for (const auto& [name, size] : runs) {
    auto p = make_port(name, size);
    uint64_t compute = 0;
    const auto s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) { compute += i.gap; });
    std::printf(
        "%-12s %-20s kernels %3llu  CTAs %6llu  warps %7llu  warp insts %9llu (loads %llu, stores %llu, "
        "atomics %llu; with compute %llu)  check '%s'\n",
        name, size, (unsigned long long)s.kernels, (unsigned long long)s.ctas, (unsigned long long)s.warps,
        (unsigned long long)s.insts, (unsigned long long)s.loads, (unsigned long long)s.stores,
        (unsigned long long)s.atomics, (unsigned long long)(s.insts + compute), p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
