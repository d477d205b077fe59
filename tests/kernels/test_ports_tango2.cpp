// Tango AlexNet and ResNet ports: each runs functionally to the network's result on a small input (every
// layer compared with a sequential reference), emits an exactly known stream on a tiny one, and emits the
// same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_checks;
using test::expect_deterministic;
using test::make_port;
using test::pull_all;

// ---- alexnet ----

TEST(Tango2, AlexNetComputesTheNetwork) {
  expect_checks("tango/alexnet", "{div: 16, ctas: 2}");
  expect_checks("tango/alexnet", "{div: 16, ctas: 3, seed: 7}");
}

TEST(Tango2, AlexNetStream) {
  // div 16, one CTA per launch: 22 launches; layer 1's first tile is 32 warps of 11 x 11 x 6 loads, a bias
  // load and a store; a 27 x 27 convolution CTA of layer 2 (3 input maps of its group, 5 x 5, pad 2) has
  // 3 x 2 loads per (row, column) of each thread's clipped window (129 x 129 windows in all), a bias load
  // and a store per thread; an FC CTA is one lane: 2 x 256 inputs (FC8), bias, store.
  const uint64_t kBase = DeviceMemory::kDefaultBase;
  uint64_t conv2_lane_loads = 0, conv2_lane_stores = 0;
  std::vector<WarpInst> k0;  // layer 1's first warp
  const auto s = pull_all(*make_port("tango/alexnet", "{div: 16, ctas: 1}"),
                          [&](uint64_t k, const std::string&, const WarpInst& i) {
                            if (k == 0 && k0.size() < 728) k0.push_back(i);
                            if (k != 9) return;
                            const uint64_t lanes = uint64_t(__builtin_popcount(i.active_mask));
                            (i.kind == MemKind::Load ? conv2_lane_loads : conv2_lane_stores) += lanes;
                          });
  ASSERT_EQ(s.kernels, 22u);
  const std::vector<std::string> names = {"executeFirstLayer",
                                          "executeFirstLayer",
                                          "executeFirstLayer",
                                          "executeFirstLayer",
                                          "executelrnNormCuda_split",
                                          "executelrnNormCuda_split",
                                          "executelrnNormCuda_split",
                                          "executelrnNormCuda_split",
                                          "executepoolingCuda",
                                          "execute3DconvolutionCuda",
                                          "execute3Dconvolutiongroup2Cuda",
                                          "executelrnNormCuda",
                                          "executepoolingCuda",
                                          "execute3DconvolutionCuda",
                                          "execute3DconvolutionCuda",
                                          "execute3Dconvolutiongroup2Cuda",
                                          "execute3DconvolutionCuda",
                                          "execute3Dconvolutiongroup2Cuda",
                                          "executepoolingCuda",
                                          "executeFCLayer",
                                          "executeFCLayer",
                                          "executeFCLayer"};
  EXPECT_EQ(s.kernel_names, names);
  EXPECT_EQ(s.insts_per_kernel[0], 32u * 728);  // 32 x 32 threads
  EXPECT_EQ(s.insts_per_kernel[3], 17u * 728);  // 23 x 23 threads
  EXPECT_EQ(s.insts_per_kernel[4], 32u * 3);    // map 0: one neighbour term, the centre, the store
  EXPECT_EQ(s.insts_per_kernel[8], 23u * 10);   // 27 x 27 threads, 9 loads and a store
  EXPECT_EQ(conv2_lane_loads, 3u * 129 * 129 * 2 + 729);
  EXPECT_EQ(conv2_lane_stores, 729u);
  EXPECT_EQ(s.insts_per_kernel[21], 2u * 256 + 2);
  EXPECT_EQ(s.first[21].active_mask, 1u);
  EXPECT_EQ(s.first[21].pc, 0x100u);
  // Layer1_Neurons_GPU (227 x 227 x 3 floats, 618,348 B) at the base, Layer1_Weights_GPU on the next 256 B.
  const uint64_t w1 = kBase + 618496;
  ASSERT_EQ(k0.size(), 728u);
  EXPECT_EQ(k0[0].kind, MemKind::Load);
  EXPECT_EQ(k0[0].pc, 0x100u);
  EXPECT_EQ(k0[0].addr[0], w1);  // W_r of filter 0, (0, 0), every lane
  EXPECT_EQ(k0[0].addr[31], w1);
  EXPECT_EQ(k0[1].addr[0], kBase);                 // R of thread (0, 0)
  EXPECT_EQ(k0[1].addr[5], kBase + 5 * 2724 * 4);  // thread (5, 0): row 5, 4 pixels x 3 x 227 down
  EXPECT_EQ(k0[2].addr[0], w1 + 121 * 4);          // W_g
  EXPECT_EQ(k0[3].addr[0], kBase + 4);             // G
  EXPECT_EQ(k0[6].addr[0], w1 + 4);                // column 1's W_r
  EXPECT_EQ(k0[725].addr[3], kBase + (3 * 2724 + 10 * 681 + 30 + 2) * 4);  // (10, 10)'s B of thread 3
  EXPECT_EQ(k0[727].kind, MemKind::Store);
  EXPECT_EQ(k0[727].active_mask, ~0u);
}

TEST(Tango2, AlexNetDeterministic) {
  expect_deterministic("tango/alexnet", "{div: 16, ctas: 1}");
}

// ---- resnet ----

TEST(Tango2, ResNetComputesTheNetwork) {
  expect_checks("tango/resnet", "{div: 64}");
  expect_checks("tango/resnet", "{div: 32, seed: 7}");
  expect_checks("tango/resnet", "{div: 16, ctas: 2}");
}

TEST(Tango2, ResNetStream) {
  // div 64: 227 launches. conv1 (one map, 32 x 32 threads, 4 x 4 pixels each, the 28 x 28 threads inside
  // the 112 x 112 map active): each output pixel loads 6 values per (row, column) of its clipped 7 x 7
  // window. The clipped extents sum to 4 + 6 + 108 x 7 + 7 + 5 = 778 along each axis. The FC layer: 1000
  // one-lane CTAs, 2 x 32 loads and a store each; the average pool: 32 one-lane CTAs, 49 loads and a store.
  uint64_t conv1_lane_loads = 0, conv1_lane_stores = 0, conv1_warps_mask = 0;
  const auto s = pull_all(*make_port("tango/resnet", "{div: 64}"),
                          [&](uint64_t k, const std::string&, const WarpInst& i) {
                            if (k != 0) return;
                            const uint64_t lanes = uint64_t(__builtin_popcount(i.active_mask));
                            (i.kind == MemKind::Load ? conv1_lane_loads : conv1_lane_stores) += lanes;
                            conv1_warps_mask |= i.active_mask;
                          });
  ASSERT_EQ(s.kernels, 227u);
  EXPECT_EQ(s.kernel_names[0], "executeFirstLayerCUDA");
  EXPECT_EQ(s.kernel_names[1], "executeBnNormLayerCUDA_split");
  EXPECT_EQ(s.kernel_names[2], "executeScaleLayerCUDA_split");
  EXPECT_EQ(s.kernel_names[3], "executeReLULayerCUDA_split");
  EXPECT_EQ(s.kernel_names[4], "executepoolingCuda");
  EXPECT_EQ(s.kernel_names[5], "execute3DconvolutionCuda_split");
  EXPECT_EQ(s.kernel_names[225], "poolingAverageCUDA");
  EXPECT_EQ(s.kernel_names[226], "executeFCLayerCUDA");
  EXPECT_EQ(conv1_lane_loads, 778u * 778 * 6);
  EXPECT_EQ(conv1_lane_stores, 112u * 112);
  EXPECT_EQ(conv1_warps_mask, 0x0fffffffu);  // threadIdx.x < 28
  EXPECT_EQ(s.insts_per_kernel[225], 32u * 50);
  EXPECT_EQ(s.insts_per_kernel[226], 1000u * 65);
  EXPECT_EQ(s.first[226].active_mask, 1u);
}

TEST(Tango2, ResNetDeterministic) {
  expect_deterministic("tango/resnet", "{div: 64}");
}

// The default inputs' stream sizes: --gtest_also_run_disabled_tests --gtest_filter='*Tango2DefaultInputs*'.
TEST(Tango2, DISABLED_Tango2DefaultInputs) {
  const std::pair<const char*, const char*> runs[] = {
      {"tango/alexnet", "{}"},
      {"tango/resnet", "{}"},
  };
  for (const auto& [name, size] : runs) test::print_stream_size(name, size, true);
}

}  // namespace
}  // namespace gms::kernels
