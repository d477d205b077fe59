// A crossbar between scripted fake L1s and fake LLC slices, for the interconnect tests. The route sends
// line L (address / 128) to target L mod targets, so address 128 * j reaches target j.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "models/common/block_env.h"
#include "models/noc/interconnect.h"
#include "tests/noc/fake_initiator.h"
#include "tests/noc/fake_target.h"

namespace gms::test {

struct NocBench {
  StatGroup root{"root"};
  PayloadPool pool;
  BlockEnv env;
  std::unique_ptr<Interconnect> noc;
  std::vector<std::unique_ptr<FakeInitiator>> ini;
  std::vector<std::unique_ptr<FakeTarget>> tgt;

  // `trace` (optional) selects blocks for VCD probes; it must outlive the simulation.
  NocBench(const NocParams& p, unsigned initiators, unsigned targets, const TraceSelector* trace = nullptr,
           unsigned slices_per_mc = 1);
  // Address of the k-th distinct line that routes to target j.
  uint64_t line_to(unsigned j, unsigned k = 0) const { return 128ull * (j + uint64_t(k) * tgt.size()); }
  double stat(const std::string& path) const { return root.value("xbar." + path); }
};

// Test parameters: a 1 GHz NoC clock so cycles read as nanoseconds; everything else at its default.
NocParams ns_params();

}  // namespace gms::test
