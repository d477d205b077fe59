// Tango DNN suite ports: each runs functionally to the network layer's result on a small input, emits an
// exactly known stream on a tiny one, and emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_deterministic;
using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

// ---- squeezenet ----

TEST(Tango, SqueezeNetComputesTheFirstLayer) {
  for (const char* size : {"{filters: 2, ctas: 3}", "{filters: 1, ctas: 2, seed: 7}"}) {
    auto p = make_port("tango/squeezenet", size);
    p->run_functionally();
    EXPECT_EQ(p->check(), "") << size;
  }
}

TEST(Tango, SqueezeNetStream) {
  // One CTA of 111 threads (4 warps, the last of 15 lanes), one filter: per warp 7 x 7 x 6 loads and a
  // store.
  std::vector<WarpInst> w0;  // warp 0's instructions
  uint32_t partial = 0;
  const auto s = pull_all(*make_port("tango/squeezenet", "{filters: 1, ctas: 1}"),
                          [&](uint64_t, const std::string&, const WarpInst& i) {
                            if (w0.size() < 295) w0.push_back(i);
                            if (i.active_mask != ~0u) partial = i.active_mask;
                          });
  ASSERT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.kernel_names[0], "ExecuteFirstLayer");
  EXPECT_EQ(s.ctas, 1u);
  EXPECT_EQ(s.warps, 4u);
  EXPECT_EQ(s.insts, 4u * 295);
  EXPECT_EQ(s.stores, 4u);
  EXPECT_EQ(s.atomics, 0u);
  EXPECT_EQ(partial, 0x7fffu);
  // Layer1_Features (96 x 111 x 111 doubles, 9,462,528 B), the weights (14,112 doubles, 112,896 B), then
  // the R, G and B planes (227 x 227 ints, 206,116 B, each on the next 256 B boundary).
  const uint64_t wts = kBase + 9462528, red = wts + 112896, green = red + 206336;
  ASSERT_EQ(w0.size(), 295u);
  EXPECT_EQ(w0[0].kind, MemKind::Load);
  EXPECT_EQ(w0[0].pc, 0x100u);
  EXPECT_EQ(w0[0].addr[0], red);                // thread 0: pixel (0, 0)
  EXPECT_EQ(w0[0].addr[1], red + 2 * 227 * 4);  // thread 1: row 2
  EXPECT_EQ(w0[1].addr[0], wts);                // weight 0, every lane
  EXPECT_EQ(w0[1].addr[31], wts);
  EXPECT_EQ(w0[2].addr[1], green + 2 * 227 * 4);  // G, same pixel
  EXPECT_EQ(w0[3].addr[0], wts + 49 * 8);
  EXPECT_EQ(w0[6].addr[0], red + 4);  // the next column
  EXPECT_EQ(w0[293].addr[0], wts + (98 + 48) * 8);
  EXPECT_EQ(w0[288].addr[2], red + (4 + 6) * 227 * 4 + 6 * 4);  // thread 2's last pixel: (10, 6)
  EXPECT_EQ(w0[294].kind, MemKind::Store);
  EXPECT_EQ(w0[294].pc, 0x800u);
  EXPECT_EQ(w0[294].addr[0], kBase);
  EXPECT_EQ(w0[294].addr[1], kBase + 111 * 8);
}

TEST(Tango, SqueezeNetDeterministic) {
  expect_deterministic("tango/squeezenet", "{filters: 2, ctas: 2}");
}

// The default inputs' stream sizes: --gtest_also_run_disabled_tests --gtest_filter='*TangoDefaultInputs*'.
TEST(Tango, DISABLED_TangoDefaultInputs) {
  const std::pair<const char*, const char*> runs[] = {
      {"tango/squeezenet", "{}"},
  };
  for (const auto& [name, size] : runs) {
    auto p = make_port(name, size);
    uint64_t compute = 0;
    const auto s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) { compute += i.gap; });
    std::printf(
        "%-18s %-12s kernels %3llu  CTAs %6llu  warps %7llu  warp insts %9llu (loads %llu, stores %llu, "
        "atomics %llu; with compute %llu)  check '%s'\n",
        name, size, (unsigned long long)s.kernels, (unsigned long long)s.ctas, (unsigned long long)s.warps,
        (unsigned long long)s.insts, (unsigned long long)s.loads, (unsigned long long)s.stores,
        (unsigned long long)s.atomics, (unsigned long long)(s.insts + compute), p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
