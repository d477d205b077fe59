#include "tb/workloads/csr_graph.h"

#include <algorithm>
#include <cmath>

#include "models/common/rng.h"

namespace gms {

CsrGraph CsrGraph::generate(const CsrShape& s) {
  CsrGraph g;
  Rng rng(mix64(s.seed ^ 0x637372ULL));
  g.row_ptr.reserve(s.rows + 1);
  g.row_ptr.push_back(0);
  g.col.reserve(s.rows * s.avg_len);
  const double scale = double(s.avg_len) / 3.0;
  for (uint64_t r = 0; r < s.rows; ++r) {
    uint64_t len;
    if (s.powerlaw) {
      const double u = 1.0 - rng.uniform();  // (0, 1]
      const double x = scale * std::pow(u, -1.0 / 1.5);
      len = x >= double(s.max_len) ? s.max_len : uint64_t(x + 0.5);
    } else {
      len = std::min<uint64_t>(rng.below(2 * s.avg_len + 1), s.max_len);
    }
    for (uint64_t j = 0; j < len; ++j) {
      const uint64_t lo = j * s.cols / len, hi = (j + 1) * s.cols / len;
      g.col.push_back(uint32_t(lo + rng.below(hi - lo)));
    }
    g.row_ptr.push_back(uint32_t(g.col.size()));
  }
  return g;
}

CsrShape read_csr_shape(const ConfigNode& n, const CsrKeys& keys, uint64_t threads) {
  CsrShape s;
  const uint64_t limit = std::min<uint64_t>(threads, kCsrMaxEntries);
  if (threads > kCsrMaxEntries && !n.has(keys.rows))
    n.fail(keys.rows, "the default (one per thread of the grid: " + std::to_string(threads) +
                          ") exceeds the limit " + std::to_string(kCsrMaxEntries) + "; set it");
  s.rows = n.get_uint(keys.rows, limit, 1, limit);
  s.cols = keys.cols ? n.get_uint(keys.cols, s.rows, 1, UINT32_MAX) : s.rows;
  s.avg_len = n.require_uint(keys.avg_len, 1, std::min<uint64_t>(s.cols, 1u << 16));
  if (s.rows * s.avg_len > kCsrMaxEntries)
    n.fail(keys.avg_len, std::to_string(s.rows) + " x " + std::to_string(s.avg_len) +
                             " entries exceed the limit " + std::to_string(kCsrMaxEntries));
  s.powerlaw = n.get_choice(keys.dist, "powerlaw", {"powerlaw", "uniform"}) == "powerlaw";
  s.max_len = n.get_uint(keys.max_len, std::min<uint64_t>(s.cols, 64 * s.avg_len), 1, s.cols);
  s.seed = n.get_uint(keys.seed, 1);
  return s;
}

}  // namespace gms
