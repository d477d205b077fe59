// Test workload and observer for the memory system as a library module (GpuMemSys): a vector kernel that
// loads 4-byte words of a source buffer and stores to a destination buffer, one 128 B line per warp
// instruction, and an observer that keeps what each load returned and each store wrote.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "models/common/workload.h"

namespace gms::test {

// One kernel of `ctas` CTAs of one warp each; warp w of CTA c loads the line src + (c * 1 + w) * 128 and
// stores the line dst + same offset (`store` false: loads only).
class VectorKernelWorkload : public Workload {
 public:
  VectorKernelWorkload(uint64_t src, uint64_t dst, uint32_t ctas, bool store = true)
      : src_(src), dst_(dst), ctas_(ctas), store_(store) {}
  std::string name() const override { return "vector"; }
  std::unique_ptr<KernelSource> next_kernel() override;

 private:
  uint64_t src_, dst_;
  uint32_t ctas_;
  bool store_;
  bool given_ = false;
};

// The bytes the workload's loads returned and its stores wrote, by address (the last one wins).
class RecordingObserver : public MemObserver {
 public:
  void on_store(uint64_t, uint64_t, uint64_t addr, const uint8_t* data, unsigned bytes) override {
    for (unsigned i = 0; i < bytes; ++i) stored[addr + i] = data[i];
  }
  void on_load(uint64_t, uint64_t, uint64_t addr, const uint8_t* data, unsigned bytes) override {
    for (unsigned i = 0; i < bytes; ++i) loaded[addr + i] = data[i];
  }
  void on_kernel_end() override { ++kernels; }

  std::map<uint64_t, uint8_t> stored, loaded;
  unsigned kernels = 0;
};

}  // namespace gms::test
