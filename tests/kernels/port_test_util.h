// Helpers for the kernel ports' tests: build a registered port with size keys, and pull every warp stream
// of every kernel (CTA by CTA, warp by warp), counting and hashing the instructions.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/common/config.h"
#include "tb/kernels/port_registry.h"
#include "tb/kernels/port_workload.h"

namespace gms::kernels::test {

// `size` is the YAML of the size map, e.g. "{rows: 64, cols: 64}".
inline std::unique_ptr<PortWorkload> make_port(const std::string& name, const std::string& size = "{}") {
  const PortInfo* info = PortRegistry::builtin().find(name);
  if (!info) throw std::runtime_error("no port " + name);
  const ConfigNode s = ConfigNode::load_string(size, "size");
  return std::make_unique<PortWorkload>(name, info->make(s));
}

struct StreamSummary {
  uint64_t kernels = 0, insts = 0, hash = 1469598103934665603ull;
};

// Pulls every stream; `each(kernel_index, kernel_name, inst)` sees every instruction if given.
inline StreamSummary pull_all(
    Workload& wl, const std::function<void(uint64_t, const std::string&, const WarpInst&)>& each = {}) {
  StreamSummary s;
  auto mix = [&](uint64_t v) { s.hash = (s.hash ^ v) * 1099511628211ull; };
  for (std::unique_ptr<KernelSource> k; (k = wl.next_kernel());) {
    for (std::unique_ptr<CtaWork> cta; (cta = k->next_cta());)
      for (auto& warp : cta->warps)
        for (WarpInst i; warp->next(i);) {
          if (each) each(s.kernels, k->info().name, i);
          ++s.insts;
          mix(uint64_t(i.kind));
          mix(i.pc);
          mix(i.active_mask);
          for (unsigned l = 0; l < kWarpSize; ++l)
            if (i.active_mask >> l & 1) mix(i.addr[l]);
        }
    ++s.kernels;
  }
  return s;
}

}  // namespace gms::kernels::test
