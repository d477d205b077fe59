// Helpers for the workload tests: load YAML text, expand a kernel into all its warp instructions.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tb/workloads/workload_loader.h"

namespace gms::test {

struct GeneratedInst {
  uint64_t warp_uid = 0;
  uint32_t index = 0;  // position in the warp's program order
  WarpInst inst;
};

inline std::unique_ptr<SyntheticWorkload> load_text(const std::string& yaml) {
  return load_synthetic_workload(ConfigNode::load_string(yaml, "t.yaml"));
}

// A workload document with one kernel whose keys are given as "key: value" lines.
inline std::string one_kernel(const std::string& keys, uint64_t seed = 1) {
  std::string text = "workload:\n  name: t\n  seed: " + std::to_string(seed) + "\n  kernels:\n    - ";
  bool first = true;
  for (size_t pos = 0; pos < keys.size();) {
    size_t end = keys.find('\n', pos);
    if (end == std::string::npos) end = keys.size();
    text += (first ? "" : "      ") + keys.substr(pos, end - pos) + "\n";
    first = false;
    pos = end + 1;
  }
  return text;
}

// Every instruction of every warp, CTA by CTA and warp by warp.
inline std::vector<GeneratedInst> generate(KernelSource& kernel) {
  std::vector<GeneratedInst> out;
  const uint32_t warps = kernel.info().warps_per_cta();
  while (auto cta = kernel.next_cta()) {
    for (uint32_t w = 0; w < cta->warps.size(); ++w) {
      GeneratedInst g;
      g.warp_uid = uint64_t(cta->cta_id) * warps + w;
      for (g.index = 0; cta->warps[w]->next(g.inst); ++g.index) out.push_back(g);
    }
  }
  return out;
}

inline std::vector<GeneratedInst> generate_first_kernel(const std::string& yaml) {
  auto w = load_text(yaml);
  auto k = w->next_kernel();
  return generate(*k);
}

inline bool lane_active(const WarpInst& i, unsigned lane) {
  return (i.active_mask >> lane) & 1;
}

}  // namespace gms::test
