// The Accel-Sim importer on hand-written samples (tests/data/accelsim/small): exact WarpInst contents for
// all three address modes, versions 4 and 5, with and without line numbers, gaps, unsupported opcodes.
#include <gtest/gtest.h>

#include <sstream>

#include "tb/traces/accelsim_kernel.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

using gms::MemKind;
using gms::test::Issued;
using gms::test::sample;

std::vector<uint64_t> strided(uint64_t base, int64_t stride, unsigned n) {
  std::vector<uint64_t> v;
  for (unsigned i = 0; i < n; ++i) v.push_back(base + uint64_t(int64_t(i) * stride));
  return v;
}

void expect_inst(const Issued& is, uint32_t cta, uint32_t warp, MemKind kind, uint64_t pc, uint32_t mask,
                 unsigned width, uint32_t gap, const std::vector<uint64_t>& addrs) {
  SCOPED_TRACE("cta " + std::to_string(cta) + " warp " + std::to_string(warp) + " pc " + std::to_string(pc));
  EXPECT_EQ(is.cta, cta);
  EXPECT_EQ(is.warp, warp);
  EXPECT_EQ(is.inst.kind, kind);
  EXPECT_EQ(is.inst.pc, pc);
  EXPECT_EQ(is.inst.active_mask, mask);
  EXPECT_EQ(is.inst.width, width);
  EXPECT_EQ(is.inst.gap, gap);
  std::vector<uint64_t> active;
  for (unsigned l = 0; l < gms::kWarpSize; ++l) {
    if ((mask >> l) & 1)
      active.push_back(is.inst.addr[l]);
    else
      EXPECT_EQ(is.inst.addr[l], 0u) << "inactive lane " << l;
  }
  EXPECT_EQ(active, addrs);
}

void expect_small_sample(gms::Workload& w) {
  auto got = gms::test::drain(w);
  ASSERT_EQ(got.size(), 8u);
  const uint64_t a = 0x7f0000000000;
  // kernel 1 (version 5, no line numbers)
  expect_inst(got[0], 0, 0, MemKind::Load, 0x30, 0xffffffff, 4, 2, strided(a, 4, 32));  // mode 1 after 2 ALU
  expect_inst(got[1], 0, 0, MemKind::Store, 0x50, 0xf, 4, 1,  // mode 2 after STS (shared = compute)
              {a + 0x200000, a + 0x200008, a + 0x200004, a + 0x200068});
  expect_inst(got[2], 0, 1, MemKind::Load, 0x30, 0xf, 8, 0, {a + 0x1000, a + 0x1008, a + 0x1100, a + 0x1108});
  // ATOMG (docs/atomics.md): every lane on one counter
  expect_inst(got[3], 0, 1, MemKind::Atomic, 0x70, 0xffffffff, 4, 0, strided(a + 0x300000, 0, 32));
  expect_inst(got[4], 0, 1, MemKind::Store, 0x80, 0xffffffff, 4, 0, strided(a + 0x200080, 4, 32));
  expect_inst(got[5], 1, 0, MemKind::Load, 0x30, 0xffffffff, 4, 0, strided(a + 0x80, 4, 32));
  // kernel 2 (version 4, line numbers, no immediates)
  EXPECT_EQ(got[6].kernel, "_Z7sample2PKf");
  expect_inst(got[6], 0, 0, MemKind::Load, 0x30, 0xffffffff, 16, 1, strided(a + 0x200000, 16, 32));
  expect_inst(got[7], 0, 0, MemKind::Load, 0x40, 0xf, 4, 0, {a + 0x400, a + 0x408, a + 0x404, a + 0x468});
}

}  // namespace

TEST(AccelSimParse, SmallSampleExactInstructions) {
  auto w = gms::load_accelsim_workload(sample("small/kernelslist.g"));
  EXPECT_EQ(w->name(), "accelsim:small");
  expect_small_sample(*w);
}

TEST(AccelSimParse, FolderAndSingleKernelFile) {
  auto w = gms::load_accelsim_workload(sample("small"));
  expect_small_sample(*w);
  auto one = gms::load_accelsim_workload(sample("small/kernel-2.traceg"));
  EXPECT_EQ(gms::test::drain(*one).size(), 2u);
}

TEST(AccelSimParse, XzAndGzipVariantsGiveTheSameInstructions) {
  const std::string d = gms::test::temp_dir("parse_xz");
  ASSERT_EQ(
      std::system(("cp " + sample("small") + "/* '" + d + "' && cd '" + d +
                   "' && xz kernel-1.traceg && gzip kernel-2.traceg && "
                   "printf 'MemcpyHtoD,0x00007f0000000000,4096\\nkernel-1.traceg.xz\\nkernel-2.traceg.gz\\n' "
                   "> kernelslist.g")
                      .c_str()),
      0);
  auto w = gms::load_accelsim_workload(d);
  expect_small_sample(*w);
  // A post-processed list names kernel-N.traceg; the compressed file beside it is found.
  gms::test::write_text(d + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
  auto w2 = gms::load_accelsim_workload(d);
  expect_small_sample(*w2);
}

TEST(AccelSimParse, KernelInfoFromTheHeader) {
  auto w = gms::load_accelsim_workload(sample("small"));
  auto k = w->next_kernel();
  ASSERT_TRUE(k);
  EXPECT_EQ(k->info().name, "_Z7sample1PfS_");
  EXPECT_EQ(k->info().num_ctas, 2u);
  EXPECT_EQ(k->info().threads_per_cta, 64u);
  EXPECT_EQ(k->info().regs_per_thread, 16u);
  EXPECT_EQ(k->info().shmem_per_cta, 256u);
  auto* ak = dynamic_cast<gms::AccelSimKernel*>(k.get());
  ASSERT_NE(ak, nullptr);
  EXPECT_EQ(ak->header().format.version, 5u);
  EXPECT_FALSE(ak->header().format.lineinfo);
  EXPECT_EQ(ak->header().binary_version, 90u);
  EXPECT_EQ(ak->header().shmem_base, 0x00007f6400000000u);
  auto cta0 = k->next_cta();
  ASSERT_TRUE(cta0);
  EXPECT_EQ(cta0->cta_id, 0u);
  EXPECT_EQ(cta0->warps.size(), 2u);
  auto k2 = w->next_kernel();  // the next kernel may open while CTAs of the first are alive
  EXPECT_EQ(k2->info().num_ctas, 1u);
}

TEST(AccelSimParse, ImportCountsAndUnsupportedOpcodesAreReported) {
  auto w = gms::load_accelsim_workload(sample("small"));
  gms::test::drain(*w);
  auto& aw = dynamic_cast<gms::AccelSimWorkload&>(*w);
  const auto& s = aw.import_stats();
  EXPECT_EQ(s.memcpys(), 2u);
  ASSERT_EQ(s.kernels().size(), 2u);
  const auto& k1 = s.kernels()[0];
  EXPECT_EQ(k1.file, "kernel-1.traceg");
  EXPECT_EQ(k1.ctas, 2u);
  EXPECT_EQ(k1.trace_insts, 14u);
  EXPECT_EQ(k1.loads, 3u);
  EXPECT_EQ(k1.stores, 2u);
  EXPECT_EQ(k1.compute, 7u);  // IMAD, S2R, STS, 4 x EXIT
  EXPECT_EQ(k1.exits, 4u);
  EXPECT_EQ(k1.atomics, 1u);
  EXPECT_EQ(k1.unsupported, 0u);
  EXPECT_EQ(k1.predicated_off, 1u);
  EXPECT_TRUE(s.unsupported().empty());
  const auto t = s.total();
  EXPECT_EQ(t.loads, 5u);
  EXPECT_EQ(t.stores, 2u);
  EXPECT_EQ(t.trace_insts, 18u);

  std::ostringstream os;
  aw.report(os);
  EXPECT_EQ(
      os.str(),
      "Accel-Sim import: 2 kernels, 2 MemcpyHtoD skipped\n"
      "  kernel 0 _Z7sample1PfS_ (kernel-1.traceg): 2 thread blocks, 14 trace instructions -> 6 warp memory "
      "instructions (3 loads, 2 stores, 1 atomics), 7 compute, 0 unsupported, 1 predicated off\n"
      "  kernel 1 _Z7sample2PKf (kernel-2.traceg): 1 thread blocks, 4 trace instructions -> 2 warp memory "
      "instructions (2 loads, 0 stores), 2 compute, 0 unsupported, 0 predicated off\n"
      "  total: 3 thread blocks, 18 trace instructions -> 8 warp memory instructions (5 loads, 2 stores, 1 "
      "atomics), 9 compute, 0 unsupported, 1 predicated off\n"
      "  unsupported opcodes: none\n");
}

TEST(AccelSimParse, StatisticsGroup) {
  gms::StatGroup root("gpumemsys");
  auto w = gms::load_accelsim_workload(sample("small"));
  auto& aw = dynamic_cast<gms::AccelSimWorkload&>(*w);
  aw.attach_stats(root);
  gms::test::drain(*w);
  EXPECT_EQ(root.value("accelsim.memcpy_skipped"), 2);
  EXPECT_EQ(root.value("accelsim.kernels"), 2);
  EXPECT_EQ(root.value("accelsim.loads"), 5);
  EXPECT_EQ(root.value("accelsim.stores"), 2);
  EXPECT_EQ(root.value("accelsim.unsupported_insts"), 0);
  EXPECT_EQ(root.value("accelsim.atomics"), 1);
  EXPECT_EQ(root.value("accelsim.k0.loads"), 3);
  EXPECT_EQ(root.value("accelsim.k1.loads"), 2);
  EXPECT_EQ(root.value("accelsim.k1.trace_insts"), 4);
}

TEST(AccelSimParse, OlderVersionsAndMoreOpcodes) {
  const std::string d = gms::test::temp_dir("parse_old");
  const std::string head = "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n";
  // Version 3: no lineinfo key, no immediates. Version 2: "tb x y z warp" before every instruction.
  gms::test::write_text(
      d + "/kernel-1.traceg",
      head +
          "-accelsim tracer version = 3\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5\n"
          "0010 ffffffff 0 LDGSTS.E.BYPASS.128 2 R1 R2 16 1 0x1000 16\n"
          "0020 00000003 1 R2 LDG.E.U8 1 R1 1 2 0x2001 -1\n"
          "0030 00000001 0 STG.E.64 2 R1 R2 8 2 0x3000\n"
          "0040 ffffffff 0 RED.E.ADD 2 R1 R2 4 1 0x4000 0\n"
          "0050 ffffffff 0 EXIT 0 0\n#END_TB\n");
  gms::test::write_text(
      d + "/kernel-2.traceg",
      head +
          "-accelsim tracer version = 2\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
          "0 0 0 0 0010 80000000 1 R2 LDG.E 1 R1 4 0 0x0000000000005000\n#END_TB\n");
  gms::test::write_text(d + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
  auto w = gms::load_accelsim_workload(d);
  auto got = gms::test::drain(*w);
  ASSERT_EQ(got.size(), 4u);
  expect_inst(got[0], 0, 0, MemKind::Load, 0x20, 0x3, 1, 1, {0x2001, 0x2000});  // after LDGSTS
  expect_inst(got[1], 0, 0, MemKind::Store, 0x30, 0x1, 8, 0, {0x3000});         // one lane: base only
  expect_inst(got[2], 0, 0, MemKind::Atomic, 0x40, 0xffffffff, 4, 0, strided(0x4000, 0, 32));  // RED
  expect_inst(got[3], 0, 0, MemKind::Load, 0x10, 0x80000000, 4, 0, {0x5000});
  const auto& s = dynamic_cast<gms::AccelSimWorkload&>(*w).import_stats();
  EXPECT_EQ(s.unsupported(), (std::map<std::string, uint64_t>{{"LDGSTS", 1}}));
}

TEST(AccelSimParse, LooksLikeAccelSim) {
  EXPECT_TRUE(gms::looks_like_accelsim(sample("small")));
  EXPECT_TRUE(gms::looks_like_accelsim(sample("small/kernelslist.g")));
  EXPECT_TRUE(gms::looks_like_accelsim(sample("small/kernel-1.traceg")));
  EXPECT_TRUE(gms::looks_like_accelsim(sample("h100")));
  EXPECT_TRUE(gms::looks_like_accelsim(sample("h100/kernelslist.g")));
  EXPECT_TRUE(gms::looks_like_accelsim(sample("h100/kernel-6.traceg.xz")));
  EXPECT_FALSE(gms::looks_like_accelsim(std::string(GMS_SOURCE_DIR) + "/configs/workloads/small.yaml"));
  EXPECT_FALSE(gms::looks_like_accelsim(std::string(GMS_SOURCE_DIR) + "/configs"));
  EXPECT_FALSE(gms::looks_like_accelsim("/nonexistent"));
  EXPECT_FALSE(gms::looks_like_accelsim(sample("h100/README.md")));
}
