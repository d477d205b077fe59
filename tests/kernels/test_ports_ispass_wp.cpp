// ISPASS-2009 WP (WSM5 microphysics): the port computes the kernel's result (the sequential reference of the
// same column physics, bit for bit) on small tiles, emits an exactly known stream prefix on a tiny one, and
// emits the same stream twice.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/kernels/port_test_util.h"

namespace gms::kernels {
namespace {

using test::make_port;
using test::pull_all;

constexpr uint64_t kBase = DeviceMemory::kDefaultBase;

TEST(IspassWp, ComputesTheMicrophysics) {
  for (const char* size :
       {"{nx: 8, ny: 8, nz: 10}", "{nx: 13, ny: 11, nz: 27, seed: 5}", "{nx: 20, ny: 9, nz: 27, delt: 60}"}) {
    auto p = make_port("ispass/wp", size);
    p->run_functionally();
    EXPECT_EQ(p->check(), "") << size;
  }
}

TEST(IspassWp, Stream) {
  // One 8x8 CTA over a 5x5 tile (lanes x < 5 of rows 0..3 in warp 0, of row 4 in warp 1), nz = 4, delt 180 s
  // (two time steps). Each warp starts with the t loop (th, pii loads and t's local store per level) and
  // ends with the th loop (local t, pii loads and the th store); every time step stores xni = 1e3 at each
  // level. Arrays: 10 of 100 floats (512 B apart), 5 of 25 (256 B), retvals, then the local frames.
  const uint64_t nx = 5, nz = 4, plane = nx * nz, local = kBase + 10 * 512 + 5 * 256 + 256;
  std::vector<std::vector<WarpInst>> warps(2);
  unsigned warp = 0;
  uint64_t xni_init = 0;
  const auto s = pull_all(*make_port("ispass/wp", "{nx: 5, ny: 5, nz: 4}"),
                          [&](uint64_t, const std::string&, const WarpInst& i) {
                            if (!warps[warp].empty() && i.pc == 0x10 && warps[warp].back().pc == 0x9b0)
                              ++warp;
                            warps[warp].push_back(i);
                            xni_init += i.pc == 0x170;
                          });
  ASSERT_EQ(s.kernels, 1u);
  EXPECT_EQ(s.kernel_names[0], "wsm5_gpu");
  EXPECT_EQ(s.ctas, 1u);
  EXPECT_EQ(s.warps, 2u);
  EXPECT_EQ(s.atomics, 0u);
  EXPECT_EQ(s.barriers, 0u);
  EXPECT_EQ(xni_init, 2u * 2 * nz);
  const uint32_t mask[2] = {0x1f1f1f1fu, 0x1fu};
  for (unsigned wi = 0; wi < 2; ++wi) {
    const std::vector<WarpInst>& v = warps[wi];
    ASSERT_GT(v.size(), 6 * nz);
    for (const WarpInst& i : v) EXPECT_EQ(i.active_mask & ~mask[wi], 0u);
    const uint64_t row = wi * 4;  // jg of lane 0
    for (uint64_t k = 0; k < nz; ++k) {
      const WarpInst &th = v[3 * k], &pii = v[3 * k + 1], &t = v[3 * k + 2];
      EXPECT_EQ(th.pc, 0x10u);
      EXPECT_EQ(th.kind, MemKind::Load);
      EXPECT_EQ(th.active_mask, mask[wi]);
      EXPECT_EQ(th.addr[0], kBase + (k * nx + row * plane) * 4);
      EXPECT_EQ(th.addr[4], kBase + (4 + k * nx + row * plane) * 4);
      EXPECT_EQ(pii.addr[0], kBase + 512 + (k * nx + row * plane) * 4);
      EXPECT_EQ(t.kind, MemKind::Store);
      // t (frame offset 448 B: word 112 + k) of thread 32 * wi + lane: word * 64 threads + thread
      EXPECT_EQ(t.addr[0], local + ((112 + k) * 64 + 32 * wi) * 4);
      if (wi == 0) {
        EXPECT_EQ(th.addr[8], kBase + (k * nx + plane) * 4);  // thread (0, 1): the next j
        EXPECT_EQ(t.addr[8], local + ((112 + k) * 64 + 8) * 4);
      }
      const WarpInst& out = v[v.size() - 3 * nz + 3 * k + 2];
      EXPECT_EQ(out.pc, 0x9b0u);
      EXPECT_EQ(out.kind, MemKind::Store);
      EXPECT_EQ(out.addr[0], kBase + (k * nx + row * plane) * 4);
    }
    EXPECT_EQ(v[0].gap, 114u);  // the entry's PTX instructions
  }
}

TEST(IspassWp, Deterministic) {
  auto a = make_port("ispass/wp", "{nx: 12, ny: 10, nz: 27}"),
       b = make_port("ispass/wp", "{nx: 12, ny: 10, nz: 27}");
  const test::StreamSummary sa = pull_all(*a), sb = pull_all(*b);
  EXPECT_GT(sa.insts, 0u);
  EXPECT_EQ(sa.insts, sb.insts);
  EXPECT_EQ(sa.hash, sb.hash);
  EXPECT_EQ(a->check(), "");
}

// The default input's stream (a minute): --gtest_also_run_disabled_tests --gtest_filter='*WpDefault*'.
TEST(IspassWp, DISABLED_WpDefault) {
  for (const char* size :
       {"{}", "{nx: 16, ny: 16, nz: 27}", "{nx: 8, ny: 8, nz: 27}", "{nx: 16, ny: 8, nz: 12}"}) {
    auto p = make_port("ispass/wp", size);
    uint64_t compute = 0;
    const auto s = pull_all(*p, [&](uint64_t, const std::string&, const WarpInst& i) { compute += i.gap; });
    std::printf(
        "ispass/wp %-24s CTAs %llu warps %llu warp insts %llu (loads %llu, stores %llu; with compute %llu) "
        "check '%s'\n",
        size, (unsigned long long)s.ctas, (unsigned long long)s.warps, (unsigned long long)s.insts,
        (unsigned long long)s.loads, (unsigned long long)s.stores, (unsigned long long)(s.insts + compute),
        p->check().c_str());
  }
}

}  // namespace
}  // namespace gms::kernels
