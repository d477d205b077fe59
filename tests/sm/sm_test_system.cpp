#include "tests/sm/sm_test_system.h"

namespace gms::test {

TestKernel make_kernel(const std::string& name, uint32_t ctas, uint32_t warps,
                       const std::function<std::vector<WarpInst>(uint32_t, uint32_t)>& prog) {
  TestKernel k;
  k.info.name = name;
  k.info.num_ctas = ctas;
  k.info.threads_per_cta = warps * kWarpSize;
  k.ctas.resize(ctas);
  for (uint32_t c = 0; c < ctas; ++c)
    for (uint32_t w = 0; w < warps; ++w) k.ctas[c].push_back(prog(c, w));
  return k;
}

}  // namespace gms::test
