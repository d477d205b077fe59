#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "models/common/config.h"
#include "tests/sm/sm_test_system.h"

using namespace gms;
using namespace gms::test;

namespace {

std::vector<WarpInst> loads(uint32_t n, uint64_t base, uint64_t pc0 = 0) {
  std::vector<WarpInst> prog;
  for (uint32_t i = 0; i < n; ++i) prog.push_back(make_inst(pc0 + i, MemKind::Load, base + i * 128, 4));
  return prog;
}

// Most CTAs of `k` resident on one SM at once.
int max_resident(const SmParams& p, TestKernel k) {
  const uint32_t n = k.info.num_ctas;
  SmSystem sys(p, 1, {std::move(k)}, 10);
  sys.run();
  EXPECT_EQ(sys.stat("sm0.ctas_completed"), n);
  EXPECT_EQ(sys.workload.life.launched.size(), n);
  EXPECT_EQ(sys.workload.life.live, 0);
  return sys.workload.life.max_live;
}

TestKernel occupancy_kernel(uint32_t warps) {
  return make_kernel("occ", 10, warps,
                     [](uint32_t c, uint32_t w) { return loads(3, 0x100000 * (c + 1) + w * 0x1000); });
}

}  // namespace

TEST(CtaDispatcher, OccupancyMaxCtas) {
  SmParams p;
  p.max_ctas = 3;
  EXPECT_EQ(max_resident(p, occupancy_kernel(1)), 3);
}

TEST(CtaDispatcher, OccupancyMaxWarps) {
  SmParams p;
  p.max_warps = 8;
  EXPECT_EQ(max_resident(p, occupancy_kernel(3)), 2);  // 6 warps; a third CTA would need 9
}

TEST(CtaDispatcher, OccupancyMaxThreads) {
  SmParams p;
  p.max_threads = 320;
  EXPECT_EQ(max_resident(p, occupancy_kernel(4)), 2);  // 256 threads; a third CTA would need 384
}

TEST(CtaDispatcher, OccupancyRegistersAndSharedMemory) {
  SmParams p;
  TestKernel k = occupancy_kernel(2);
  k.info.regs_per_thread = 100;  // 6400 per CTA: 5 fit in 32768
  EXPECT_EQ(max_resident(p, k), 5);
}

TEST(CtaDispatcher, OccupancySharedMemory) {
  SmParams p;
  TestKernel k = occupancy_kernel(1);
  k.info.shmem_per_cta = 16000;  // 3 fit in 49152
  EXPECT_EQ(max_resident(p, k), 3);
}

TEST(CtaDispatcher, RoundRobinThenFirstDoneFirstServed) {
  SmParams p;
  p.max_ctas = 2;
  const std::vector<uint32_t> len = {20, 20, 20, 20, 1, 20, 1, 1};
  TestKernel k =
      make_kernel("rr", 8, 1, [&](uint32_t c, uint32_t) { return loads(len[c], 0x100000 * (c + 1)); });
  SmSystem sys(p, 3, {k}, 10);
  sys.run();
  std::map<uint32_t, uint32_t> sm_of;  // CTA -> SM, from the requests the L1s saw
  for (unsigned s = 0; s < 3; ++s)
    for (const SeenRequest& r : sys.l1s[s]->seen) {
      EXPECT_EQ(r.sm, s);
      sm_of[r.cta] = s;
    }
  EXPECT_EQ(sm_of,
            (std::map<uint32_t, uint32_t>{{0, 0}, {1, 1}, {2, 2}, {3, 0}, {4, 1}, {5, 2}, {6, 1}, {7, 1}}));
  // CTA 4 (one load, issued at 8 behind CTA 1's eight) retires at 18; CTA 6 then runs 18..28.
  std::vector<std::pair<uint32_t, uint64_t>> launched;
  for (auto [cta, ps] : sys.workload.life.launched) launched.push_back({cta, sys.cycle_of(ps)});
  EXPECT_EQ(launched, (std::vector<std::pair<uint32_t, uint64_t>>{
                          {0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 18}, {7, 28}}));
}

TEST(CtaDispatcher, KernelEndHooksRunOnceBetweenKernels) {
  std::vector<TestKernel> kernels;
  for (uint32_t kk = 0; kk < 3; ++kk)
    kernels.push_back(make_kernel("kern" + std::to_string(kk), 3, 2, [kk](uint32_t c, uint32_t w) {
      auto prog = loads(4 + c, 0x1000000 * (kk + 1) + c * 0x10000 + w * 0x1000, 0x1000 * (kk + 1));
      prog.push_back(
          make_inst(0x1000 * (kk + 1) + 0x800, MemKind::Store, 0x9000000 + c * 0x1000 + w * 128, 4));
      return prog;
    }));
  RecordingObserver obs;
  SmSystem sys(SmParams(), 2, kernels, 9, &obs);
  std::vector<uint64_t> hook_ps;
  std::vector<size_t> requests_at_hook;
  sys.dispatcher->add_kernel_end_hook([&] {
    size_t seen = 0;
    for (auto& l1 : sys.l1s) {
      EXPECT_EQ(l1->in_flight, 0);
      EXPECT_EQ(l1->responses, l1->seen.size());
      seen += l1->seen.size();
    }
    EXPECT_EQ(obs.kernel_ends, int(hook_ps.size()));  // the observer hears of the end after the hooks
    hook_ps.push_back(Clock::now_ps());
    requests_at_hook.push_back(seen);
  });
  sys.run();
  ASSERT_EQ(hook_ps.size(), 3u);
  EXPECT_EQ(obs.kernel_ends, 3);
  const auto& rec = sys.dispatcher->kernels();
  ASSERT_EQ(rec.size(), 3u);
  for (uint32_t kk = 0; kk < 3; ++kk) {
    EXPECT_EQ(rec[kk].name, "kern" + std::to_string(kk));
    EXPECT_EQ(rec[kk].end_ps, hook_ps[kk]);
    EXPECT_EQ(rec[kk].instructions, 3u * 2 * 5 + 2 * (0 + 1 + 2));  // (4 + c) loads + 1 store per warp
    if (kk > 0) {
      EXPECT_EQ(rec[kk].start_cycle, rec[kk - 1].end_cycle);  // next kernel in the same cycle
    }
    // Every request of kernel kk arrives after hook kk-1 and before hook kk; the first at the kernel start.
    uint64_t first = UINT64_MAX;
    size_t count = 0;
    for (auto& l1 : sys.l1s)
      for (const SeenRequest& r : l1->seen)
        if (r.pc / 0x1000 == kk + 1) {
          ++count;
          first = std::min(first, r.ps);
          EXPECT_LE(r.ps, hook_ps[kk]);
          if (kk > 0) {
            EXPECT_GE(r.ps, hook_ps[kk - 1]);
          }
        }
    EXPECT_EQ(sys.cycle_of(first), rec[kk].start_cycle);
    EXPECT_EQ(count, requests_at_hook[kk] - (kk ? requests_at_hook[kk - 1] : 0));
    const std::string g = "kernels.k" + std::to_string(kk) + ".";
    EXPECT_EQ(sys.stat(g + "cycles"), double(rec[kk].cycles()));
    EXPECT_EQ(sys.stat(g + "instructions"), double(rec[kk].instructions));
    EXPECT_GT(rec[kk].cycles(), 0u);
  }
  EXPECT_EQ(sys.stat("kernels.kernels"), 3);
  EXPECT_EQ(sys.stat("kernels.ctas"), 9);
  EXPECT_EQ(sys.stat("kernels.cycles"), double(rec[2].end_cycle));
  EXPECT_TRUE(sys.dispatcher->done());
  EXPECT_EQ(uint64_t(sys.dispatcher->finish_time().value()), rec[2].end_ps);
  EXPECT_EQ(rec[2].end_ps, rec[2].end_cycle * sys.sms[0]->clock().period_ps());
}

TEST(CtaDispatcher, KernelWithoutCtasIsAnError) {
  TestKernel k = make_kernel("empty", 0, 1, [](uint32_t, uint32_t) { return std::vector<WarpInst>{}; });
  SmSystem sys(SmParams(), 1, {k}, 10);
  try {
    sys.dispatcher->start();
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "workload 'vectors': kernel 'empty' has no CTAs");
  }
}

TEST(CtaDispatcher, CtaThatFitsNoSmIsAnError) {
  TestKernel k = make_kernel("huge", 2, 64, [](uint32_t, uint32_t) { return loads(1, 0); });  // 2048 threads
  SmSystem sys(SmParams(), 2, {k}, 10);
  try {
    sys.dispatcher->start();
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(
        e.what(),
        "workload 'vectors': kernel 'huge': one CTA (2048 threads, 0 registers/thread, 0 B shared memory) "
        "fits no SM (limits: 48 warps, 1536 threads, 32768 registers, 49152 B shared memory)");
  }
}

TEST(CtaDispatcher, CoResidentKernelRunsWhenItsGridFitsAtOnce) {
  SmParams p;
  p.max_ctas = 3;
  TestKernel k = make_kernel("occ", 6, 1, [](uint32_t c, uint32_t) { return loads(3, 0x100000 * (c + 1)); });
  k.info.co_resident = true;  // 2 SMs x 3 CTAs hold all 6
  SmSystem sys(p, 2, {k}, 10);
  sys.run();
  EXPECT_EQ(sys.stat("kernels.ctas"), 6);
}

TEST(CtaDispatcher, CoResidentKernelLargerThanTheMachineIsAnError) {
  SmParams p;
  p.max_ctas = 3;
  TestKernel k = make_kernel("occ", 7, 1, [](uint32_t c, uint32_t) { return loads(3, 0x100000 * (c + 1)); });
  k.info.co_resident = true;
  SmSystem sys(p, 2, {k}, 10);
  try {
    sys.dispatcher->start();
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "workload 'vectors': kernel 'occ' needs its 7 CTAs resident at once (they wait on each "
                 "other), but the 2 SMs hold 6 of them: make the grid smaller (the port's size keys) or the "
                 "configuration larger");
  }
}

TEST(CtaDispatcher, LaterBadKernelStopsTheRunWithItsName) {
  TestKernel ok = make_kernel("first", 1, 1, [](uint32_t, uint32_t) { return loads(2, 0); });
  TestKernel bad = make_kernel("second", 0, 1, [](uint32_t, uint32_t) { return std::vector<WarpInst>{}; });
  SmSystem sys(SmParams(), 1, {ok, bad}, 10);
  try {
    sys.run();
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("kernel 'second' has no CTAs"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sys.dispatcher->kernels().size(), 1u);
}

TEST(CtaDispatcher, EmptyWorkloadIsDoneAtOnce) {
  SmSystem sys(SmParams(), 1, {}, 10);
  int done = 0;
  sys.dispatcher->set_on_done([&] { ++done; });
  sys.run();
  EXPECT_TRUE(sys.dispatcher->done());
  EXPECT_EQ(done, 1);
  EXPECT_EQ(sys.stat("sm0.wakeups"), 0);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
}
