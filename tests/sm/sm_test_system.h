// A small system for SM tests: N SmCores, each bound to its own FakeL1 over a shared FakeMemory, and a
// CtaDispatcher over a VectorWorkload.
#pragma once
#include <memory>
#include <vector>

#include "models/common/block_env.h"
#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/sm/cta_dispatcher.h"
#include "models/sm/sm_core.h"
#include "tests/sm/sm_test_support.h"

namespace gms::test {

struct SmSystem {
  SmSystem(const SmParams& p, unsigned num_sms, std::vector<TestKernel> kernels, uint64_t l1_latency,
           MemObserver* observer = nullptr, const TraceSelector* trace = nullptr)
      : root("root"), workload(std::move(kernels)) {
    env.stats = &root;
    env.trace = trace;
    env.pool = &pool;
    std::vector<StreamingMultiprocessor*> cores;
    for (unsigned i = 0; i < num_sms; ++i) {
      sms.push_back(std::make_unique<SmCore>(("sm" + std::to_string(i)).c_str(), p, i, env, observer));
      l1s.push_back(
          std::make_unique<FakeL1>(("l1_" + std::to_string(i)).c_str(), mem, l1_latency, p.clock_mhz));
      sms.back()->isock.bind(l1s.back()->tsock);
      cores.push_back(sms.back().get());
    }
    dispatcher = std::make_unique<CtaDispatcher>(workload, cores, env);
    dispatcher->set_observer(observer);
  }
  // Starts the workload and runs the simulation to its end.
  void run() {
    dispatcher->start();
    sc_core::sc_start();
  }
  double stat(const std::string& path) const { return root.value(path); }
  uint64_t cycle_of(uint64_t ps) const { return ps / sms[0]->clock().period_ps(); }

  PayloadPool pool;
  StatGroup root;
  BlockEnv env;
  FakeMemory mem;
  VectorWorkload workload;
  std::vector<std::unique_ptr<SmCore>> sms;
  std::vector<std::unique_ptr<FakeL1>> l1s;
  std::unique_ptr<CtaDispatcher> dispatcher;
};

// A kernel of `ctas` CTAs of `warps` warps each running the program `prog(cta, warp)`.
TestKernel make_kernel(const std::string& name, uint32_t ctas, uint32_t warps,
                       const std::function<std::vector<WarpInst>(uint32_t, uint32_t)>& prog);

}  // namespace gms::test
