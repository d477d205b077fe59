// A generated sparse structure in CSR form, shared by the SpMV (matrix rows) and BFS (adjacency lists)
// patterns. Built once per kernel from the pattern's YAML keys, then shared read-only by all its warps.
// Row lengths follow a uniform or a power-law distribution; a row's column indices are distinct, sorted
// and spread over [0, cols): the row is cut into `len` equal strata and one column is drawn in each.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/config.h"

namespace gms {

struct CsrShape {
  uint64_t rows = 0;
  uint64_t cols = 0;
  uint64_t avg_len = 1;  // mean row length asked for
  bool powerlaw = true;  // false: lengths uniform in [0, 2*avg_len]
  uint64_t max_len = 0;  // cap on a row's length (<= cols)
  uint64_t seed = 1;
};

// Bound on rows * avg_len (and so on the structure's memory: 4 bytes per entry).
constexpr uint64_t kCsrMaxEntries = uint64_t(1) << 24;

struct CsrGraph {
  std::vector<uint32_t> row_ptr;  // rows + 1 entries; row r is col[row_ptr[r] .. row_ptr[r+1])
  std::vector<uint32_t> col;
  uint64_t rows() const { return row_ptr.size() - 1; }
  uint64_t nnz() const { return col.size(); }
  uint32_t len(uint64_t r) const { return row_ptr[r + 1] - row_ptr[r]; }

  // Power law: length = round(x), x Pareto with shape 1.5 (density ~ len^-2.5) and scale avg_len/3, so
  // the mean is avg_len before the cap; a few rows are very long, most are short.
  static CsrGraph generate(const CsrShape& shape);
};

// Reads the structure keys shared by spmv_csr and bfs (names given by the caller: rows/nodes, ...) and
// checks them: rows <= threads of the grid (one thread per row), avg_len <= cols, rows*avg_len bounded.
struct CsrKeys {
  const char* rows;
  const char* cols;  // nullptr: cols = rows (a graph)
  const char* avg_len;
  const char* dist;
  const char* max_len;
  const char* seed;
};
CsrShape read_csr_shape(const ConfigNode& n, const CsrKeys& keys, uint64_t threads);

}  // namespace gms
