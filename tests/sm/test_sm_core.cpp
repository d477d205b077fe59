#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <tuple>

#include "models/common/memory_image.h"
#include "models/common/rng.h"
#include "tests/sm/sm_test_system.h"

using namespace gms;
using namespace gms::test;

namespace {

SmParams small_params(SchedulerKind s = SchedulerKind::Gto) {
  SmParams p;
  p.count = 1;
  p.scheduler = s;
  return p;
}

// (warp slot, pc, cycle) of each request the L1 saw.
std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> issue_trace(const SmSystem& sys, unsigned sm = 0) {
  std::vector<std::tuple<uint32_t, uint64_t, uint64_t>> out;
  for (const SeenRequest& r : sys.l1s[sm]->seen) out.emplace_back(r.warp, r.pc, sys.cycle_of(r.ps));
  return out;
}

// 4 warps x 3 one-line loads (pc 0x100, 0x108, 0x110); warp 0's second load waits 5 cycles.
TestKernel four_warps() {
  return make_kernel("k", 1, 4, [](uint32_t, uint32_t w) {
    std::vector<WarpInst> prog;
    for (uint32_t k = 0; k < 3; ++k)
      prog.push_back(make_inst(0x100 + 8 * k, MemKind::Load, 0x100000 + w * 0x10000 + k * 0x1000, 4, 32, 4,
                               (w == 0 && k == 1) ? 5 : 0));
    return prog;
  });
}

}  // namespace

TEST(SmCore, LrrIssueOrder) {
  SmSystem sys(small_params(SchedulerKind::Lrr), 1, {four_warps()}, 10);
  sys.run();
  using T = std::tuple<uint32_t, uint64_t, uint64_t>;
  std::vector<T> expect = {{0, 0x100, 0}, {1, 0x100, 1}, {2, 0x100, 2},  {3, 0x100, 3},
                           {1, 0x108, 4}, {2, 0x108, 5}, {3, 0x108, 6},  {0, 0x108, 7},
                           {1, 0x110, 8}, {2, 0x110, 9}, {3, 0x110, 10}, {0, 0x110, 11}};
  EXPECT_EQ(issue_trace(sys), expect);
}

TEST(SmCore, GtoIssueOrderAndEventCount) {
  SmSystem sys(small_params(SchedulerKind::Gto), 1, {four_warps()}, 10);
  sys.run();
  using T = std::tuple<uint32_t, uint64_t, uint64_t>;
  std::vector<T> expect = {{0, 0x100, 0}, {1, 0x100, 1}, {1, 0x108, 2},  {1, 0x110, 3},
                           {2, 0x100, 4}, {2, 0x108, 5}, {2, 0x110, 6},  {0, 0x108, 7},
                           {0, 0x110, 8}, {3, 0x100, 9}, {3, 0x108, 10}, {3, 0x110, 11}};
  EXPECT_EQ(issue_trace(sys), expect);
  EXPECT_EQ(sys.stat("sm0.warp_insts"), 12);
  EXPECT_EQ(sys.stat("sm0.load_insts"), 12);
  EXPECT_EQ(sys.stat("sm0.requests"), 12);
  EXPECT_EQ(sys.stat("sm0.responses"), 12);
  EXPECT_EQ(sys.stat("sm0.load_sectors"), 48);
  EXPECT_EQ(sys.stat("sm0.avg_load_latency"), 10);  // issue -> response of a one-line load
  EXPECT_EQ(sys.stat("sm0.active_cycles"), 21);     // last response at 11 + 10
  // One activation per issue cycle (0..11) plus the one that retires the CTA: nothing idle.
  EXPECT_EQ(sys.stat("sm0.wakeups"), 13);
}

TEST(SmCore, GapHonouredAndPipelineBlocksIssue) {
  std::vector<WarpInst> prog = {
      make_inst(0xA, MemKind::Load, 0x1000, 4, 32, 4, 3),   // ready 3
      make_inst(0xB, MemKind::Load, 0x2000, 4, 32, 4, 0),   // ready 3, one issue per cycle: 4
      make_inst(0xC, MemKind::Load, 0x3000, 128, 3, 4, 5),  // 9; three lines sent at 9, 10, 11
      make_inst(0xD, MemKind::Store, 0x4000, 4, 32, 4, 1),  // ready 10, pipeline busy until 11: 12
      make_inst(0xE, MemKind::Load, 0x5000, 4, 32, 4, 4)};  // 16
  TestKernel k;
  k.info.name = "gaps";
  k.info.num_ctas = 1;
  k.info.threads_per_cta = 32;
  k.ctas = {{prog}};
  SmSystem sys(small_params(), 1, {k}, 10);
  sys.run();
  std::vector<uint64_t> cycles;
  for (const SeenRequest& r : sys.l1s[0]->seen) {
    cycles.push_back(sys.cycle_of(r.ps));
    EXPECT_EQ(r.ps % sys.sms[0]->clock().period_ps(), 0u);
  }
  EXPECT_EQ(cycles, (std::vector<uint64_t>{3, 4, 9, 10, 11, 12, 16}));
  EXPECT_EQ(sys.stat("sm0.active_cycles"), 26);
  EXPECT_EQ(sys.stat("sm0.store_insts"), 1);
  EXPECT_EQ(sys.stat("sm0.store_line_requests"), 1);
  EXPECT_EQ(sys.stat("sm0.load_line_requests"), 6);
  EXPECT_EQ(sys.stat("sm0.load_sectors"), 15);  // 4 + 4 + 3 x 1 + 4
  // Latencies: 10, 10, 12 (issue 9, last response 11 + 10), 10 -> mean 10.5, max 12.
  EXPECT_EQ(sys.stat("sm0.avg_load_latency"), 10.5);
  EXPECT_EQ(sys.stat("sm0.wakeups"), 8);  // 3, 4, 9, 10, 11, 12, 16 and the retirement at 26
}

TEST(SmCore, PerWarpLimitStallsThePipelineExactly) {
  SmParams p = small_params();
  p.max_outstanding_per_warp = 2;
  TestKernel k = make_kernel("one", 1, 1, [](uint32_t, uint32_t) {
    return std::vector<WarpInst>{make_inst(1, MemKind::Load, 0x10000, 128, 4)};
  });
  SmSystem sys(p, 1, {k}, 20);
  sys.run();
  std::vector<uint64_t> cycles;
  for (const SeenRequest& r : sys.l1s[0]->seen) cycles.push_back(sys.cycle_of(r.ps));
  EXPECT_EQ(cycles, (std::vector<uint64_t>{0, 1, 20, 21}));
  EXPECT_EQ(sys.stat("sm0.limit_stall_cycles"), 18);  // cycles 2..19
  EXPECT_EQ(sys.stat("sm0.mem_stall_cycles"), 0);
  EXPECT_EQ(sys.l1s[0]->warp_max_in_flight[0], 2);
  EXPECT_EQ(sys.stat("sm0.avg_load_latency"), 41);  // issue 0, last response 21 + 20
}

TEST(SmCore, OutstandingLimitsNeverExceeded) {
  // One-line loads let several warps have requests in flight, so the per-SM limit (3) binds; eight-line
  // loads at the end press the per-warp limit (2).
  SmParams p = small_params();
  p.max_outstanding_per_warp = 2;
  p.max_outstanding_per_sm = 3;
  TestKernel k = make_kernel("lim", 1, 4, [](uint32_t, uint32_t w) {
    std::vector<WarpInst> prog;
    for (uint32_t i = 0; i < 6; ++i)
      prog.push_back(make_inst(i, MemKind::Load, 0x100000 * (w + 1) + i * 0x1000, 4));
    for (uint32_t i = 6; i < 8; ++i)
      prog.push_back(make_inst(i, MemKind::Load, 0x100000 * (w + 1) + i * 0x10000, 128, 8));
    return prog;
  });
  SmSystem sys(p, 1, {k}, 13);
  sys.run();
  const FakeL1& l1 = *sys.l1s[0];
  EXPECT_EQ(l1.seen.size(), 4u * (6 + 16));
  EXPECT_EQ(l1.responses, l1.seen.size());
  EXPECT_EQ(l1.max_in_flight, 3);
  for (uint32_t w = 0; w < 4; ++w) EXPECT_EQ(l1.warp_max_in_flight.at(w), 2) << "warp " << w;
  EXPECT_EQ(sys.stat("sm0.max_in_flight"), 3);
  EXPECT_GT(sys.stat("sm0.limit_stall_cycles"), 0);
  EXPECT_EQ(sys.stat("sm0.requests"), 88);
  EXPECT_EQ(sys.stat("sm0.responses"), 88);
}

TEST(SmCore, HeldEndReqGivesExactlyThoseStallCycles) {
  TestKernel k = make_kernel("hold", 1, 1, [](uint32_t, uint32_t) {
    return std::vector<WarpInst>{make_inst(1, MemKind::Load, 0x10000, 128, 5)};
  });
  SmSystem sys(small_params(), 1, {k}, 10);
  sys.l1s[0]->hold = [](uint64_t n) -> uint64_t { return n == 1 ? 7 : n == 3 ? 3 : 0; };
  sys.run();
  std::vector<uint64_t> cycles;
  for (const SeenRequest& r : sys.l1s[0]->seen) cycles.push_back(sys.cycle_of(r.ps));
  EXPECT_EQ(cycles, (std::vector<uint64_t>{0, 1, 8, 9, 12}));
  EXPECT_EQ(sys.stat("sm0.mem_stall_cycles"), 10);  // 7 + 3
  EXPECT_EQ(sys.stat("sm0.responses"), 5);
}

TEST(SmCore, ObserverSeesTheRightBytes) {
  WarpInst st0 = make_inst(0x10, MemKind::Store, 0x5000, 4, 8, 4);
  WarpInst st1 = make_inst(0x18, MemKind::Store, 0, 0, 2, 8);
  st1.addr[0] = 0x507C;  // crosses into line 0x5080
  st1.addr[1] = 0x6000;
  WarpInst ld0 = make_inst(0x20, MemKind::Load, 0x5000, 4, 8, 4);
  WarpInst ld1 = make_inst(0x28, MemKind::Load, 0, 0, 3, 8);
  ld1.addr[0] = 0x507C;
  ld1.addr[1] = 0x6000;
  ld1.addr[2] = 0x7000;  // never written: the initial image
  // CTA 1 warp 1 does the work (warp_uid 3); the other warps have empty programs.
  TestKernel k = make_kernel("obs", 2, 2, [&](uint32_t c, uint32_t w) {
    return c == 1 && w == 1 ? std::vector<WarpInst>{st0, st1, ld0, ld1} : std::vector<WarpInst>{};
  });
  RecordingObserver obs;
  SmSystem sys(small_params(), 1, {k}, 5, &obs);
  sys.run();
  auto store_bytes = [](uint64_t seq, uint64_t a, unsigned n) {
    std::vector<uint8_t> v;
    for (unsigned b = 0; b < n; ++b) v.push_back(SmCore::store_byte(0, seq, a + b));
    return v;
  };
  ASSERT_EQ(obs.stores.size(), 10u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(obs.stores[i].warp_uid, 3u);
    EXPECT_EQ(obs.stores[i].addr, 0x5000u + 4 * i);
    EXPECT_EQ(obs.stores[i].bytes, store_bytes(0, 0x5000 + 4 * i, 4));
  }
  EXPECT_EQ(obs.stores[8].addr, 0x507Cu);
  EXPECT_EQ(obs.stores[8].bytes, store_bytes(1, 0x507C, 8));
  EXPECT_EQ(obs.stores[9].bytes, store_bytes(1, 0x6000, 8));
  // The bytes the L1 received (byte enables applied) are the observed ones; nothing else was written.
  EXPECT_EQ(sys.mem.bytes.size(), 8u * 4 + 2 * 8);
  for (const SeenAccess& s : obs.stores)
    for (unsigned b = 0; b < s.bytes.size(); ++b) EXPECT_EQ(sys.mem.read(s.addr + b), s.bytes[b]);
  ASSERT_EQ(obs.loads.size(), 12u);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(obs.loads[i].warp_uid, 3u);
    EXPECT_EQ(obs.loads[i].addr, 0x5000u + 4 * i);
    EXPECT_EQ(obs.loads[i].bytes, store_bytes(0, 0x5000 + 4 * i, 4));
  }
  // The crossing lane is reported per line: 4 bytes from each.
  EXPECT_EQ(obs.loads[8].addr, 0x507Cu);
  EXPECT_EQ(obs.loads[8].bytes, store_bytes(1, 0x507C, 4));
  EXPECT_EQ(obs.loads[9].addr, 0x5080u);
  EXPECT_EQ(obs.loads[9].bytes, store_bytes(1, 0x5080, 4));
  EXPECT_EQ(obs.loads[10].bytes, store_bytes(1, 0x6000, 8));
  EXPECT_EQ(obs.loads[11].addr, 0x7000u);
  for (unsigned b = 0; b < 8; ++b) EXPECT_EQ(obs.loads[11].bytes[b], initial_byte(0x7000 + b));
  EXPECT_EQ(obs.kernel_ends, 1);
  EXPECT_EQ(sys.stat("sm0.ctas_completed"), 2);
}

TEST(SmCore, EveryRequestGetsOneResponse) {
  // Random loads and stores over three kernels on two SMs, with the L1 holding END_REQ now and then.
  SmParams p = small_params();
  std::vector<TestKernel> kernels;
  Rng rng(42);
  for (int kk = 0; kk < 3; ++kk)
    kernels.push_back(make_kernel("rand" + std::to_string(kk), 12, 4, [&](uint32_t, uint32_t) {
      std::vector<WarpInst> prog;
      for (int i = 0; i < 40; ++i) {
        WarpInst inst = make_inst(uint64_t(i), rng.chance(0.3) ? MemKind::Store : MemKind::Load, 0, 0, 32, 4,
                                  uint32_t(rng.below(4)));
        inst.active_mask = uint32_t(rng.next()) | 1;
        const uint64_t base = rng.below(1 << 20) * 4, stride = uint64_t(4) << rng.below(6);
        for (unsigned l = 0; l < 32; ++l) inst.addr[l] = base + l * stride;
        prog.push_back(inst);
      }
      return prog;
    }));
  SmSystem sys(p, 2, kernels, 17);
  for (auto& l1 : sys.l1s) {
    l1->hold = [](uint64_t n) -> uint64_t { return n % 7 == 3 ? n % 5 : 0; };
    l1->keep_data = false;
  }
  int done_calls = 0;
  sys.dispatcher->set_on_done([&] { ++done_calls; });
  const auto t0 = std::chrono::steady_clock::now();
  sys.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(sys.dispatcher->done());
  EXPECT_EQ(done_calls, 1);
  EXPECT_EQ(sys.pool.in_use(), 0u);
  uint64_t total = 0;
  for (unsigned s = 0; s < 2; ++s) {
    const std::string sm = "sm" + std::to_string(s) + ".";
    const FakeL1& l1 = *sys.l1s[s];
    EXPECT_EQ(l1.responses, l1.seen.size());
    EXPECT_EQ(sys.stat(sm + "requests"), double(l1.seen.size()));
    EXPECT_EQ(sys.stat(sm + "responses"), double(l1.seen.size()));
    EXPECT_EQ(sys.stat(sm + "line_requests"), double(l1.seen.size()));
    uint64_t load_sectors = 0, store_sectors = 0;
    for (const SeenRequest& r : l1.seen)
      (r.write ? store_sectors : load_sectors) += unsigned(popcount8(r.chunks));
    EXPECT_EQ(sys.stat(sm + "load_sectors"), double(load_sectors));
    EXPECT_EQ(sys.stat(sm + "store_sectors"), double(store_sectors));
    EXPECT_LE(l1.max_in_flight, int(p.max_outstanding_per_sm));
    for (auto [w, m] : l1.warp_max_in_flight) EXPECT_LE(m, int(p.max_outstanding_per_warp));
    EXPECT_GT(sys.stat(sm + "mem_stall_cycles"), 0);
    total += l1.seen.size();
  }
  EXPECT_EQ(sys.stat("sm0.warp_insts") + sys.stat("sm1.warp_insts"), 3 * 12 * 4 * 40);
  EXPECT_EQ(sys.stat("kernels.kernels"), 3);
  std::cout << "[ measure  ] " << total << " line requests in " << wall
            << " s wall = " << double(total) / wall << " requests/s (2 SMs, fake L1s)\n";
}

TEST(SmCore, TracesOnlySelectedSms) {
  const std::string path = std::string(GMS_BINARY_DIR) + "/test_sm_trace.vcd";
  auto trace = std::make_unique<TraceSelector>(path, std::vector<std::string>{"sm0"});
  SmSystem sys(
      small_params(), 2,
      {make_kernel("t", 2, 1,
                   [](uint32_t c, uint32_t) {
                     return std::vector<WarpInst>{make_inst(1, MemKind::Load, 0x1000 * (c + 1), 128, 3)};
                   })},
      10, nullptr, trace.get());
  sys.run();
  trace->close();  // writes the file (destroyed without close(), an error path, it is discarded)
  trace.reset();
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("$scope module sm0 $end"), std::string::npos);
  EXPECT_NE(text.str().find(" in_flight "), std::string::npos);
  EXPECT_NE(text.str().find(" resident_ctas "), std::string::npos);
  EXPECT_EQ(text.str().find("sm1"), std::string::npos);
}
