// Test helpers for kernel ports: build a registered port from a size map, and pull every stream of a
// workload (kernel by kernel, CTA by CTA, warp by warp) into counts and a hash of every instruction.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "tb/kernels/port_registry.h"
#include "tb/kernels/port_workload.h"

namespace gms::kernels::test {

inline std::unique_ptr<PortWorkload> make_port(const std::string& name, const std::string& size_yaml = "{}") {
  const PortInfo* info = PortRegistry::builtin().find(name);
  if (!info) return nullptr;
  const ConfigNode size = ConfigNode::load_string(size_yaml, "size");
  auto port = info->make(size);
  size.finish();
  return std::make_unique<PortWorkload>(name, std::move(port));
}

struct StreamSummary {
  uint64_t kernels = 0, ctas = 0, warps = 0, insts = 0, loads = 0, stores = 0, barriers = 0;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over kind, pc, mask and active lanes' addresses
  std::vector<uint64_t> insts_per_kernel;
  std::vector<std::string> kernel_names;
  std::vector<WarpInst> first;  // each kernel's first instruction (CTA 0, warp 0)
};

inline StreamSummary pull_all(Workload& w) {
  StreamSummary s;
  auto mix = [&](uint64_t x) {
    for (int b = 0; b < 8; ++b) s.hash = (s.hash ^ ((x >> (8 * b)) & 0xff)) * 1099511628211ull;
  };
  for (std::unique_ptr<KernelSource> k; (k = w.next_kernel());) {
    ++s.kernels;
    s.kernel_names.push_back(k->info().name);
    s.insts_per_kernel.push_back(0);
    bool first = true;
    for (std::unique_ptr<CtaWork> cta; (cta = k->next_cta());) {
      ++s.ctas;
      for (auto& warp : cta->warps) {
        ++s.warps;
        for (WarpInst i; warp->next(i);) {
          if (first) s.first.push_back(i), first = false;
          ++s.insts, ++s.insts_per_kernel.back();
          (i.kind == MemKind::Load ? s.loads : i.kind == MemKind::Store ? s.stores : s.barriers)++;
          mix(uint64_t(i.kind)), mix(i.pc), mix(i.active_mask);
          for (unsigned l = 0; l < kWarpSize; ++l)
            if (i.active_mask >> l & 1) mix(i.addr[l]);
        }
      }
    }
  }
  return s;
}

}  // namespace gms::kernels::test
