// The workload loader's errors: each names file:line: key path and says what is wrong.
#include <gtest/gtest.h>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    load_text(yaml);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

// one_kernel() puts the first kernel key on line 5 and each further key on the next line.
const std::string kValid = "pattern: streaming\ngrid: 1\nblock: 32\ninsts_per_warp: 1";

TEST(TbLoader, UnknownKey) {
  EXPECT_EQ(error_of(one_kernel(kValid + "\ncolour: red")),
            "t.yaml:9: workload.kernels[0].colour: unknown key");
  // A key of another pattern is unknown too.
  EXPECT_EQ(error_of(one_kernel(kValid + "\nstride: 64")),
            "t.yaml:9: workload.kernels[0].stride: unknown key");
  EXPECT_EQ(error_of("workload:\n  kernels:\n    - " + kValid.substr(0, 18) +
                     "\n      grid: 1\n      block: 1\n"
                     "      insts_per_warp: 1\n  sead: 3\n"),
            "t.yaml:7: workload.sead: unknown key");
  EXPECT_EQ(error_of(one_kernel(kValid) + "extra: 1\n"), "t.yaml:9: extra: unknown key");
}

TEST(TbLoader, UnknownPattern) {
  EXPECT_EQ(
      error_of(one_kernel("pattern: zigzag\ngrid: 1\nblock: 32\ninsts_per_warp: 1")),
      "t.yaml:5: workload.kernels[0].pattern: 'zigzag' is not one of: bfs, colmajor_copy, hotcold, kmeans, "
      "matmul, random, sharing, spmv_csr, stencil2d, streaming, strided");
  EXPECT_EQ(error_of(one_kernel("grid: 1\nblock: 32\ninsts_per_warp: 1")),
            "t.yaml:5: workload.kernels[0].pattern: missing required key");
}

TEST(TbLoader, NegativeOrZeroGrid) {
  EXPECT_EQ(error_of(one_kernel("pattern: streaming\ngrid: -4\nblock: 32\ninsts_per_warp: 1")),
            "t.yaml:6: workload.kernels[0].grid: value -4 must not be negative");
  EXPECT_EQ(error_of(one_kernel("pattern: streaming\ngrid: 0\nblock: 32\ninsts_per_warp: 1")),
            "t.yaml:6: workload.kernels[0].grid: value 0 out of range [1, 4294967295]");
  EXPECT_EQ(error_of(one_kernel("pattern: streaming\ngrid: many\nblock: 32\ninsts_per_warp: 1")),
            "t.yaml:6: workload.kernels[0].grid: expected an integer, got 'many'");
  EXPECT_EQ(error_of(one_kernel("pattern: streaming\ngrid: 1\nblock: 1025\ninsts_per_warp: 1")),
            "t.yaml:7: workload.kernels[0].block: value 1025 out of range [1, 1024]");
  EXPECT_EQ(error_of(one_kernel("pattern: streaming\ngrid: 1\nblock: 32")),
            "t.yaml:5: workload.kernels[0].insts_per_warp: missing required key");
}

TEST(TbLoader, BadWidth) {
  EXPECT_EQ(error_of(one_kernel(kValid + "\nwidth: 3")),
            "t.yaml:9: workload.kernels[0].width: value 3 must be a power of two");
  EXPECT_EQ(error_of(one_kernel(kValid + "\nwidth: 32")),
            "t.yaml:9: workload.kernels[0].width: value 32 out of range [1, 16]");
}

TEST(TbLoader, StoreFractionAboveOne) {
  EXPECT_EQ(error_of(one_kernel(kValid + "\nstore_fraction: 1.5")),
            "t.yaml:9: workload.kernels[0].store_fraction: value 1.5 out of range [0, 1]");
}

TEST(TbLoader, AddressChecks) {
  EXPECT_EQ(error_of(one_kernel(kValid + "\nbase: 0x1010")),
            "t.yaml:9: workload.kernels[0].base: value 0x1010 must be a multiple of 128 (a line)");
  EXPECT_EQ(
      error_of(
          one_kernel("pattern: streaming\ngrid: 1\nblock: 32\ninsts_per_warp: 1024\nbase: 0xffffffff0000")),
      "t.yaml:9: workload.kernels[0].base: the region of 131072 bytes from 0xffffffff0000 ends past the "
      "48-bit address space");
  EXPECT_EQ(
      error_of(one_kernel("pattern: streaming\ngrid: 1\nblock: 64\ninsts_per_warp: 1\nstore_fraction: 1\n"
                          "out_base: 0xffffffffff80")),
      "t.yaml:10: workload.kernels[0].out_base: the region of 256 bytes from 0xffffffffff80 ends past the "
      "48-bit address space");
}

TEST(TbLoader, PatternKeys) {
  EXPECT_EQ(error_of(one_kernel("pattern: strided\ngrid: 1\nblock: 32\ninsts_per_warp: 1")),
            "t.yaml:5: workload.kernels[0].stride: missing required key");
  EXPECT_EQ(error_of(one_kernel("pattern: strided\ngrid: 1\nblock: 32\ninsts_per_warp: 1\nstride: 6")),
            "t.yaml:9: workload.kernels[0].stride: value 6 must be a multiple of width (4)");
  EXPECT_EQ(
      error_of(one_kernel("pattern: random\ngrid: 4\nblock: 128\ninsts_per_warp: 2\nstore_fraction: 0.5\n"
                          "footprint: 1024")),
      "t.yaml:10: workload.kernels[0].footprint: value 1024 leaves no store slice for each of the 16 warps "
      "(needs at least 2048 bytes)");
  EXPECT_EQ(error_of(one_kernel("pattern: random\ngrid: 1\nblock: 32\ninsts_per_warp: 2\nfootprint: 1000")),
            "t.yaml:9: workload.kernels[0].footprint: value 1000 must be a multiple of 128 (a line)");
  EXPECT_EQ(error_of(one_kernel("pattern: hotcold\ngrid: 1\nblock: 32\ninsts_per_warp: 2\nhot_lines: 4")),
            "t.yaml:5: workload.kernels[0].hot_fraction: missing required key");
  EXPECT_EQ(error_of(one_kernel("pattern: hotcold\ngrid: 1\nblock: 32\ninsts_per_warp: 2\nhot_lines: 0\n"
                                "hot_fraction: 0.5")),
            "t.yaml:9: workload.kernels[0].hot_lines: value 0 out of range [1, 4294967295]");
}

TEST(TbLoader, DocumentShape) {
  EXPECT_EQ(error_of("kernels: []\n"), "t.yaml:1: workload: missing required section");
  EXPECT_EQ(error_of("workload:\n  name: x\n"),
            "t.yaml:2: workload.kernels: a workload needs at least one kernel");
  EXPECT_EQ(error_of("workload:\n  kernels:\n    - 5\n"),
            "t.yaml:3: workload.kernels[0]: expected a map of kernel keys");
  EXPECT_EQ(error_of("workload:\n  kernels: 5\n"), "t.yaml:2: workload.kernels: expected a list, got '5'");
  EXPECT_THROW(load_workload_file("/nonexistent/w.yaml"), ConfigError);
}

}  // namespace
}  // namespace gms::test
