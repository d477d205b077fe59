// Co-resident launches (KernelLaunch::co_resident): CTAs that spin on each other's stores run to the end
// whatever order the consumer pulls their warps in (functionally, CTA by CTA and warp by warp, or round
// robin as SMs do), with or without a barrier inside the spin loop, and a launch that can never end throws
// instead of hanging.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

// CTA c waits until flags[c + 1] is set, then sets flags[c] = flags[c + 1] + 1: CTA 0 waits, through the
// chain, on the last CTA, which waits on the host's flags[ctas] (left 0 with `deadlock`). With `barrier`,
// thread 0 polls into shared memory and the CTA's warps meet at a barrier in every iteration of the loop.
class ChainPort : public KernelPort {
 public:
  ChainPort(uint32_t ctas, uint32_t threads, bool barrier, bool deadlock)
      : ctas_(ctas), threads_(threads), barrier_(barrier), deadlock_(deadlock) {}

  void setup(DeviceMemory& mem) override {
    flags_ = mem.alloc<int32_t>("flags", ctas_ + 1);
    if (!deadlock_) flags_[ctas_] = 1;
  }

  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "chain";
    k.grid = {ctas_, 1, 1};
    k.block = {threads_, 1, 1};
    k.co_resident = true;
    k.body = [this](Warp& w) { barrier_ ? with_barrier(w) : plain(w); };
    host.launch(std::move(k));
  }

  std::string check() const override {
    for (uint32_t c = 0; c <= ctas_; ++c)
      if (flags_[c] != int32_t(ctas_ + 1 - c))
        return "flags[" + std::to_string(c) + "] = " + std::to_string(flags_[c]);
    return "";
  }

 private:
  void plain(Warp& w) {
    const Int next(int64_t(w.block_idx().x) + 1);
    Lanes<int32_t> f = w.load(0x10, flags_, next);
    w.while_([&] { return f == 0; },
             [&] {
               w.spin();
               w.compute(2);
               const Lanes<int32_t> again = w.load(0x10, flags_, next);
               for (uint32_t b = w.active(); b; b &= b - 1) f.v[__builtin_ctz(b)] = again.v[__builtin_ctz(b)];
               f.deps |= again.deps;
             });
    w.if_(w.thread_in_block() == 0, [&] { w.store(0x20, flags_, next - 1, f + 1); });
  }

  void with_barrier(Warp& w) {
    auto& s = w.shared<int32_t>(0, 1);
    const Int next(int64_t(w.block_idx().x) + 1);
    const Bool t0 = w.thread_in_block() == 0;
    Lanes<int32_t> f(0);
    w.while_([&] { return f == 0; },
             [&] {
               w.if_(t0, [&] { w.shared_store(s, Int(0), w.load(0x10, flags_, next)); });
               w.sync();
               const Lanes<int32_t> seen = w.shared_load(s, Int(0));
               for (uint32_t b = w.active(); b; b &= b - 1) f.v[__builtin_ctz(b)] = seen.v[__builtin_ctz(b)];
               w.sync();  // nobody overwrites s before every warp has read it
               if (w.any(f == 0)) w.spin();
             });
    w.if_(t0, [&] { w.store(0x20, flags_, next - 1, f + 1); });
  }

  uint32_t ctas_, threads_;
  bool barrier_, deadlock_;
  DeviceArray<int32_t> flags_;
};

std::unique_ptr<PortWorkload> chain(uint32_t ctas, uint32_t threads, bool barrier, bool deadlock = false) {
  return std::make_unique<PortWorkload>("chain",
                                        std::make_unique<ChainPort>(ctas, threads, barrier, deadlock));
}

TEST(CoResident, TheFlagIsFalseByDefault) {
  EXPECT_FALSE(KernelLaunch{}.co_resident);
}

TEST(CoResident, ASpinChainRunsFunctionallyToTheEnd) {
  for (bool barrier : {false, true})
    for (uint32_t threads : {32u, 64u, 96u}) {
      auto p = chain(8, threads, barrier);
      p->run_functionally();
      EXPECT_EQ(p->check(), "") << barrier << " " << threads;
    }
}

TEST(CoResident, TwoCtasOneWaitingOnTheOther) {
  // CTA 0 spins on the flag CTA 1 sets (CTA 1's flag is the host's).
  for (bool barrier : {false, true}) {
    auto p = chain(2, 64, barrier);
    p->run_functionally();
    EXPECT_EQ(p->check(), "") << barrier;
  }
}

TEST(CoResident, PulledCtaByCtaWarpByWarpItEnds) {
  // CTA 0's warps are pulled first and spin on CTAs nobody pulled yet: those run on the host meanwhile.
  for (bool barrier : {false, true}) {
    auto p = chain(6, 64, barrier);
    const test::StreamSummary s = test::pull_all(*p);
    EXPECT_EQ(s.ctas, 6u);
    EXPECT_GT(s.loads, 6u);
    EXPECT_EQ(s.stores, 6u);  // one flag per CTA
    EXPECT_EQ(p->check(), "") << barrier;
  }
}

TEST(CoResident, PulledRoundRobinItEnds) {
  for (bool barrier : {false, true}) {
    auto p = chain(6, 96, barrier);
    EXPECT_GT(test::pull_round_robin(*p), 6u);
    EXPECT_EQ(p->check(), "") << barrier;
  }
}

TEST(CoResident, TheSameConsumerGetsTheSameStream) {
  for (bool barrier : {false, true}) {
    auto a = chain(5, 64, barrier), b = chain(5, 64, barrier);
    const test::StreamSummary sa = test::pull_all(*a), sb = test::pull_all(*b);
    EXPECT_EQ(sa.insts, sb.insts);
    EXPECT_EQ(sa.hash, sb.hash);
  }
}

TEST(CoResident, AConsumerThatStopsEarlyLeavesNothingBehind) {
  // CTAs made and never handed out belong to the launch's state: dropping the kernel, the CTA pulled and
  // then the workload (whose runtime outlives every CTA handed out) frees them, their warps unwound.
  auto p = chain(4, 64, true);
  std::unique_ptr<KernelSource> k = p->next_kernel();
  std::unique_ptr<CtaWork> c = k->next_cta();
  WarpInst i;
  EXPECT_TRUE(c->warps[0]->next(i));
  EXPECT_TRUE(c->warps[0]->next(i));  // past the barrier: the other CTAs ran on the host meanwhile
  c.reset();
  k.reset();
  p.reset();
}

TEST(CoResident, ADeadlockThrowsNamingTheKernel) {
  for (bool barrier : {false, true}) {
    auto p = chain(2, 64, barrier, true);
    try {
      p->run_functionally();
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("'chain'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("deadlock"), std::string::npos) << e.what();
    }
  }
  // Pulled warp by warp: the spinning warp's next() makes the rounds and throws.
  auto p = chain(2, 32, false, true);
  EXPECT_THROW(test::pull_all(*p), std::runtime_error);
}

}  // namespace
}  // namespace gms::kernels
