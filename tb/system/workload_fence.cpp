#include "tb/system/workload_fence.h"

#include <systemc>

#include "models/common/config.h"

namespace gms {

namespace {

class FencedWarp : public WarpStream {
 public:
  FencedWarp(std::unique_ptr<WarpStream> inner, WorkloadFence& fence)
      : inner_(std::move(inner)), fence_(fence) {}
  bool next(WarpInst& out) override {
    if (fence_.failed()) return false;
    try {
      return inner_->next(out);
    } catch (const ConfigError& e) {
      fence_.fail(e.what());
      return false;
    }
  }

 private:
  std::unique_ptr<WarpStream> inner_;
  WorkloadFence& fence_;
};

class FencedKernel : public KernelSource {
 public:
  FencedKernel(std::unique_ptr<KernelSource> inner, WorkloadFence& fence)
      : inner_(std::move(inner)), fence_(fence) {}
  const KernelInfo& info() const override { return inner_->info(); }
  std::unique_ptr<CtaWork> next_cta() override {
    if (fence_.failed()) return nullptr;
    try {
      std::unique_ptr<CtaWork> cta = inner_->next_cta();
      if (cta)
        for (auto& w : cta->warps) w = std::make_unique<FencedWarp>(std::move(w), fence_);
      return cta;
    } catch (const ConfigError& e) {
      fence_.fail(e.what());
      return nullptr;
    }
  }

 private:
  std::unique_ptr<KernelSource> inner_;
  WorkloadFence& fence_;
};

}  // namespace

std::unique_ptr<KernelSource> WorkloadFence::next_kernel() {
  if (failed()) return nullptr;
  try {
    std::unique_ptr<KernelSource> k = inner_.next_kernel();
    return k ? std::make_unique<FencedKernel>(std::move(k), *this) : nullptr;
  } catch (const ConfigError& e) {
    fail(e.what());
    return nullptr;
  }
}

void WorkloadFence::fail(const std::string& what) {
  if (!error_.empty()) return;
  error_ = what;
  if (sc_core::sc_is_running()) sc_core::sc_stop();
}

}  // namespace gms
