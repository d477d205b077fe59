#include "models/system/launch_queue.h"

namespace gms {

std::string HostLaunchQueue::name() const {
  return current_ ? current_->name() : "host launches";
}

std::unique_ptr<KernelSource> HostLaunchQueue::next_kernel() {
  if (!current_) return nullptr;
  std::unique_ptr<KernelSource> k = current_->next_kernel();
  if (!k) current_ = nullptr;  // the launch ran dry: the workload object may go away after it
  return k;
}

}  // namespace gms
