// Cache-parameter sweep of paper 003 sec. 7: associativity, cache size, line size and MSHR count at
// 0.25x, 0.5x, 1x, 2x and 4x the base value, one parameter at a time, each point a full model run.
#pragma once
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/analytic/rd_model.h"

namespace gms {

struct SweepPoint {
  std::string parameter;  // ways | size_bytes | line_bytes | mshr_entries
  double factor = 1;
  RdParams params;
  bool linear_fallback = false;  // the Fermi hash has no such geometry: linear set index used
  RdCounts total;
};

using WorkloadFactory = std::function<std::unique_ptr<Workload>()>;

// Points whose geometry is impossible (e.g. more ways than lines) are left out.
std::vector<SweepPoint> rd_sweep(const RdParams& base, const WorkloadFactory& make,
                                 const std::vector<double>& factors = {0.25, 0.5, 1, 2, 4});
void write_sweep_csv(std::ostream& os, const std::vector<SweepPoint>& pts);

}  // namespace gms
