// Kernel and CTA dispatch of synthetic workloads, the built-in workload, the shipped workload files and
// adding a pattern to a registry.
#include <gtest/gtest.h>

#include "tests/tb/workload_test_util.h"

namespace gms::test {
namespace {

TEST(TbWorkload, KernelsAndCtasInOrderWithTheirInfo) {
  auto wl = load_text(R"(workload:
  name: two
  seed: 4
  kernels:
    - name: first
      pattern: streaming
      grid: 3
      block: 40
      insts_per_warp: 5
      regs_per_thread: 63
      shmem_per_cta: 2048
    - pattern: random
      grid: 2
      block: 32
      insts_per_warp: 2
      footprint: 4096
)");
  EXPECT_EQ(wl->name(), "two");
  EXPECT_EQ(wl->seed(), 4u);
  EXPECT_EQ(wl->total_warp_insts(), 3u * 2 * 5 + 2 * 1 * 2);
  auto k0 = wl->next_kernel();
  ASSERT_TRUE(k0);
  EXPECT_EQ(k0->info().name, "first");
  EXPECT_EQ(k0->info().num_ctas, 3u);
  EXPECT_EQ(k0->info().threads_per_cta, 40u);
  EXPECT_EQ(k0->info().warps_per_cta(), 2u);
  EXPECT_EQ(k0->info().regs_per_thread, 63u);
  EXPECT_EQ(k0->info().shmem_per_cta, 2048u);
  for (uint32_t c = 0; c < 3; ++c) {
    auto cta = k0->next_cta();
    ASSERT_TRUE(cta);
    EXPECT_EQ(cta->cta_id, c);
    ASSERT_EQ(cta->warps.size(), 2u);
    WarpInst i;
    ASSERT_TRUE(cta->warps[1]->next(i));
    EXPECT_EQ(i.active_mask, 0xffu);  // threads 32..39
    EXPECT_EQ(i.gap, 0u);             // defaults: gap 0, width 4, no stores, base 0
    EXPECT_EQ(i.width, 4u);
    EXPECT_EQ(i.kind, MemKind::Load);
    EXPECT_EQ(i.addr[0], (uint64_t(c) * 2 + 1) * 32 * 4);
  }
  EXPECT_FALSE(k0->next_cta());
  auto k1 = wl->next_kernel();
  ASSERT_TRUE(k1);
  EXPECT_EQ(k1->info().name, "random");  // the pattern names an unnamed kernel
  EXPECT_EQ(generate(*k1).size(), 4u);
  EXPECT_FALSE(wl->next_kernel());
}

TEST(TbWorkload, StoreShareIsExactAndEvenlySpread) {
  EXPECT_EQ(KernelSpec::stores_before(10, 0.3), 3u);
  EXPECT_EQ(KernelSpec::stores_before(64, 0.25), 16u);
  EXPECT_EQ(KernelSpec::stores_before(7, 1.0), 7u);
  EXPECT_EQ(KernelSpec::stores_before(7, 0.0), 0u);
  KernelSpec k;
  k.store_fraction = 0.3;
  std::string order;
  for (uint32_t i = 0; i < 10; ++i) order += k.is_store(i) ? 'S' : 'L';
  EXPECT_EQ(order, "LLLSLLSLLS");
}

TEST(TbWorkload, BuiltInDefaultLoads) {
  auto wl = load_synthetic_workload(
      ConfigNode::load_string(embedded_default_workload_yaml(), "<built-in workload>"));
  ASSERT_EQ(wl->kernels().size(), 2u);
  EXPECT_EQ(wl->total_warp_insts(), 983040u);
  const KernelSpec& copy = *wl->kernels()[0];
  const KernelSpec& hot = *wl->kernels()[1];
  EXPECT_EQ(copy.pattern_name, "streaming");
  EXPECT_EQ(hot.pattern_name, "hotcold");
  EXPECT_EQ(hot.base, copy.out_base);  // the hot/cold kernel reads what the copy wrote
  EXPECT_GT(copy.geom.stores_per_warp, 0u);
  EXPECT_LE(copy.base + copy.pattern->load_region_bytes(), copy.out_base);
  EXPECT_EQ(load_default_workload()->name(), "default");
}

TEST(TbWorkload, ShippedWorkloadFilesLoad) {
  for (const char* f : {"mix.yaml", "small.yaml"}) {
    auto wl = load_workload_file(std::string(GMS_SOURCE_DIR) + "/configs/workloads/" + f);
    ASSERT_TRUE(wl);
    size_t kernels = 0;
    while (auto k = wl->next_kernel()) {
      ++kernels;
      EXPECT_GT(generate(*k).size(), 0u);
    }
    EXPECT_GT(kernels, 1u) << f;
  }
}

// A pattern added to a registry is usable by name without touching the built-in ones.
class DiagonalPattern : public Pattern {
 public:
  uint64_t load_region_bytes() const override { return 32 * 128; }
  uint64_t store_region_bytes() const override { return 0; }
  void next_load(WarpCursor& warp, WarpInst& inst) const override {
    inst.pc = 0x42;
    for (unsigned l = 0; l < kWarpSize; ++l) inst.addr[l] = ((warp.loads + l) % 32) * 128;
  }
  void next_store(WarpCursor&, WarpInst&) const override { ADD_FAILURE() << "no stores configured"; }
};

TEST(TbWorkload, RegistryTakesNewPatterns) {
  PatternRegistry reg = PatternRegistry::builtin();
  EXPECT_EQ(reg.names(),
            (std::vector<std::string>{"bfs", "colmajor_copy", "hotcold", "kmeans", "matmul", "random",
                                      "sharing", "spmv_csr", "stencil2d", "streaming", "strided"}));
  reg.add("diagonal", [](const KernelGeometry&, const ConfigNode&) -> std::unique_ptr<Pattern> {
    return std::make_unique<DiagonalPattern>();
  });
  EXPECT_THROW(reg.add("random", nullptr), std::logic_error);
  auto wl = load_synthetic_workload(
      ConfigNode::load_string(
          one_kernel("pattern: diagonal\ngrid: 1\nblock: 32\ninsts_per_warp: 3\nbase: 0x800"), "t.yaml"),
      reg);
  const auto insts = generate(*wl->next_kernel());
  ASSERT_EQ(insts.size(), 3u);
  EXPECT_EQ(insts[2].inst.pc, 0x42u);
  EXPECT_EQ(insts[2].inst.addr[0], 0x800u + 2 * 128);
  EXPECT_EQ(insts[2].inst.addr[31], 0x800u + 1 * 128);
  EXPECT_THROW(load_text(one_kernel("pattern: diagonal\ngrid: 1\nblock: 32\ninsts_per_warp: 3")),
               ConfigError);
}

}  // namespace
}  // namespace gms::test
