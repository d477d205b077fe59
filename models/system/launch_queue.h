// The workload GpuMemSys's host dispatcher runs: whatever was launched last. Once that workload has no
// more kernels the queue has none either, so the dispatcher is done; launch() points the queue at the next
// workload and starts the dispatcher again (its kernels keep counting in the same `kernels` group).
#pragma once
#include <memory>
#include <string>

#include "models/common/workload.h"

namespace gms {

class HostLaunchQueue : public Workload {
 public:
  void set(Workload* w) { current_ = w; }
  std::string name() const override;
  std::unique_ptr<KernelSource> next_kernel() override;

 private:
  Workload* current_ = nullptr;  // null between launches
};

}  // namespace gms
