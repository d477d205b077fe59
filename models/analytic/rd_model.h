// The reuse-distance model of the GPU L1 (paper 003): runs a Workload kernel by kernel through the
// ordering (cta_ordering.h) and one CoreModel per core, and returns per-kernel and total miss counts by
// class with the reuse-distance histogram. Deterministic for a given RdParams (seed included).
#pragma once
#include <string>
#include <vector>

#include "models/analytic/core_model.h"
#include "models/analytic/rd_classify.h"
#include "models/analytic/rd_params.h"
#include "models/common/workload.h"

namespace gms {

struct RdKernelResult {
  std::string name;
  RdCounts counts;  // summed over the cores
};

struct RdResult {
  std::string workload;
  std::vector<RdKernelResult> kernels;
  RdCounts total;
  bool sectors = false;  // sectors were tracked (RdParams::tracks_sectors): the sector counts mean something
  double seconds = 0;    // wall time of run()
  size_t model_bytes = 0;  // largest footprint of the cores' stacks (end of a kernel)
};

class RdModel {
 public:
  explicit RdModel(const RdParams& p);  // validates (ConfigError)
  // Sees every line request (tests, traces); slows the model down a little.
  void set_observer(RdAccessObserver obs) { obs_ = std::move(obs); }
  RdResult run(Workload& workload);
  const RdParams& params() const { return p_; }

 private:
  RdParams p_;
  RdAccessObserver obs_;
};

}  // namespace gms
