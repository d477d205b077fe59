// Per-kernel Nsight-aligned counts of a hand-made workload, exactly.
#include <gtest/gtest.h>

#include "tb/traces/kernel_counts.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/trace_writer.h"
#include "tb/traces/workload_detect.h"
#include "tests/traces_native/native_test_util.h"

using namespace gms;
using namespace gms_test;

namespace {

std::unique_ptr<Workload> counted_workload() {
  HandKernel a;
  a.info = KernelInfo{"a", 1, 64, 0, 0};
  a.ctas.push_back({
      {inst(0x10, MemKind::Load, 0xffffffff, 4, 0, seq(0x1000, 4)),      // 1 line, 4 sectors
       inst(0x18, MemKind::Store, 0xffffffff, 8, 0, seq(0x2000, 8)),     // 2 lines, 8 sectors
       inst(0x20, MemKind::Load, 0xffffffff, 4, 0, seq(0x10000, 128))},  // 32 lines, 32 sectors
      {inst(0x30, MemKind::Load, 0x3, 4, 0, {0x3000, 0x3040}),           // 1 line, sectors 0 and 2
       inst(0x38, MemKind::Load, 0x1, 4, 0, {0x407e}),                   // crosses a line: 2 lines, 2 sectors
       inst(0x40, MemKind::Load, 0x0, 4, 0, {})},                        // no active lane: nothing to fetch
  });
  HandKernel b;
  b.info = KernelInfo{"b", 2, 32, 0, 0};
  for (uint64_t c = 0; c < 2; ++c)
    b.ctas.push_back(
        {{inst(0x50, MemKind::Store, 0xffff, 16, 0, seq(0x8000 + c * 0x100, 16, 16)),  // 2 lines, 8
          inst(0x58, MemKind::Load, 0xffffffff, 1, 0, seq(0x9000 + c * 0x20, 1))}});   // 1 line, 1
  std::vector<HandKernel> ks{a, b};
  return std::make_unique<VecWorkload>("counted", ks);
}

}  // namespace

TEST(KernelCounts, HandMadeWorkloadPerKernelAndTotal) {
  StatGroup root("root");
  CountingWorkload w(counted_workload(), root);
  EXPECT_EQ(w.name(), "counted");
  dump(w);
  const StatGroup& g = w.stats();
  EXPECT_EQ(g.path(), "workload");
  ASSERT_EQ(g.children().size(), 2u);
  EXPECT_EQ(g.children()[0]->name(), "k0");
  EXPECT_EQ(g.children()[0]->desc(), "a");
  EXPECT_EQ(g.children()[1]->desc(), "b");
  struct Row {
    const char* stat;
    double k0, k1, total;
  };
  for (const Row& r : {Row{"inst_executed_ld", 5, 2, 7}, Row{"inst_executed_st", 1, 2, 3},
                       Row{"line_requests_ld", 36, 2, 38}, Row{"line_requests_st", 2, 4, 6},
                       Row{"sectors_ld", 40, 2, 42}, Row{"sectors_st", 8, 16, 24}}) {
    EXPECT_EQ(g.value(std::string("k0.") + r.stat), r.k0) << r.stat;
    EXPECT_EQ(g.value(std::string("k1.") + r.stat), r.k1) << r.stat;
    EXPECT_EQ(g.value(r.stat), r.total) << r.stat;
    EXPECT_EQ(root.value(std::string("workload.") + r.stat), r.total) << r.stat;
  }
}

TEST(KernelCounts, AttachIsRequiredBeforeTheFirstKernel) {
  CountingWorkload w(counted_workload());
  EXPECT_THROW(w.next_kernel(), std::logic_error);
  StatGroup root("root");
  w.attach(root);
  EXPECT_NE(w.next_kernel(), nullptr);
  EXPECT_THROW(w.attach(root), std::logic_error);
}

// The H100 samples (Accel-Sim, xz) frozen into a native trace and counted: the hardware's own L1TEX
// request and sector counts (tests/data/accelsim/h100/README.md).
TEST(KernelCounts, H100SamplesThroughANativeTraceMatchNsight) {
  const std::string h100 = std::string(GMS_SOURCE_DIR) + "/tests/data/accelsim/h100";
  const std::string p = tmp_path("h100.gmstrace.bin");
  {
    auto accel = load_any_workload(h100);
    TraceWriter(p, TraceFormat::Binary).write(*accel);
  }
  StatGroup root("root");
  CountingWorkload w(std::make_unique<NativeTraceWorkload>(p), root);
  WarpInst in;
  while (auto k = w.next_kernel())
    while (auto c = k->next_cta())
      for (auto& warp : c->warps)
        while (warp->next(in)) {
        }
  EXPECT_EQ(root.value("workload.k0.inst_executed_ld"), 163840);
  EXPECT_EQ(root.value("workload.k0.inst_executed_st"), 81920);
  EXPECT_EQ(root.value("workload.k0.sectors_ld"), 655360);
  EXPECT_EQ(root.value("workload.k0.sectors_st"), 327680);
  EXPECT_EQ(root.value("workload.k1.inst_executed_ld"), 204800);
  EXPECT_EQ(root.value("workload.k1.inst_executed_st"), 40960);
  EXPECT_EQ(root.value("workload.k1.sectors_ld"), 898560);
  EXPECT_EQ(root.value("workload.k1.sectors_st"), 163840);
  EXPECT_EQ(root.value("workload.inst_executed_ld") + root.value("workload.inst_executed_st"), 491520);
}
