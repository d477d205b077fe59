// Bad native traces end with one ConfigError naming the file and the line (text) or the record and its
// byte offset in the decoded record stream (binary).
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "tb/traces/native_format.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/trace_writer.h"
#include "tests/traces_native/native_test_util.h"

using namespace gms;
using namespace gms_test;

namespace {

const std::vector<std::string> kGood = {
    "gmstrace 1",                                    // 1
    "workload bad",                                  // 2
    "kernel grid=1 block=32 regs=0 shmem=0 name=k",  // 3
    "cta 0",                                         // 4
    "warp 0 2",                                      // 5
    "100 ffffffff ld 4 0 s 0x1000 4",                // 6
    "108 0000000f st 4 0 l 0x10 0x20 0x30 0x40",     // 7
    "end 1",                                         // 8
};

// kGood with line `n` (1-based) replaced by `repl` (removed when repl is null), and lines after `cut`
// dropped.
std::string text_case(const std::string& name, size_t n, const char* repl, size_t cut = 99) {
  std::string t;
  for (size_t i = 0; i < kGood.size() && i < cut; ++i) {
    if (i + 1 == n && !repl) continue;
    t += (i + 1 == n ? std::string(repl) : kGood[i]) + "\n";
  }
  const std::string p = tmp_path(name + ".gmstrace");
  write_text(p, t);
  return p;
}

}  // namespace

TEST(NativeTextErrors, GoodTraceReads) {
  const std::string p = text_case("good", 0, nullptr);
  EXPECT_EQ(error_of(p), "");
}

TEST(NativeTextErrors, TruncatedFile) {
  std::string p = text_case("trunc_inst", 0, nullptr, 6);
  EXPECT_EQ(error_of(p), p + ":7: truncated file: expected instruction 2 of 2 of warp 0");
  p = text_case("trunc_end", 0, nullptr, 7);
  EXPECT_EQ(error_of(p), p + ":8: truncated file: expected 'kernel' or 'end'");
  p = text_case("trunc_cta", 0, nullptr, 3);
  EXPECT_EQ(error_of(p), p + ":4: truncated file: expected 'cta 0'");
}

TEST(NativeTextErrors, WrongFieldCount) {
  std::string p = text_case("fields_s", 6, "100 ffffffff ld 4 0 s 0x1000 4 9");
  EXPECT_EQ(error_of(p),
            p + ":6: wrong field count: 32 active lanes need 2 address fields after 's', found 3");
  p = text_case("fields_short", 6, "100 ffffffff ld 4");
  EXPECT_EQ(error_of(p),
            p + ":6: instruction needs at least 6 fields (pc mask kind width gap encoding), found 4");
  p = text_case("fields_cta", 4, "cta 0 1");
  EXPECT_EQ(error_of(p), p + ":4: 'cta ID' needs 2 fields, found 3");
  p = text_case("fields_kernel", 3, "kernel grid=1 block=32");
  EXPECT_EQ(error_of(p), p + ":3: kernel line needs 5 fields (grid= block= regs= shmem= name=), found 2");
}

TEST(NativeTextErrors, AddressListShorterThanTheMask) {
  std::string p = text_case("short_l", 7, "108 0000000f st 4 0 l 0x10 0x20 0x30");
  EXPECT_EQ(
      error_of(p),
      p + ":7: address list shorter than the mask says: 4 active lanes need 4 address fields after 'l', "
          "found 3");
  p = text_case("short_d", 7, "108 0000000f st 4 0 d 0x10 16 16");
  EXPECT_EQ(
      error_of(p),
      p + ":7: address list shorter than the mask says: 4 active lanes need 4 address fields after 'd', "
          "found 3");
}

TEST(NativeTextErrors, UnknownAddressEncoding) {
  const std::string p = text_case("enc", 7, "108 0000000f st 4 0 x 0x10 0x20 0x30 0x40");
  EXPECT_EQ(error_of(p), p + ":7: unknown address encoding 'x' (expected s, d or l)");
}

TEST(NativeTextErrors, NonHexAddress) {
  std::string p = text_case("hex", 7, "108 0000000f st 4 0 l 0x10 0x2g 0x30 0x40");
  EXPECT_EQ(error_of(p), p + ":7: address: '0x2g' is not a hex address");
  p = text_case("hex_pc", 6, "1z0 ffffffff ld 4 0 s 0x1000 4");
  EXPECT_EQ(error_of(p), p + ":6: pc: '1z0' is not a hex pc");
}

TEST(NativeTextErrors, BadFieldValues) {
  std::string p = text_case("kind", 6, "100 ffffffff ldg 4 0 s 0x1000 4");
  EXPECT_EQ(error_of(p), p + ":6: kind: 'ldg' is not ld, st, atom or bar");
  p = text_case("width", 6, "100 ffffffff ld 3 0 s 0x1000 4");
  EXPECT_EQ(error_of(p), p + ":6: width: 3 is not 1, 2, 4, 8 or 16");
  p = text_case("mask", 6, "100 1ffffffff ld 4 0 s 0x1000 4");
  EXPECT_EQ(error_of(p), p + ":6: mask: '1ffffffff' has more than 32 lanes");
  p = text_case("cta_order", 4, "cta 1");
  EXPECT_EQ(error_of(p), p + ":4: CTA 1 out of order: expected CTA 0");
  p = text_case("end_count", 8, "end 2");
  EXPECT_EQ(error_of(p), p + ":8: end record says 2 kernels, the file has 1");
  p = text_case("version", 1, "gmstrace 2");
  EXPECT_EQ(error_of(p), p + ":1: unsupported version 2 (this reader knows 1)");
}

namespace {

// kGood as a binary trace without compression (61 bytes: 12 header, 8 block header, 33 record bytes, 8 end).
// Records: 1 W @0, 2 K @5, 3 C @12, 4 P @14, 5 inst @17, 6 inst @24 (re-encoded as stride 16), 7 E @31.
std::string binary_good() {
  const std::string p = tmp_path("good.gmstrace.bin");
  NativeTraceWorkload w(text_case("good_src", 0, nullptr));
  TraceWriter(p, TraceFormat::Binary, TraceCompression::None).write(w);
  return slurp(p);
}

std::string bin_case(const std::string& name, const std::string& bytes) {
  const std::string p = tmp_path(name + ".gmstrace.bin");
  write_text(p, bytes);
  return p;
}

}  // namespace

TEST(NativeBinaryErrors, LayoutIsAsDocumented) {
  const std::string b = binary_good();
  ASSERT_EQ(b.size(), 61u);
  EXPECT_EQ(b.substr(0, 8), "GMSTRACE");
  EXPECT_EQ(b[20], 'W');
  EXPECT_EQ(b[20 + 31], 'E');
  EXPECT_EQ(error_of(bin_case("good", b)), "");
}

TEST(NativeBinaryErrors, TruncatedFile) {
  const std::string b = binary_good();
  std::string p = bin_case("trunc_end", b.substr(0, 53));
  EXPECT_EQ(error_of(p),
            p + ": record 7 (byte 31): truncated file: block header at file offset 53 is missing");
  p = bin_case("trunc_end2", b.substr(0, 57));
  EXPECT_EQ(
      error_of(p),
      p + ": record 7 (byte 31): truncated file: block header at file offset 53 is missing its last bytes");
  p = bin_case("trunc_mid", b.substr(0, 40));
  EXPECT_EQ(error_of(p), p + ": record 1 (byte 0): truncated file: block at file offset 12 is cut short");
}

TEST(NativeBinaryErrors, WrongCountRunsOffTheStream) {
  std::string b = binary_good();
  b[20 + 16] = 3;  // warp 0 claims 3 instructions: the third swallows the end record
  const std::string p = bin_case("count", b);
  EXPECT_EQ(error_of(p), p + ": record 7 (byte 31): truncated file: the record stream ends early");
}

TEST(NativeBinaryErrors, UnknownCompressionMode) {
  std::string b = binary_good();
  b[9] = 7;
  const std::string p = bin_case("comp", b);
  EXPECT_EQ(error_of(p), p + ": byte 9: unknown compression mode 7 (expected 0 none, 1 zlib, 2 xz)");
}

// Encoding 3 is a barrier (no width, no store bit): on a store record it is corrupt.
TEST(NativeBinaryErrors, EncodingThreeOnAStore) {
  std::string b = binary_good();
  b[20 + 17] = char(uint8_t(b[20 + 17]) | 0x30);
  const std::string p = bin_case("enc", b);
  EXPECT_EQ(error_of(p),
            p + ": record 5 (byte 17): barrier record (encoding 3) with the store bit or a width "
                "code set (flags 0xb4)");
}

TEST(NativeBinaryErrors, CorruptCompressedBlock) {
  const std::string src = tmp_path("zgood.gmstrace.bin");
  NativeTraceWorkload w(text_case("zgood_src", 0, nullptr));
  TraceWriter(src, TraceFormat::Binary, TraceCompression::Zlib).write(w);
  std::string b = slurp(src);
  b[24] = char(b[24] ^ 0x55);
  const std::string p = bin_case("zbad", b);
  EXPECT_EQ(error_of(p), p + ": record 1 (byte 0): block at file offset 12 does not decompress");
}
