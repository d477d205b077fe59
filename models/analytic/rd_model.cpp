#include "models/analytic/rd_model.h"

#include <chrono>
#include <memory>

#include "models/analytic/cta_ordering.h"

namespace gms {

RdModel::RdModel(const RdParams& p) : p_(p) {
  p_.validate();
}

RdResult RdModel::run(Workload& workload) {
  const auto t0 = std::chrono::steady_clock::now();
  RdResult res;
  res.workload = workload.name();
  res.sectors = p_.tracks_sectors();
  std::vector<std::unique_ptr<CoreModel>> cores;
  for (uint32_t i = 0; i < p_.cores; ++i) {
    cores.push_back(std::make_unique<CoreModel>(p_, i));
    cores.back()->set_observer(&obs_);
  }
  while (auto kernel = workload.next_kernel()) {
    run_kernel(*kernel, p_, cores);
    RdKernelResult k;
    k.name = kernel->info().name;
    size_t bytes = 0;
    for (auto& c : cores) {
      bytes += c->bytes();
      c->end_kernel(p_.flush_at_kernel_end);
      k.counts.add(c->take_counts());
    }
    res.model_bytes = std::max(res.model_bytes, bytes);
    res.total.add(k.counts);
    res.kernels.push_back(std::move(k));
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace gms
