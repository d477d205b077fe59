#include "tb/workloads/synthetic_workload.h"

#include <cmath>

namespace gms {

uint32_t KernelSpec::stores_before(uint32_t insts, double store_fraction) {
  return uint32_t(std::floor(double(insts) * store_fraction));
}

uint64_t warp_seed(uint64_t workload_seed, uint32_t kernel_index, uint64_t warp_uid) {
  // Chained mixing so that neighbouring kernel indices and warp uids give unrelated streams.
  return mix64(mix64(mix64(workload_seed) ^ kernel_index) ^ warp_uid);
}

SyntheticWarpStream::SyntheticWarpStream(std::shared_ptr<const KernelSpec> kernel, uint64_t workload_seed,
                                         uint32_t kernel_index, uint64_t warp_uid)
    : kernel_(std::move(kernel)), active_mask_(kernel_->geom.active_mask(warp_uid)) {
  cursor_.warp_uid = warp_uid;
  cursor_.rng.reseed(warp_seed(workload_seed, kernel_index, warp_uid));
}

bool SyntheticWarpStream::next(WarpInst& out) {
  const KernelSpec& k = *kernel_;
  if (k.own_program) return next_own_program(out);
  if (issued_ == k.insts_per_warp) return false;
  const bool store = k.is_store(issued_++);
  out.kind = store ? MemKind::Store : MemKind::Load;
  out.active_mask = active_mask_;
  out.width = uint8_t(k.geom.width);
  out.gap = k.gap;
  uint64_t region;
  if (store) {
    k.pattern->next_store(cursor_, out);
    ++cursor_.stores;
    region = k.out_base;
  } else {
    k.pattern->next_load(cursor_, out);
    ++cursor_.loads;
    region = k.base;
  }
  if (active_mask_ == ~uint32_t(0)) {
    for (uint64_t& a : out.addr) a += region;  // full warp: a plain (vectorised) add
  } else {
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      out.addr[lane] = (active_mask_ >> lane & 1) ? region + out.addr[lane] : 0;
  }
  return true;
}

bool SyntheticWarpStream::next_own_program(WarpInst& out) {
  const KernelSpec& k = *kernel_;
  out.kind = MemKind::Load;
  out.active_mask = active_mask_;
  out.width = uint8_t(k.geom.width);
  out.gap = k.gap;
  if (!k.pattern->next_inst(cursor_, out)) return false;
  ++cursor_.pattern_steps;
  ++issued_;
  uint64_t region;
  if (out.kind == MemKind::Store) {
    ++cursor_.stores;
    region = k.out_base;
  } else {
    ++cursor_.loads;
    region = k.base;
  }
  out.active_mask &= active_mask_;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    out.addr[lane] = (out.active_mask >> lane & 1) ? region + out.addr[lane] : 0;
  return true;
}

SyntheticKernel::SyntheticKernel(std::shared_ptr<const KernelSpec> kernel, uint64_t workload_seed,
                                 uint32_t kernel_index)
    : kernel_(std::move(kernel)), seed_(workload_seed), index_(kernel_index) {}

std::unique_ptr<CtaWork> SyntheticKernel::next_cta() {
  if (next_cta_ == kernel_->info.num_ctas) return nullptr;
  auto cta = std::make_unique<CtaWork>();
  cta->cta_id = next_cta_++;
  const uint32_t warps = kernel_->geom.warps_per_cta;
  cta->warps.reserve(warps);
  for (uint32_t w = 0; w < warps; ++w)
    cta->warps.push_back(
        std::make_unique<SyntheticWarpStream>(kernel_, seed_, index_, uint64_t(cta->cta_id) * warps + w));
  return cta;
}

SyntheticWorkload::SyntheticWorkload(std::string name, uint64_t seed,
                                     std::vector<std::shared_ptr<const KernelSpec>> kernels)
    : name_(std::move(name)), seed_(seed), kernels_(std::move(kernels)) {}

std::unique_ptr<KernelSource> SyntheticWorkload::next_kernel() {
  if (next_kernel_ == kernels_.size()) return nullptr;
  const uint32_t index = uint32_t(next_kernel_++);
  return std::make_unique<SyntheticKernel>(kernels_[index], seed_, index);
}

bool SyntheticWorkload::footprint(std::vector<AddressRange>& out) const {
  for (const auto& k : kernels_) {
    const uint64_t load_bytes = k->pattern->load_region_bytes();
    const uint64_t store_bytes = k->pattern->store_region_bytes();
    const bool loads = k->own_program ? load_bytes > 0 : k->geom.loads_per_warp > 0;
    const bool stores = k->own_program ? store_bytes > 0 : k->geom.stores_per_warp > 0;
    // The loader checked that both regions end below 2^48: no overflow.
    if (loads && load_bytes > 0) out.push_back({k->base, k->base + load_bytes});
    if (stores && store_bytes > 0) out.push_back({k->out_base, k->out_base + store_bytes});
  }
  return true;
}

uint64_t SyntheticWorkload::total_warp_insts() const {
  uint64_t total = 0;
  for (const auto& k : kernels_)
    total += k->own_program ? k->pattern->total_insts() : k->geom.num_warps * k->insts_per_warp;
  return total;
}

}  // namespace gms
