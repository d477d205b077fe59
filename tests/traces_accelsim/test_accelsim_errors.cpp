// Bad Accel-Sim input: each case ends with one ConfigError "FILE:LINE: what is wrong".
#include <gtest/gtest.h>

#include "tests/traces_accelsim/accelsim_test_util.h"

namespace {

// Line numbers:          1                2                      3                       4
const std::vector<std::string> kGood = {"-kernel name = k", "-grid dim = (1,1,1)", "-block dim = (32,1,1)",
                                        "-accelsim tracer version = 5",
                                        // 5   6            7                       8           9
                                        "", "#BEGIN_TB", "thread block = 0,0,0", "warp = 0", "insts = 2",
                                        // 10
                                        "0030 0000000f 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4 0",
                                        // 11                          12
                                        "0060 ffffffff 0 EXIT 0 0 0", "#END_TB"};

struct Case {
  std::string dir, file;
};

// Writes the kernel lines (1-based line `n` replaced by `with`, or removed from `cut` on) and the list.
Case make(const std::string& name, std::vector<std::string> lines) {
  Case c;
  c.dir = gms::test::temp_dir("err_" + name);
  c.file = c.dir + "/kernel-1.traceg";
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  gms::test::write_text(c.file, text);
  gms::test::write_text(c.dir + "/kernelslist.g", "kernel-1.traceg\n");
  return c;
}

std::vector<std::string> replace(size_t n, const std::string& with) {
  auto v = kGood;
  v[n - 1] = with;
  return v;
}

std::vector<std::string> cut(size_t from) {
  return {kGood.begin(), kGood.begin() + long(from - 1)};
}

std::string load_error(const Case& c) {
  return gms::test::error_of([&] {
    auto w = gms::load_accelsim_workload(c.dir);
    gms::test::drain(*w);
  });
}

}  // namespace

TEST(AccelSimErrors, GoodBaseCaseLoads) {
  EXPECT_EQ(load_error(make("good", kGood)), "<no error>");
}

TEST(AccelSimErrors, TruncatedInsideAWarp) {
  auto c = make("trunc_warp", cut(11));
  EXPECT_EQ(load_error(c), c.file + ":10: unexpected end of file: warp 0 has 1 of 2 instruction lines");
}

TEST(AccelSimErrors, TruncatedBeforeEndTb) {
  auto c = make("trunc_tb", cut(12));
  EXPECT_EQ(
      load_error(c),
      c.file + ":11: unexpected end of file inside the thread block that begins at line 6 (no #END_TB)");
}

TEST(AccelSimErrors, TruncatedHeader) {
  auto c = make("trunc_head", cut(5));
  EXPECT_EQ(load_error(c),
            c.file + ":4: unexpected end of file: the kernel trace has no thread block (#BEGIN_TB)");
}

TEST(AccelSimErrors, FewerInstructionLinesThanInsts) {
  auto c = make("short_warp", replace(9, "insts = 3"));
  EXPECT_EQ(load_error(c), c.file + ":12: warp 0 (line 8) has 2 instruction lines, insts = 3");
}

TEST(AccelSimErrors, FewerThreadBlocksThanTheGrid) {
  auto c = make("few_tbs", replace(2, "-grid dim = (2,1,1)"));
  EXPECT_EQ(load_error(c), c.file + ":12: unexpected end of file: 1 thread blocks read, the grid has 2");
}

TEST(AccelSimErrors, MoreThreadBlocksThanTheGrid) {
  auto lines = kGood;
  lines.push_back("#BEGIN_TB");
  auto c = make("more_tbs", lines);
  EXPECT_EQ(load_error(c), c.file + ":13: more thread blocks than the grid's 1: '#BEGIN_TB'");
}

TEST(AccelSimErrors, TooManyFields) {
  auto c = make("fields_many", replace(10, "0030 0000000f 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4 0 7"));
  EXPECT_EQ(load_error(c), c.file + ":10: wrong field count: 13 fields, expected 12");
}

TEST(AccelSimErrors, TooFewFields) {
  auto c = make("fields_few", replace(11, "0060 ffffffff 0 EXIT 0 0"));
  EXPECT_EQ(load_error(c), c.file + ":11: wrong field count: 6 fields, the immediate is missing");
}

TEST(AccelSimErrors, AddressListShorterThanTheMask) {
  auto c = make("short_list", replace(10, "0030 0000000f 1 R4 LDG.E 1 R2 4 0 0x10 0x20 0x30 0"));
  EXPECT_EQ(load_error(c),
            c.file +
                ":10: address list shorter than the mask says: mask 0000000f has 4 active lanes, "
                "mode 0 needs 4 address fields, the line has 3");
}

TEST(AccelSimErrors, DeltaListShorterThanTheMask) {
  auto c = make("short_delta", replace(10, "0030 0000000f 1 R4 LDG.E 1 R2 4 2 0x10 4 4 0"));
  EXPECT_EQ(load_error(c),
            c.file +
                ":10: address list shorter than the mask says: mask 0000000f has 4 active lanes, "
                "mode 2 needs 4 address fields, the line has 3");
}

TEST(AccelSimErrors, UnknownCompressionMode) {
  auto c = make("mode", replace(10, "0030 0000000f 1 R4 LDG.E 1 R2 4 3 0x7f0000000000 4 0"));
  EXPECT_EQ(load_error(c),
            c.file + ":10: unknown address compression mode 3 (0 list, 1 base+stride, 2 base+delta)");
}

TEST(AccelSimErrors, NonHexAddressPcAndMask) {
  auto a = make("hex_addr", replace(10, "0030 0000000f 1 R4 LDG.E 1 R2 4 1 0x7f00000g0000 4 0"));
  EXPECT_EQ(load_error(a), a.file + ":10: non-hex address '0x7f00000g0000'");
  auto p = make("hex_pc", replace(10, "00z0 0000000f 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4 0"));
  EXPECT_EQ(load_error(p), p.file + ":10: non-hex PC '00z0'");
  auto m = make("hex_mask", replace(10, "0030 0000000q 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4 0"));
  EXPECT_EQ(load_error(m), m.file + ":10: non-hex mask '0000000q'");
  auto w = make("mask_wide", replace(10, "0030 1ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4 0"));
  EXPECT_EQ(load_error(w), w.file + ":10: mask '1ffffffff' has more than 32 bits");
}

TEST(AccelSimErrors, UnknownHeaderKey) {
  auto c = make("header", replace(2, "-kernel colour = blue"));
  EXPECT_EQ(load_error(c), c.file + ":2: unknown header key '-kernel colour'");
}

TEST(AccelSimErrors, BadHeaderValueAndMissingKey) {
  auto b = make("header_val", replace(3, "-block dim = (32,1)"));
  EXPECT_EQ(load_error(b), b.file + ":3: -block dim: bad value '(32,1)' (expected (x,y,z), each at least 1)");
  auto m = make("header_missing", replace(4, "-enable lineinfo = 0"));
  EXPECT_EQ(load_error(m),
            m.file + ":6: the header lacks '-accelsim tracer version' before the first thread block");
}

TEST(AccelSimErrors, WarpOutsideTheBlock) {
  auto c = make("warp_range", replace(8, "warp = 1"));
  EXPECT_EQ(load_error(c), c.file + ":8: warp 1 but the block dim gives 1 warps");
}

TEST(AccelSimErrors, MissingKernelFile) {
  const std::string d = gms::test::temp_dir("err_missing");
  gms::test::write_text(d + "/kernelslist.g", "MemcpyHtoD,0x00007fd165500000,400\nkernel-9.traceg\n");
  EXPECT_EQ(gms::test::error_of([&] { gms::load_accelsim_workload(d); }),
            d + "/kernelslist.g:2: 'kernel-9.traceg' not found (no file '" + d +
                "/kernel-9.traceg', nor with .xz or .gz)");
}

TEST(AccelSimErrors, UnknownKernelsListLineAndEmptyFolder) {
  const std::string d = gms::test::temp_dir("err_list");
  gms::test::write_text(d + "/kernelslist.g", "kernel-1.traceg\nlaunch everything\n");
  gms::test::write_text(d + "/kernel-1.traceg", "");
  EXPECT_EQ(
      gms::test::error_of([&] { gms::load_accelsim_workload(d); }),
      d + "/kernelslist.g:2: unknown line 'launch everything' (expected MemcpyHtoD,... or a kernel trace "
          "like kernel-N.traceg)");
  const std::string e = gms::test::temp_dir("err_empty");
  EXPECT_EQ(gms::test::error_of([&] { gms::load_accelsim_workload(e); }),
            e + ": folder without kernelslist.g");
}
