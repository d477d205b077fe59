// Atomics (MemKind::Atomic, docs/atomics.md) in the native trace: `atom` lines read, write back as text and
// binary identically; an atomic of another width is an error naming file and line; the binary record (the
// store bit with width code 5 or 6) decodes, and width code 5 without the store bit is refused.
#include <gtest/gtest.h>

#include "tb/traces/native_codec.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/trace_writer.h"
#include "tests/traces_native/native_test_util.h"

using namespace gms;
using gms_test::dump;
using gms_test::error_of;
using gms_test::tmp_path;
using gms_test::write_text;

namespace {

struct VecSource {
  const std::vector<uint8_t>& b;
  size_t i = 0;
  uint8_t byte() {
    if (i == b.size()) fail("past the end");
    return b[i++];
  }
  [[noreturn]] void fail(const std::string& m) { throw std::runtime_error(m); }
};

const char* kHeader = "gmstrace 1\nworkload w\nkernel grid=1 block=32 regs=0 shmem=0 name=k\ncta 0\n";

}  // namespace

TEST(NativeAtomics, AtomLinesReadAndRoundTrip) {
  const std::string p = tmp_path("a.gmstrace");
  write_text(p, std::string(kHeader) +
                    "warp 0 3\n10 ffffffff ld 4 2 s 0x1000 4\n20 0000000f atom 4 3 s 0x2000 0\n"
                    "30 00000003 atom 8 0 l 0x3000 0x3008\nend 1\n");
  NativeTraceWorkload w(p);
  auto k = w.next_kernel();
  auto c = k->next_cta();
  WarpInst in;
  ASSERT_TRUE(c->warps[0]->next(in));
  ASSERT_TRUE(c->warps[0]->next(in));
  EXPECT_EQ(in.kind, MemKind::Atomic);
  EXPECT_EQ(in.width, 4u);
  EXPECT_EQ(in.gap, 3u);
  EXPECT_EQ(in.active_mask, 0xfu);
  EXPECT_EQ(in.addr[3], 0x2000u);  // four lanes on one counter
  ASSERT_TRUE(c->warps[0]->next(in));
  EXPECT_EQ(in.kind, MemKind::Atomic);
  EXPECT_EQ(in.width, 8u);
  EXPECT_EQ(in.addr[1], 0x3008u);
  for (const char* out : {"a2.gmstrace", "a2.gmstrace.bin"}) {
    NativeTraceWorkload again(p);
    TraceWriter(tmp_path(out), trace_format_for_path(out)).write(again);
    NativeTraceWorkload a(tmp_path(out)), b(p);
    EXPECT_EQ(dump(a), dump(b)) << out;
  }
  EXPECT_NE(gms_test::slurp(tmp_path("a2.gmstrace")).find("\n20 0000000f atom 4 3 s "), std::string::npos);
}

TEST(NativeAtomics, AnAtomicOfAnotherWidthNamesFileAndLine) {
  const std::string p = tmp_path("bad_atom.gmstrace");
  write_text(p, std::string(kHeader) + "warp 0 1\n20 00000001 atom 2 0 s 0x2000 0\nend 1\n");
  EXPECT_EQ(error_of(p), p + ":6: width: 2 is not 4 or 8 (an atomic)");
  // The SM performs aligned atomics only: a misaligned lane is the trace's error, not the run's.
  const std::string q = tmp_path("misaligned_atom.gmstrace");
  write_text(q, std::string(kHeader) + "warp 0 1\n20 00000003 atom 4 0 l 0x2000 0x2006\nend 1\n");
  EXPECT_EQ(error_of(q), q + ":6: atomic lane 1 address 0x2006 is not aligned to its 4 bytes");
}

TEST(NativeAtomics, BinaryRecordAndItsErrors) {
  TraceInst t;
  t.inst.kind = MemKind::Atomic;
  t.inst.width = 8;
  t.inst.pc = 0x40;
  t.inst.active_mask = 1;
  t.inst.addr[0] = 0x5000;
  CodecState st;
  std::vector<uint8_t> bytes;
  encode_inst(t, st, bytes);
  EXPECT_EQ(bytes[0] & 0x0f, kFlagStore | (kAtomicWidthCode8 << kWidthShift));
  VecSource src{bytes};
  CodecState rd;
  TraceInst back;
  decode_inst(src, rd, back);
  EXPECT_EQ(back.inst.kind, MemKind::Atomic);
  EXPECT_EQ(back.inst.width, 8u);
  EXPECT_EQ(back.inst.addr[0], 0x5000u);
  bytes[0] = uint8_t(bytes[0] & ~kFlagStore);  // width code 6 without the store bit
  VecSource bad{bytes};
  CodecState rd2;
  try {
    decode_inst(bad, rd2, back);
    FAIL() << "decoded";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "width code 6 (an atomic's) without the store bit");
  }
  t.inst.width = 2;
  EXPECT_THROW(encode_inst(t, st, bytes), std::invalid_argument);
}
