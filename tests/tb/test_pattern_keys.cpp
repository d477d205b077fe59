// The added patterns' keys: each is type- and range-checked and a bad value names file:line: key path.
#include <gtest/gtest.h>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

std::string error_of(const std::string& keys) {
  try {
    load_text(one_kernel(keys));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

// one_kernel() puts the first key on line 5 and each further key on the next line.
TEST(TbPatternKeys, OwnProgramPatternsRejectTheLoopKeys) {
  EXPECT_EQ(
      error_of("pattern: kmeans\ngrid: 1\nblock: 32\ninsts_per_warp: 8\nnfeatures: 4"),
      "t.yaml:8: workload.kernels[0].insts_per_warp: not a key of pattern 'kmeans': its program sets the "
      "instructions of each warp (docs/workloads.md)");
  EXPECT_EQ(error_of("pattern: bfs\ngrid: 1\nblock: 32\navg_degree: 2\nstore_fraction: 0.5"),
            "t.yaml:9: workload.kernels[0].store_fraction: not a key of pattern 'bfs': its program sets the "
            "instructions of each warp (docs/workloads.md)");
  // Their instruction counts come from the program; the loop keys stay required for the others.
  EXPECT_EQ(error_of("pattern: sharing\ngrid: 1\nblock: 32\ntable_bytes: 128"),
            "t.yaml:5: workload.kernels[0].insts_per_warp: missing required key");
}

TEST(TbPatternKeys, KmeansAndColMajor) {
  EXPECT_EQ(error_of("pattern: kmeans\ngrid: 1\nblock: 32"),
            "t.yaml:5: workload.kernels[0].nfeatures: missing required key");
  EXPECT_EQ(error_of("pattern: kmeans\ngrid: 1\nblock: 32\nnfeatures: 0"),
            "t.yaml:8: workload.kernels[0].nfeatures: value 0 out of range [1, 1048576]");
  EXPECT_EQ(error_of("pattern: kmeans\ngrid: 1\nblock: 32\nnfeatures: 4\nnpoints: 33"),
            "t.yaml:9: workload.kernels[0].npoints: value 33 out of range [1, 32]");
  EXPECT_EQ(error_of("pattern: colmajor_copy\ngrid: 2\nblock: 32\ncolumns: many"),
            "t.yaml:8: workload.kernels[0].columns: expected an integer, got 'many'");
  EXPECT_EQ(error_of("pattern: colmajor_copy\ngrid: 2\nblock: 32\nrows: 65"),
            "t.yaml:8: workload.kernels[0].rows: value 65 out of range [1, 64]");
  EXPECT_EQ(error_of("pattern: colmajor_copy\ngrid: 1\nblock: 32\nnfeatures: 4"),
            "t.yaml:8: workload.kernels[0].nfeatures: unknown key");
}

TEST(TbPatternKeys, SpmvAndBfs) {
  EXPECT_EQ(error_of("pattern: spmv_csr\ngrid: 1\nblock: 64"),
            "t.yaml:5: workload.kernels[0].nnz_per_row: missing required key");
  EXPECT_EQ(error_of("pattern: spmv_csr\ngrid: 1\nblock: 64\nnnz_per_row: 8\ncols: 4"),
            "t.yaml:8: workload.kernels[0].nnz_per_row: value 8 out of range [1, 4]");
  EXPECT_EQ(error_of("pattern: spmv_csr\ngrid: 1\nblock: 64\nnnz_per_row: 2\nrow_dist: zipf"),
            "t.yaml:9: workload.kernels[0].row_dist: 'zipf' is not one of: powerlaw, uniform");
  EXPECT_EQ(error_of("pattern: spmv_csr\ngrid: 1\nblock: 64\nnnz_per_row: 2\nmax_row: 65"),
            "t.yaml:9: workload.kernels[0].max_row: value 65 out of range [1, 64]");
  EXPECT_EQ(
      error_of("pattern: spmv_csr\ngrid: 32768\nblock: 1024\nnnz_per_row: 2"),
      "t.yaml:5: workload.kernels[0].rows: the default (one per thread of the grid: 33554432) exceeds the "
      "limit 16777216; set it");
  EXPECT_EQ(error_of("pattern: spmv_csr\ngrid: 16384\nblock: 1024\nrows: 16777216\nnnz_per_row: 2"),
            "t.yaml:9: workload.kernels[0].nnz_per_row: 16777216 x 2 entries exceed the limit 16777216");
  EXPECT_EQ(error_of("pattern: bfs\ngrid: 1\nblock: 64\navg_degree: 2\nfrontier_fraction: 1.5"),
            "t.yaml:9: workload.kernels[0].frontier_fraction: value 1.5 out of range [0, 1]");
  EXPECT_EQ(error_of("pattern: bfs\ngrid: 1\nblock: 64\navg_degree: 2\ncols: 100"),
            "t.yaml:9: workload.kernels[0].cols: unknown key");
  EXPECT_EQ(error_of("pattern: bfs\ngrid: 1\nblock: 64\navg_degree: 2\ngraph_seed: -1"),
            "t.yaml:9: workload.kernels[0].graph_seed: value -1 must not be negative");
}

TEST(TbPatternKeys, StencilMatmulSharing) {
  EXPECT_EQ(error_of("pattern: stencil2d\ngrid: 1\nblock: 64\nnx: 64"),
            "t.yaml:5: workload.kernels[0].ny: missing required key");
  EXPECT_EQ(error_of("pattern: stencil2d\ngrid: 1\nblock: 64\nnx: 64\nny: 64\nradius: 5"),
            "t.yaml:10: workload.kernels[0].radius: value 5 out of range [1, 4]");
  EXPECT_EQ(error_of("pattern: matmul\ngrid: 1\nblock: 64\nm: 64\nn: 64\nk: 64\ntile: 16"),
            "t.yaml:11: workload.kernels[0].tile: tile 16 needs block = tile*tile = 256 threads, not 64");
  EXPECT_EQ(error_of("pattern: matmul\ngrid: 1\nblock: 64\nm: 64\nn: 60\nk: 64\ntile: 8"),
            "t.yaml:9: workload.kernels[0].n: value 60 must be a multiple of tile (8)");
  EXPECT_EQ(error_of("pattern: matmul\ngrid: 1\nblock: 64\nm: 64\nk: 64"),
            "t.yaml:5: workload.kernels[0].n: missing required key");
  EXPECT_EQ(error_of("pattern: sharing\ngrid: 1\nblock: 32\ninsts_per_warp: 4\nwidth: 8\ntable_bytes: 128"),
            "t.yaml:10: workload.kernels[0].table_bytes: value 128 must be a multiple of 128 and of 32*width "
            "(256)");
  EXPECT_EQ(error_of("pattern: sharing\ngrid: 1\nblock: 32\ninsts_per_warp: 4\ntable_bytes: 1024\naccess: "
                     "strided"),
            "t.yaml:10: workload.kernels[0].access: 'strided' is not one of: random, sweep");
}

}  // namespace
}  // namespace gms::test
