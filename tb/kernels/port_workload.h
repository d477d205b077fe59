// A kernel port as a Workload: its host code runs in a fiber that stops at every launch and goes on when the
// simulator asks for the next kernel, which it does only after the previous one ended (every warp's stream
// pulled), so host control sees the kernel's results, as after a cudaDeviceSynchronize.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tb/kernels/fiber.h"
#include "tb/kernels/kernel_port.h"

namespace gms::kernels {

class PortWorkload : public Workload, private Launcher {
 public:
  // Sets the port up (its inputs, placed from `base`, or at `placement`'s addresses when given).
  PortWorkload(std::string name, std::unique_ptr<KernelPort> port, uint64_t base = DeviceMemory::kDefaultBase,
               std::vector<uint64_t> placement = {});
  ~PortWorkload() override;
  std::string name() const override { return name_; }
  std::unique_ptr<KernelSource> next_kernel() override;
  bool footprint(std::vector<AddressRange>& out) const override;

  // Runs what is left of the host code and its kernels without a simulator; then check() tells whether the
  // port computed the benchmark's result.
  void run_functionally();
  std::string check() const { return port_->check(); }
  uint64_t kernels_launched() const { return launched_; }

 private:
  void launch(KernelLaunch k) override;

  std::string name_;
  std::unique_ptr<KernelPort> port_;
  DeviceMemory mem_;
  PortRuntime rt_;
  std::unique_ptr<Fiber> host_;
  std::shared_ptr<LaunchState> pending_, previous_;
  uint64_t launched_ = 0;
};

}  // namespace gms::kernels
