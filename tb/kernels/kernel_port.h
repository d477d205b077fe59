// A benchmark ported to run on the simulator: its inputs, its host code (the sequence of kernel launches,
// with the control between them: bfs levels until the frontier is empty, iterations, diagonal sweeps) and a
// check of its result against a plain sequential reference. Its kernels run warp by warp (simt_warp.h)
// over its DeviceArrays, so the addresses they emit are computed as the CUDA source computes them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/workload.h"
#include "tb/kernels/device_array.h"
#include "tb/kernels/port_kernel.h"

namespace gms::kernels {

// Places a port's arrays in the simulated address space, as cudaMalloc does: in allocation order from a
// base, arrays of 2 MiB or more on 2 MiB boundaries, smaller ones on 256 B ones. A placement list (the
// bases of a recorded trace) overrides the order's addresses one by one.
class DeviceMemory {
 public:
  explicit DeviceMemory(uint64_t base = kDefaultBase) : next_(base) {}
  void set_placement(std::vector<uint64_t> bases) { placement_ = std::move(bases); }
  template <class T>
  DeviceArray<T> alloc(const std::string& name, size_t n, T fill = T{}) {
    return DeviceArray<T>(name, place(uint64_t(n) * sizeof(T)), n, fill);
  }
  const std::vector<AddressRange>& ranges() const { return ranges_; }

  static constexpr uint64_t kDefaultBase = 0x7f0000000000;  // where CUDA's allocations usually lie

 private:
  uint64_t place(uint64_t bytes);
  uint64_t next_;
  std::vector<uint64_t> placement_;
  std::vector<AddressRange> ranges_;
};

// How the host code launches a kernel: returns once the kernel has run to the end (its results are in the
// DeviceArrays).
class Launcher {
 public:
  virtual ~Launcher() = default;
  virtual void launch(KernelLaunch k) = 0;
};

class KernelPort {
 public:
  virtual ~KernelPort() = default;
  // Allocates and fills the inputs.
  virtual void setup(DeviceMemory& mem) = 0;
  // The host code: its launches, in order.
  virtual void run(Launcher& host) = 0;
  // After run(): "" when the result equals a sequential reference computed from the same inputs, else
  // what differs (first wrong element).
  virtual std::string check() const = 0;
};

}  // namespace gms::kernels
