// Synthetic workloads: kernels whose warps run a loop of memory instructions with an address pattern
// (pattern.h). Streams are generated lazily, one instruction at a time, and each warp's stream depends only
// on (workload seed, kernel index, warp uid): memory stays constant in the workload's length and the
// order in which the SM pulls CTAs and warps changes nothing.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tb/workloads/pattern.h"

namespace gms {

// One kernel as the loader read it.
struct KernelSpec {
  KernelInfo info;
  std::string pattern_name;
  bool own_program =
      false;  // the pattern's next_inst() runs the warp (insts_per_warp, store_fraction unused)
  KernelGeometry geom;
  uint32_t insts_per_warp = 0;
  double store_fraction = 0.0;
  uint32_t gap = 0;       // SM cycles before every instruction (the first one too)
  uint64_t base = 0;      // start of the load region
  uint64_t out_base = 0;  // start of the store region
  std::shared_ptr<const Pattern> pattern;

  // Stores are spread evenly: instruction i is a store when floor((i+1)*f) > floor(i*f), so exactly
  // stores_before(n) of the first n instructions are stores, the same in every warp.
  static uint32_t stores_before(uint32_t insts, double store_fraction);
  bool is_store(uint32_t inst) const {
    return stores_before(inst + 1, store_fraction) > stores_before(inst, store_fraction);
  }
};

// The seed of one warp's random stream.
uint64_t warp_seed(uint64_t workload_seed, uint32_t kernel_index, uint64_t warp_uid);

class SyntheticWarpStream : public WarpStream {
 public:
  SyntheticWarpStream(std::shared_ptr<const KernelSpec> kernel, uint64_t workload_seed, uint32_t kernel_index,
                      uint64_t warp_uid);
  bool next(WarpInst& out) override;

 private:
  bool next_own_program(WarpInst& out);

  std::shared_ptr<const KernelSpec> kernel_;
  WarpCursor cursor_;
  uint32_t active_mask_;
  uint32_t issued_ = 0;
};

class SyntheticKernel : public KernelSource {
 public:
  SyntheticKernel(std::shared_ptr<const KernelSpec> kernel, uint64_t workload_seed, uint32_t kernel_index);
  const KernelInfo& info() const override { return kernel_->info; }
  std::unique_ptr<CtaWork> next_cta() override;

 private:
  std::shared_ptr<const KernelSpec> kernel_;
  uint64_t seed_;
  uint32_t index_;
  uint32_t next_cta_ = 0;
};

class SyntheticWorkload : public Workload {
 public:
  SyntheticWorkload(std::string name, uint64_t seed, std::vector<std::shared_ptr<const KernelSpec>> kernels);
  std::string name() const override { return name_; }
  std::unique_ptr<KernelSource> next_kernel() override;
  // Each kernel's load region (if it loads) and store region (if it stores).
  bool footprint(std::vector<AddressRange>& out) const override;

  uint64_t seed() const { return seed_; }
  const std::vector<std::shared_ptr<const KernelSpec>>& kernels() const { return kernels_; }
  // Warp-level memory instructions of the whole workload (for progress reports and sizing).
  uint64_t total_warp_insts() const;

 private:
  std::string name_;
  uint64_t seed_;
  std::vector<std::shared_ptr<const KernelSpec>> kernels_;
  size_t next_kernel_ = 0;
};

}  // namespace gms
