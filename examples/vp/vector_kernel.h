// The GPU work of the example: a kernel that streams a source buffer into a destination buffer, one CTA of
// one warp per 128 B line (a load of the source line, then a store to the destination line), and the
// observer that records the bytes every GPU load returned and every GPU store wrote.
// The SM model does not compute: a store writes bytes that identify it (SmCore::store_byte), which the
// observer reports, so the host can check what the GPU stored.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "models/common/workload.h"

class VectorKernel : public gms::Workload {
 public:
  // `lines` lines from src (and to dst, unless `store` is false: loads only).
  VectorKernel(std::string name, uint64_t src, uint64_t dst, uint32_t lines, bool store = true);
  std::string name() const override { return name_; }
  std::unique_ptr<gms::KernelSource> next_kernel() override;  // one kernel, then none

 private:
  std::string name_;
  uint64_t src_, dst_;
  uint32_t lines_;
  bool store_;
  bool launched_ = false;
};

// The last byte each GPU load returned and each GPU store wrote, by address.
class AccessLog : public gms::MemObserver {
 public:
  void on_store(uint64_t, uint64_t, uint64_t addr, const uint8_t* data, unsigned bytes) override;
  void on_load(uint64_t, uint64_t, uint64_t addr, const uint8_t* data, unsigned bytes) override;
  void on_kernel_end() override { ++kernels; }

  std::map<uint64_t, uint8_t> stored, loaded;
  unsigned kernels = 0;
};
