// The two kernels recorded on a real H100 (tests/data/accelsim/h100, xz-compressed): warp-level load and
// store instructions and 32 B sectors (coalesced as the SM does) equal the hardware counters in the README.
#include <gtest/gtest.h>

#include <bitset>

#include "models/coalescing/coalescer.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

struct Counts {
  uint64_t ctas = 0, loads = 0, stores = 0, load_sectors = 0, store_sectors = 0, load_lines = 0,
           store_lines = 0;
};

Counts count_kernel(gms::KernelSource& k) {
  Counts c;
  gms::Coalescer co;
  gms::WarpInst inst;
  while (auto cta = k.next_cta()) {
    ++c.ctas;
    for (auto& w : cta->warps) {
      while (w->next(inst)) {
        const bool load = inst.kind == gms::MemKind::Load;
        ++(load ? c.loads : c.stores);
        for (const auto& r : co.run(inst)) {
          ++(load ? c.load_lines : c.store_lines);
          (load ? c.load_sectors : c.store_sectors) += std::bitset<8>(r.chunk_mask).count();
        }
      }
    }
  }
  return c;
}

std::unique_ptr<gms::Workload> h100() {
  return gms::load_accelsim_workload(gms::test::sample("h100"));
}

}  // namespace

TEST(AccelSimH100, VectorAddKernel2MatchesHardwareCounts) {
  auto w = h100();
  auto k = w->next_kernel();
  EXPECT_EQ(k->info().name, "_Z6vecaddILb0EEvPKfS1_Pfi3Log");
  EXPECT_EQ(k->info().num_ctas, 10240u);
  EXPECT_EQ(k->info().threads_per_cta, 256u);
  EXPECT_EQ(k->info().regs_per_thread, 12u);
  const Counts c = count_kernel(*k);
  EXPECT_EQ(c.ctas, 10240u);
  EXPECT_EQ(c.loads + c.stores, 245760u);
  EXPECT_EQ(c.loads, 163840u);
  EXPECT_EQ(c.stores, 81920u);
  EXPECT_EQ(c.load_sectors, 655360u);
  EXPECT_EQ(c.store_sectors, 327680u);
  EXPECT_EQ(c.load_lines, 163840u);  // fully coalesced: one 128 B line per instruction
  EXPECT_EQ(c.store_lines, 81920u);
}

TEST(AccelSimH100, StencilKernel6MatchesHardwareCounts) {
  auto w = h100();
  { auto k2 = w->next_kernel(); }  // launched first; not read
  auto k = w->next_kernel();
  EXPECT_EQ(k->info().name, "_Z8stencil5ILb0EEvPKfPfii3Log");
  EXPECT_EQ(k->info().num_ctas, 32u * 160u);
  EXPECT_EQ(k->info().threads_per_cta, 256u);
  const Counts c = count_kernel(*k);
  EXPECT_EQ(c.loads + c.stores, 245760u);
  EXPECT_EQ(c.loads, 204800u);
  EXPECT_EQ(c.stores, 40960u);
  EXPECT_EQ(c.load_sectors, 898560u);
  EXPECT_EQ(c.store_sectors, 163840u);
  EXPECT_FALSE(w->next_kernel());
}

TEST(AccelSimH100, ImportStatisticsOfBothKernels) {
  auto w = h100();
  gms::test::drain(*w);
  const auto& s = dynamic_cast<gms::AccelSimWorkload&>(*w).import_stats();
  ASSERT_EQ(s.kernels().size(), 2u);
  EXPECT_EQ(s.memcpys(), 0u);
  EXPECT_TRUE(s.unsupported().empty());
  const auto t = s.total();
  EXPECT_EQ(t.loads, 163840u + 204800u);
  EXPECT_EQ(t.stores, 81920u + 40960u);
  EXPECT_EQ(t.exits, 81920u + 40960u);  // one EXIT per warp: 10240 x 8 + 5120 x 8 warps
  EXPECT_EQ(t.trace_insts, t.loads + t.stores + t.exits);
  EXPECT_EQ(t.unsupported, 0u);
}
