// The reuse-distance model on the two recorded H100 kernels (tests/data/accelsim/h100: vector add and a
// 5-point stencil) with the H100 L1 as the sector design: 56 ways of 128 B lines with 32 B sectors in the
// 224 KiB and 28 KiB carve-outs (32 and 4 sets), 132 SMs. Its load sectors equal the hardware's own
// sector counts (the traces' README), vector add never hits, and the stencil's sector hits are pinned
// here as exact numbers (hardware, Nsight: 68.4 % at both sizes; these are the model's, not fitted).
#include <gtest/gtest.h>

#include <string>

#include "models/analytic/rd_model.h"
#include "models/common/config.h"
#include "tb/traces/workload_detect.h"

using namespace gms;

namespace {

RdResult run_h100(uint32_t l1_bytes, const std::string& store_policy) {
  const std::string yaml =
      "sm:\n  count: 132\n  max_warps: 64\n  max_threads: 2048\n  max_ctas: 32\n"
      "  max_regs: 65536\n  max_outstanding_per_warp: 8\n"
      "l1:\n  design: sector\n  size_bytes: " +
      std::to_string(l1_bytes) +
      "\n  ways: 56\n  set_index: linear\n  mshr_entries: 32\n  store_policy: " + store_policy + "\n";
  ConfigNode doc = ConfigNode::load_string(yaml, "h100.yaml");
  RdParams p = RdParams::from_config(L1Params::from(doc.child("l1")), SmParams::from(doc.child("sm")));
  auto w = load_any_workload(std::string(GMS_SOURCE_DIR) + "/tests/data/accelsim/h100");
  return RdModel(p).run(*w);
}

void expect_kernels(const RdResult& r, uint64_t stencil_sector_hits) {
  ASSERT_EQ(r.kernels.size(), 2u);
  const RdCounts& vecadd = r.kernels[0].counts;
  const RdCounts& stencil = r.kernels[1].counts;
  EXPECT_EQ(vecadd.load_sectors, 655360u);  // = the hardware's L1 load sectors
  EXPECT_EQ(stencil.load_sectors, 898560u);
  EXPECT_EQ(vecadd.load_sector_hits, 0u);
  EXPECT_EQ(vecadd.hits, 0u);
  EXPECT_EQ(stencil.load_sector_hits, stencil_sector_hits);
}

}  // namespace

TEST(RdH100Sample, Sector224KiB) {
  const RdResult r = run_h100(229376, "write_evict");
  expect_kernels(r, 618445);  // 68.83 %
  EXPECT_EQ(r.kernels[1].counts.associativity, 0u);
  // write_allocate: the stencil's stores (its output array) evict nothing it reuses at this size.
  expect_kernels(run_h100(229376, "write_allocate"), 618445);
}

TEST(RdH100Sample, Sector28KiB) {
  const RdResult r = run_h100(28672, "write_evict");
  expect_kernels(r, 601173);  // 66.90 %: 4 sets, conflicts (associativity misses) appear
  EXPECT_EQ(r.kernels[1].counts.associativity, 4110u);
  // write_allocate: the stores allocate output lines, which push input lines out of the small L1.
  expect_kernels(run_h100(28672, "write_allocate"), 587596);  // 65.39 %
}
