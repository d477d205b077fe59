// SIMT semantics of the port machinery: masks under branches and loops (lanes sit out and rejoin), register
// dependences from loads to the addresses, stores and branches computed from them, compute gaps, and
// barriers that order the host execution of a CTA's warps whatever order their streams are pulled in.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tb/kernels/port_kernel.h"
#include "tb/kernels/port_workload.h"

namespace gms::kernels {
namespace {

// The instructions of every warp of CTA 0 of a one-launch kernel, warp by warp.
std::vector<std::vector<WarpInst>> streams(KernelLaunch k, std::vector<uint32_t> pull_order = {}) {
  PortRuntime rt;
  PortKernel kernel(PortKernel::make_state(std::move(k)), rt);
  auto cta = kernel.next_cta();
  std::vector<std::vector<WarpInst>> out(cta->warps.size());
  if (pull_order.empty())
    for (uint32_t w = 0; w < cta->warps.size(); ++w) pull_order.push_back(w);
  for (uint32_t w : pull_order)
    for (WarpInst i; cta->warps[w]->next(i);) out[w].push_back(i);
  return out;
}

TEST(SimtWarp, BranchesMaskLanesAndReconverge) {
  DeviceArray<int32_t> a("a", 0x1000, 64);
  KernelLaunch k;
  k.name = "branches";
  k.block = {40, 1, 1};  // the second warp has 8 threads
  k.body = [&](Warp& w) {
    const Int t = w.thread_in_block();
    w.if_else(
        t % 2 == 0, [&] { w.load(0x10, a, t); }, [&] { w.load(0x20, a, t); });
    w.load(0x30, a, t);  // after the if/else: every thread again
  };
  auto s = streams(k);
  ASSERT_EQ(s.size(), 2u);
  ASSERT_EQ(s[0].size(), 3u);
  EXPECT_EQ(s[0][0].active_mask, 0x55555555u);
  EXPECT_EQ(s[0][1].active_mask, 0xaaaaaaaau);
  EXPECT_EQ(s[0][2].active_mask, 0xffffffffu);
  EXPECT_EQ(s[0][1].pc, 0x20u);
  EXPECT_EQ(s[0][2].addr[5], 0x1000u + 5 * 4);
  ASSERT_EQ(s[1].size(), 3u);  // threads 32..39
  EXPECT_EQ(s[1][0].active_mask, 0x55u);
  EXPECT_EQ(s[1][2].active_mask, 0xffu);
  EXPECT_EQ(s[1][2].addr[7], 0x1000u + 39 * 4);
}

TEST(SimtWarp, LoopsRunUntilTheirLastLaneLeaves) {
  DeviceArray<int32_t> a("a", 0x1000, 1024);
  KernelLaunch k;
  k.name = "loop";
  k.block = {32, 1, 1};
  k.body = [&](Warp& w) {
    const Int t = w.thread_in_block();
    // Lane t runs t % 4 iterations; lane 3 breaks out in its second iteration.
    w.for_(0, t % 4, 1, [&](const Int& i) {
      w.break_if(t == 3 && i == 1);
      w.load(0x10, a, t * 8 + i);
    });
    w.return_if(t >= 16);
    w.load(0x20, a, t);
  };
  auto s = streams(k)[0];
  ASSERT_EQ(s.size(), 4u);  // three iterations, then the load after the loop
  uint32_t has1 = 0, has2 = 0, has3 = 0;
  for (unsigned l = 0; l < 32; ++l) {
    has1 |= uint32_t(l % 4 >= 1) << l;
    has2 |= uint32_t(l % 4 >= 2 && l != 3) << l;
    has3 |= uint32_t(l % 4 >= 3 && l != 3) << l;
  }
  EXPECT_EQ(s[0].active_mask, has1);
  EXPECT_EQ(s[1].active_mask, has2);
  EXPECT_EQ(s[2].active_mask, has3);
  EXPECT_EQ(s[2].addr[7], 0x1000u + (7 * 8 + 2) * 4);
  EXPECT_EQ(s[3].active_mask, 0xffffu);  // every lane rejoined after the loop; 16..31 returned
}

TEST(SimtWarp, LoadsFeedTheInstructionsThatUseThem) {
  DeviceArray<int32_t> idx("idx", 0x1000, 32), data("data", 0x2000, 64);
  for (int i = 0; i < 32; ++i) idx[size_t(i)] = 63 - i;
  KernelLaunch k;
  k.name = "gather";
  k.block = {32, 1, 1};
  k.body = [&](Warp& w) {
    const Int t = w.thread_in_block();
    const Lanes<int32_t> j = w.load(0x10, idx, t);  // writes a register
    w.compute(5);
    const Lanes<int32_t> v = w.load(0x20, data, j.as<int64_t>());  // its address waits for it
    w.store(0x30, data, t, v + 1);                                 // the value waits for the second load
    w.if_(v > 100, [&] {});  // a branch on v: the next instruction waits
    w.compute(3);
    w.load(0x40, idx, t);
  };
  auto s = streams(k)[0];
  ASSERT_EQ(s.size(), 4u);
  EXPECT_FALSE(s[0].waits_on.any());
  EXPECT_EQ(s[0].writes.count(), 1u);
  EXPECT_TRUE(s[1].waits_on == s[0].writes);
  EXPECT_EQ(s[1].gap, 5u);
  EXPECT_EQ(s[1].wait_gap, 5u);
  EXPECT_EQ(s[1].addr[0], 0x2000u + 63 * 4);  // idx[0] = 63
  EXPECT_TRUE(s[2].waits_on == s[1].writes);
  EXPECT_FALSE(s[2].writes.any());
  EXPECT_TRUE(s[3].waits_on == s[1].writes);  // control dependence through the branch
  EXPECT_EQ(s[3].gap, 3u);
  EXPECT_EQ(data[0], 0 + 1);  // data[63 - 0] was 0: stored data[0] = 1
}

// Warp 1 reads after __syncthreads what warp 0 wrote to shared memory before it, and loads from the address
// it computes: right even when warp 1's stream is pulled first (warp 0 then runs up to the barrier first).
TEST(SimtWarp, BarriersOrderSharedMemoryAcrossWarps) {
  DeviceArray<int32_t> a("a", 0x1000, 1024);
  KernelLaunch k;
  k.name = "barrier";
  k.block = {64, 1, 1};
  k.body = [&](Warp& w) {
    std::vector<int64_t>& sh = w.shared<int64_t>(0, 64);
    const Int t = w.thread_in_block();
    w.shared_store(sh, t, t * 10);
    w.load(0x10, a, t);
    w.sync();
    const Lanes<int64_t> other = w.shared_load(sh, 63 - t);
    w.load(0x20, a, other);
  };
  for (auto order : {std::vector<uint32_t>{0, 1}, std::vector<uint32_t>{1, 0}}) {
    auto s = streams(k, order);
    ASSERT_EQ(s[1].size(), 3u);
    EXPECT_EQ(s[1][1].kind, MemKind::Barrier);
    EXPECT_EQ(s[1][1].active_mask, 0xffffffffu);
    EXPECT_EQ(s[1][2].addr[0], 0x1000u + (63 - 32) * 10 * 4);  // thread 32 reads what thread 31 wrote
    EXPECT_EQ(s[0][2].addr[0], 0x1000u + 63 * 10 * 4);
  }
}

// A port whose index arithmetic is wrong computes a wrong result.
class OffByOne : public KernelPort {
 public:
  explicit OffByOne(int64_t shift) : shift_(shift) {}
  void setup(DeviceMemory& mem) override {
    in_ = mem.alloc<int32_t>("in", 256);
    out_ = mem.alloc<int32_t>("out", 256);
    for (int i = 0; i < 256; ++i) in_[size_t(i)] = i * 3;
  }
  void run(Launcher& host) override {
    KernelLaunch k;
    k.name = "copy";
    k.grid = {2, 1, 1};
    k.block = {128, 1, 1};
    k.body = [this](Warp& w) {
      const Int i = w.global_x();
      w.store(0x20, out_, i, w.load(0x10, in_, min(i + shift_, int64_t(255))));
    };
    host.launch(k);
    host.launch(k);  // twice: the host code goes on after the first
  }
  std::string check() const override {
    for (size_t i = 0; i < 256; ++i)
      if (out_[i] != in_[i]) return "out[" + std::to_string(i) + "]";
    return "";
  }

 private:
  int64_t shift_;
  DeviceArray<int32_t> in_, out_;
};

TEST(SimtWarp, AWrongIndexGivesAWrongResult) {
  PortWorkload right("right", std::make_unique<OffByOne>(0));
  right.run_functionally();
  EXPECT_EQ(right.check(), "");
  EXPECT_EQ(right.kernels_launched(), 2u);
  PortWorkload wrong("wrong", std::make_unique<OffByOne>(1));
  wrong.run_functionally();
  EXPECT_EQ(wrong.check(), "out[0]");
  std::vector<AddressRange> f;
  ASSERT_TRUE(wrong.footprint(f));
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].begin, DeviceMemory::kDefaultBase);
  EXPECT_EQ(f[1].begin, DeviceMemory::kDefaultBase + 1024);  // 256 B alignment after 1 KiB
}

// A full warp whose index steps by a constant takes the fast path (its ends are the bounds, its addresses a
// progression kept as two numbers): unit, negative, zero and wide steps give the same values and addresses
// as lane by lane, a store of one element by every lane keeps lane 31's value, and an end outside the
// array still stops with the array's name.
TEST(SimtWarp, ConstantStepIndicesLoadAndStoreAsLaneByLane) {
  DeviceArray<int32_t> a("a", 0x10000, 8192), out("out", 0x40000, 8192);
  for (size_t i = 0; i < a.size(); ++i) a[i] = int32_t(i * 7 + 1);
  const std::vector<int64_t> steps = {1, -1, 0, 3, -100, 129};
  KernelLaunch k;
  k.name = "steps";
  k.block = {32, 1, 1};
  k.body = [&](Warp& w) {
    const Int t = w.thread_in_block();
    for (size_t s = 0; s < steps.size(); ++s) {
      const Int idx = t * steps[s] + int64_t(3200);
      const Lanes<int32_t> v = w.load(uint32_t(0x10 + s), a, idx);
      w.store(uint32_t(0x100 + s), out, idx, v + int32_t(s));
    }
  };
  auto st = streams(k);
  ASSERT_EQ(st.size(), 1u);
  ASSERT_EQ(st[0].size(), 2 * steps.size());
  for (size_t s = 0; s < steps.size(); ++s) {
    const WarpInst& ld = st[0][2 * s];
    const WarpInst& stv = st[0][2 * s + 1];
    EXPECT_EQ(ld.active_mask, ~0u);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const uint64_t i = uint64_t(int64_t(l) * steps[s] + 3200);
      EXPECT_EQ(ld.addr[l], 0x10000 + 4 * i) << "step " << steps[s] << " lane " << l;
      EXPECT_EQ(stv.addr[l], 0x40000 + 4 * i) << "step " << steps[s] << " lane " << l;
    }
  }
  // Program order: a later step overwrites an earlier one's element. Element 3200 is written by every step
  // (step 0 by all 32 lanes, lane 31 last), so the last one, step 129, leaves a[3200] + 5.
  EXPECT_EQ(out[3200], a[3200] + 5);
  EXPECT_EQ(out[3201], a[3201] + 0);        // step 1, lane 1
  EXPECT_EQ(out[3199], a[3199] + 1);        // step -1, lane 1
  EXPECT_EQ(out[3203], a[3203] + 3);        // step 3, lane 1
  EXPECT_EQ(out[3200 - 100], a[3100] + 4);  // step -100, lane 1
  EXPECT_EQ(out[3200 + 31 * 129], a[3200 + 31 * 129] + 5);

  KernelLaunch bad;
  bad.name = "past the end";
  bad.block = {32, 1, 1};
  bad.body = [&](Warp& w) { w.load(0x10, a, w.thread_in_block() * int64_t(300)); };  // lane 28: 8400
  try {
    run_functionally(bad);
    FAIL() << "no error";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("array 'a': index 8400 outside [0, 8192)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gms::kernels
