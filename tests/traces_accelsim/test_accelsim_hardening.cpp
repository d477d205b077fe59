// Hostile Accel-Sim input (issue 8): tracer versions the importer does not know, accesses at and past the
// top of the 64-bit space, kernelslist.g paths (absolute, subfolders, missing files) and raw bytes in
// messages.
#include <gtest/gtest.h>

#include "tb/traces/accelsim_inst.h"
#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

// A one-warp kernel whose single instruction is `inst`, with tracer version `version`.
std::string kernel_text(const std::string& inst, const std::string& version = "5") {
  return "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = " +
         version + "\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n" + inst + "\n#END_TB\n";
}

// Loads and drains dir/kernelslist.g; the ConfigError message or "<no error>".
std::string list_error(const std::string& list) {
  return gms::test::error_of([&] {
    auto w = gms::load_accelsim_workload(list);
    gms::test::drain(*w);
  });
}

std::string one_kernel(const std::string& name, const std::string& text) {
  const std::string d = gms::test::temp_dir(name);
  gms::test::write_text(d + "/kernel-1.traceg", text);
  gms::test::write_text(d + "/kernelslist.g", "kernel-1.traceg\n");
  return d;
}

}  // namespace

TEST(AccelSimHardening, UnknownTracerVersionsAreRejected) {
  for (const char* v : {"0", "6", "99"}) {
    const std::string d = one_kernel(std::string("ver") + v, kernel_text("0060 ffffffff 0 EXIT 0 0 0", v));
    EXPECT_EQ(list_error(d), d + "/kernel-1.traceg:4: -accelsim tracer version '" + v +
                                 "' is not supported (this importer reads versions 1 to 5)");
  }
  const std::string d = one_kernel("ver5", kernel_text("0060 ffffffff 0 EXIT 0 0 0", "5"));
  EXPECT_EQ(list_error(d), "<no error>");
}

TEST(AccelSimHardening, LastBytesOfTheAddressSpaceLoad) {
  const std::string d =
      one_kernel("top_ok", kernel_text("0030 0000000f 1 R4 LDG.E 1 R2 4 1 0xfffffffffffffff0 4 0"));
  auto w = gms::load_accelsim_workload(d);
  const auto got = gms::test::drain(*w);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].inst.addr[3], 0xfffffffffffffffcull);
}

TEST(AccelSimHardening, ALaneWrappingPast2To64IsRejected) {
  const std::string d = one_kernel(
      "wrap", kernel_text("0030 00000007 1 R4 LDG.E.64 1 R2 8 0 0x1000 0x1008 0xfffffffffffffffc 0"));
  EXPECT_EQ(list_error(d),
            d + "/kernel-1.traceg:10: lane 2 address 0xfffffffffffffffc + 8 bytes wraps past 2^64");
}

TEST(AccelSimHardening, KernelsListTakesAbsolutePathsAndSubfolders) {
  const std::string d = gms::test::temp_dir("paths");
  const std::string k = kernel_text("0030 00000001 1 R4 LDG.E 1 R2 4 1 0x1000 4 0");
  std::system(("mkdir -p '" + d + "/sub' '" + d + "/elsewhere'").c_str());
  gms::test::write_text(d + "/sub/kernel-1.traceg", k);
  gms::test::write_text(d + "/elsewhere/kernel-2.traceg", k);
  gms::test::write_text(d + "/kernelslist.g", "MemcpyHtoD,0x00007f0000000000,4096\nsub/kernel-1.traceg\n" +
                                                  d + "/elsewhere/kernel-2.traceg\n");
  EXPECT_TRUE(gms::looks_like_accelsim(d + "/kernelslist.g"));
  EXPECT_TRUE(gms::looks_like_accelsim(d));
  auto w = gms::load_accelsim_workload(d);
  auto* a = dynamic_cast<gms::AccelSimWorkload*>(w.get());
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->kernel_files(),
            (std::vector<std::string>{d + "/sub/kernel-1.traceg", d + "/elsewhere/kernel-2.traceg"}));
  EXPECT_EQ(gms::test::drain(*w).size(), 2u);
}

TEST(AccelSimHardening, MissingKernelFileIsNamed) {
  const std::string d = gms::test::temp_dir("missing3");
  gms::test::write_text(d + "/kernelslist.g", "MemcpyHtoD,0x00007f0000000000,4096\nsub/kernel-3.traceg\n");
  EXPECT_EQ(list_error(d), d + "/kernelslist.g:2: 'sub/kernel-3.traceg' not found (no file '" + d +
                               "/sub/kernel-3.traceg', nor with .xz or .gz)");
}

TEST(AccelSimHardening, RawBytesInMessagesAreEscaped) {
  const std::string d = gms::test::temp_dir("nul");
  gms::test::write_text(d + "/kernelslist.g", std::string("kernel-1.traceg\nla\0nch\x01\n", 25));
  gms::test::write_text(d + "/kernel-1.traceg", kernel_text("0060 ffffffff 0 EXIT 0 0 0"));
  const std::string e = list_error(d);
  EXPECT_EQ(
      e, d + "/kernelslist.g:2: unknown line 'la\\0nch\\x01' (expected MemcpyHtoD,... or a kernel trace like "
             "kernel-N.traceg)");
  const std::string k = one_kernel("nul_hdr", "-kernel name = k\n-grid dim = (1,1,\x02)\n");
  EXPECT_EQ(list_error(k),
            k + "/kernel-1.traceg:2: -grid dim: bad value '(1,1,\\x02)' (expected (x,y,z), each at "
                "least 1)");
}

// BAR.SYNC (__syncthreads) stays in the stream as a barrier instruction (the SM holds the warp there), with
// the compute before it as its gap; BAR.ARV (arrive without waiting) is compute.
TEST(AccelSimHardening, BarSyncIsABarrierAndBarArvIsCompute) {
  EXPECT_EQ(gms::classify_accelsim_opcode("BAR.SYNC.DEFER_BLOCKING", 0), gms::AccelOp::Barrier);
  EXPECT_EQ(gms::classify_accelsim_opcode("BAR.SYNC", 0), gms::AccelOp::Barrier);
  EXPECT_EQ(gms::classify_accelsim_opcode("BAR.ARV", 0), gms::AccelOp::Compute);
  const std::string d = gms::test::temp_dir("bar");
  gms::test::write_text(
      d + "/kernel-1.traceg",
      "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = "
      "5\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5\n"
      "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x1000 4 0\n"
      "0020 ffffffff 1 R5 IADD 1 R4 0 0\n"
      "0030 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0\n"
      "0040 ffffffff 0 STG.E 1 R4 4 1 0x2000 4 0\n"
      "0050 ffffffff 0 EXIT 0 0 0\n#END_TB\n");
  gms::test::write_text(d + "/kernelslist.g", "kernel-1.traceg\n");
  auto w = gms::load_accelsim_workload(d);
  const auto got = gms::test::drain(*w);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[1].inst.kind, gms::MemKind::Barrier);
  EXPECT_EQ(got[1].inst.pc, 0x30u);
  EXPECT_EQ(got[1].inst.gap, 1u);  // the IADD
  EXPECT_EQ(got[1].inst.active_mask, 0xffffffffu);
  EXPECT_EQ(got[2].inst.kind, gms::MemKind::Store);
  EXPECT_EQ(got[2].inst.gap, 0u);
}
