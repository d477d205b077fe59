// Workloads are read lazily while the simulation runs (a trace reader meets a bad line when the SM pulls
// that CTA). An exception thrown inside a SystemC process comes out of sc_start wrapped in an sc_report,
// losing its type: bad input would look like a crash. The fence catches the workload's ConfigError where
// it happens, ends the workload's streams, stops the kernel, and GpuSystem::run rethrows it outside.
#pragma once
#include <memory>
#include <string>

#include "models/common/workload.h"

namespace gms {

class WorkloadFence : public Workload {
 public:
  explicit WorkloadFence(Workload& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  std::unique_ptr<KernelSource> next_kernel() override;

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  // Records the first error and asks the kernel to stop at the end of this delta cycle.
  void fail(const std::string& what);

 private:
  Workload& inner_;
  std::string error_;
};

}  // namespace gms
