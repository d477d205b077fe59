#include "tests/noc/noc_bench.h"

namespace gms::test {

NocBench::NocBench(const NocParams& p, unsigned initiators, unsigned targets, const TraceSelector* trace,
                   unsigned slices_per_mc) {
  env.stats = &root;
  env.trace = trace;
  env.pool = &pool;
  noc = make_interconnect(
      p, "xbar",
      [targets](const tlm::tlm_generic_payload& t, unsigned) {
        return unsigned((t.get_address() / 128) % targets);
      },
      env, slices_per_mc);
  for (unsigned i = 0; i < initiators; ++i) {
    ini.push_back(std::make_unique<FakeInitiator>(("l1_" + std::to_string(i)).c_str(), i, pool));
    ini.back()->isock.bind(noc->up);
  }
  for (unsigned j = 0; j < targets; ++j) {
    tgt.push_back(std::make_unique<FakeTarget>(("llc" + std::to_string(j)).c_str(), j));
    noc->down.bind(tgt.back()->tsock);
  }
}

NocParams ns_params() {
  NocParams p;
  p.clock_mhz = 1000;
  return p;
}

}  // namespace gms::test
