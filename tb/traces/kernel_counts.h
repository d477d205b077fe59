// Per-kernel memory-instruction counts named like Nsight Compute's L1TEX metrics. CountingWorkload wraps
// any Workload and coalesces every instruction as the SM pulls it (gms::Coalescer), counting into the
// statistics group `workload` (totals) with one child `k0`, `k1`, ... per kernel (description = kernel
// name). docs/parts/stats_workload.md lists the names and the Nsight metric each one matches.
#pragma once
#include <memory>
#include <string>

#include "models/common/stats.h"
#include "models/common/workload.h"

namespace gms {

// One set of the six counters (a kernel's or the total).
struct MemInstCounters {
  explicit MemInstCounters(StatGroup& g);
  Counter &inst_ld, &inst_st, &lines_ld, &lines_st, &sectors_ld, &sectors_st;
};

class CountingWorkload : public Workload {
 public:
  explicit CountingWorkload(std::unique_ptr<Workload> inner);
  CountingWorkload(std::unique_ptr<Workload> inner, StatGroup& parent);
  ~CountingWorkload() override;

  // Creates group `workload` below `parent` (e.g. GpuSystem::stats()); before the first next_kernel().
  void attach(StatGroup& parent);
  StatGroup& stats();  // the `workload` group (attach() first)

  std::string name() const override { return inner_->name(); }
  std::unique_ptr<KernelSource> next_kernel() override;
  Workload& inner() { return *inner_; }

  struct Shared;

 private:
  std::unique_ptr<Workload> inner_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace gms
