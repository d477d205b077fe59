// Helpers for the kernel-port tests: build a registered port with size keys, and pull every stream of a
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
  return std::make_unique<PortWorkload>(name, info->make(size));
}

struct KernelStats {
  std::string name;
  uint32_t ctas = 0, threads_per_cta = 0;
  uint64_t insts = 0;  // warp instructions (barriers included)
};

struct StreamStats {
  std::vector<KernelStats> kernels;
  uint64_t insts = 0;
  uint64_t hash = 1469598103934665603ull;  // FNV-1a over kind, pc, mask and active lanes' addresses
  WarpInst first;                          // the first instruction of the first kernel's first warp
};

inline void mix(uint64_t& h, uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 1099511628211ull;
  }
}

inline StreamStats pull_all(Workload& wl) {
  StreamStats s;
  bool have_first = false;
  while (auto k = wl.next_kernel()) {
    KernelStats ks{k->info().name, k->info().num_ctas, k->info().threads_per_cta, 0};
    while (auto cta = k->next_cta())
      for (auto& warp : cta->warps)
        for (WarpInst i; warp->next(i);) {
          if (!have_first) s.first = i, have_first = true;
          mix(s.hash, uint64_t(i.kind));
          mix(s.hash, i.pc);
          mix(s.hash, i.active_mask);
          for (unsigned l = 0; l < kWarpSize; ++l)
            if (i.active_mask >> l & 1) mix(s.hash, i.addr[l]);
          ++ks.insts;
        }
    s.insts += ks.insts;
    s.kernels.push_back(std::move(ks));
  }
  return s;
}

}  // namespace gms::kernels::test
