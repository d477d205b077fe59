// What the PolyBench-ACC CUDA ports share: the suite's launch arithmetic and result comparison.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tb/kernels/device_array.h"
#include "tb/kernels/lanes.h"

namespace gms::kernels::polybench {

inline constexpr const char* kSuite = "PolyBench-ACC 1.0 (PolyBench/GPU), CUDA";
inline constexpr const char* kRepo = "github.com/cavazos-lab/PolyBench-ACC @70ea4ca, ";
// Paper 003 (reuse-distance model) runs PolyBench/GPU with its default data sizes.
inline constexpr const char* kPapers = "reuse distance (003, PolyBench/GPU)";

// The host code's (size_t)ceil((float)n / (float)b).
inline uint32_t grid_of(uint64_t n, uint32_t b) {
  return uint32_t(std::ceil(float(n) / float(b)));
}

// sum + x for a running sum the compiled loop keeps in a register and stores every iteration: the new sum
// depends on x's loads only (the previous sum's loads were waited for by the store that wrote it).
inline Float accumulate(const Float& sum, const Float& x) {
  Float r = sum + x;
  r.deps = x.deps;
  return r;
}

// "" when got equals want element by element, else the first difference. The ports accumulate in the
// CUDA source's order and the references in the same order, so results compare exactly.
inline std::string compare(const std::string& name, const DeviceArray<float>& got,
                           const std::vector<float>& want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      return name + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) + ", expected " +
             std::to_string(want[i]);
  return "";
}

}  // namespace gms::kernels::polybench
