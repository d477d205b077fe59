// The SHOC ports (FFT): the result matches a sequential double-precision DFT within a tolerance, the stream's
// shape is computed by hand on a tiny batch, and the same stream comes out twice.
#include <gtest/gtest.h>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::expect_checks;
using test::expect_deterministic;
using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

TEST(ShocPorts, FftComputesAndStreams) {
  expect_checks("shoc/fft", "{half_ffts: 4, passes: 2}");
  expect_checks("shoc/fft", "{half_ffts: 3, passes: 1, seed: 7}");
  expect_deterministic("shoc/fft", "{half_ffts: 2, passes: 2}");

  // half_ffts = 2, one pass: FFT and IFFT on 4 CTAs of 2 warps, each warp 8 loads + 7 barriers + 8 stores;
  // chk512 on 2 CTAs of 2 warps, 16 loads each and no store (the halves are equal).
  auto p = make_port("shoc/fft", "{half_ffts: 2, passes: 1}");
  const auto s = pull_all(*p);
  EXPECT_EQ(p->check(), "");
  ASSERT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.kernel_names[0], "FFT512_device");
  EXPECT_EQ(s.kernel_names[1], "IFFT512_device");
  EXPECT_EQ(s.kernel_names[2], "chk512_device");
  EXPECT_EQ(s.insts_per_kernel[0], 4u * 2 * 23);
  EXPECT_EQ(s.insts_per_kernel[1], 4u * 2 * 23);
  EXPECT_EQ(s.insts_per_kernel[2], 2u * 2 * 16);
  EXPECT_EQ(s.loads, 2u * 4 * 2 * 8 + 2 * 2 * 16);
  EXPECT_EQ(s.stores, 2u * 4 * 2 * 8);
  EXPECT_EQ(s.barriers, 2u * 4 * 2 * 7);
  // The first load: work[tid] for the 32 lanes of warp 0, float2 (8 B) apart, full mask.
  EXPECT_EQ(s.first[0].pc, 0x100u);
  EXPECT_EQ(s.first[0].active_mask, 0xffffffffu);
  for (unsigned l = 0; l < kWarpSize; ++l) EXPECT_EQ(s.first[0].addr[l], kBase + 8 * l);
  // chk512's first load reads the same place.
  EXPECT_EQ(s.first[2].addr[31], kBase + 8 * 31);
}

TEST(ShocPorts, FftDefaultIsShocSizeOne) {
  // -s 1: 1 MB = 128 pairs of 512-point transforms; 10 passes of 3 kernels.
  auto p = make_port("shoc/fft", "{passes: 1}");
  const auto s = pull_all(*p);
  EXPECT_EQ(s.kernels, 3u);
  EXPECT_EQ(s.insts_per_kernel[0], 256u * 2 * 23);
  EXPECT_EQ(p->check(), "");
}

}  // namespace
}  // namespace gms::kernels
