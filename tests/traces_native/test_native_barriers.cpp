// Barrier instructions (__syncthreads, MemKind::Barrier) in the native trace: a kernel port with barriers
// recorded as text and binary reads back identically; hand-written `bar` lines; malformed ones; the binary
// record old readers reject.
#include <gtest/gtest.h>

#include "tb/kernels/port_loader.h"
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

const char* kHotspot = "rodinia/hotspot:grid=32,pyramid_height=2,sim_time=2";

// Byte source for decode_inst over a vector; a decode error throws std::runtime_error with its message.
struct VecSource {
  const std::vector<uint8_t>& b;
  size_t i = 0;
  uint8_t byte() {
    if (i == b.size()) fail("past the end");
    return b[i++];
  }
  [[noreturn]] void fail(const std::string& m) { throw std::runtime_error(m); }
};

size_t count_barriers(const std::vector<std::string>& d) {
  size_t n = 0;
  for (const auto& l : d) n += l.find(" bar ") != std::string::npos;
  return n;
}

}  // namespace

// What the native format carries: pc, kind, mask, width, gap and the active lanes' addresses (and an
// optional timestamp); not the register dependences (waits_on, writes, wait_gap).
TEST(NativeBarriers, PortWithBarriersRoundTripsTextAndBinary) {
  const auto want = dump(*kernels::load_port_reference(kHotspot));
  ASSERT_GT(count_barriers(want), 100u);
  for (auto format : {TraceFormat::Text, TraceFormat::Binary}) {
    const std::string p = tmp_path(format == TraceFormat::Text ? "h.gmstrace" : "h.gmstrace.bin");
    auto port = kernels::load_port_reference(kHotspot);
    const TraceWriteCounts n = TraceWriter(p, format).write(*port);
    EXPECT_EQ(n.instructions, 456u);
    NativeTraceWorkload back(p);
    EXPECT_EQ(dump(back), want) << p;
  }
}

TEST(NativeBarriers, TextBarrierLinesRead) {
  const std::string p = tmp_path("b.gmstrace");
  write_text(p,
             "gmstrace 1\nworkload w\nkernel grid=1 block=48 regs=0 shmem=0 name=k\ncta 0\nwarp 0 3\n"
             "10 ffffffff ld 4 2 s 0x1000 4\n0 ffffffff bar 7\n20 ffffffff st 4 0 s 0x2000 4\n"
             "warp 1 2\n0x40 0000ffff bar 0 @123\n44 00000003 bar 5\nend 1\n");
  NativeTraceWorkload w(p);
  auto k = w.next_kernel();
  auto c = k->next_cta();
  WarpInst in;
  ASSERT_TRUE(c->warps[0]->next(in));
  EXPECT_EQ(in.kind, MemKind::Load);
  ASSERT_TRUE(c->warps[0]->next(in));
  EXPECT_EQ(in.kind, MemKind::Barrier);
  EXPECT_EQ(in.pc, 0u);
  EXPECT_EQ(in.active_mask, 0xffffffffu);
  EXPECT_EQ(in.gap, 7u);
  EXPECT_EQ(in.width, 0u);
  for (uint64_t a : in.addr) EXPECT_EQ(a, 0u);
  ASSERT_TRUE(c->warps[0]->next(in));
  EXPECT_EQ(in.kind, MemKind::Store);
  EXPECT_EQ(in.addr[1], 0x2004u);  // the store's base is not disturbed by the barrier before it
  EXPECT_FALSE(c->warps[0]->next(in));
  // Timestamps on barriers are kept.
  std::vector<PackedWarp> raw;
  auto src = open_native_trace(p);
  KernelInfo info;
  ASSERT_TRUE(src->next_kernel(info));
  src->read_cta(0, 2, raw);
  PackedWarpStream s(std::move(raw[1]));
  TraceInst t;
  ASSERT_TRUE(s.next(t));
  EXPECT_EQ(t.inst.kind, MemKind::Barrier);
  EXPECT_EQ(t.inst.pc, 0x40u);
  EXPECT_EQ(t.inst.active_mask, 0xffffu);
  EXPECT_TRUE(t.has_time);
  EXPECT_EQ(t.time, 123u);
  ASSERT_TRUE(s.next(t));
  EXPECT_EQ(t.inst.gap, 5u);
  EXPECT_FALSE(t.has_time);
  // Written again, text and binary, it reads the same.
  for (const char* out : {"again.gmstrace", "again.gmstrace.bin"}) {
    NativeTraceWorkload in1(p);
    TraceWriter(tmp_path(out), trace_format_for_path(out)).write(in1);
    NativeTraceWorkload a(tmp_path(out)), b(p);
    EXPECT_EQ(dump(a), dump(b)) << out;
  }
  EXPECT_NE(gms_test::slurp(tmp_path("again.gmstrace")).find("\n0 ffffffff bar 7\n"), std::string::npos);
}

TEST(NativeBarriers, MalformedBarrierLinesNameFileAndLine) {
  const std::string head =
      "gmstrace 1\nworkload w\nkernel grid=1 block=16 regs=0 shmem=0 name=k\ncta 0\nwarp 0 1\n";
  const std::string p = tmp_path("bad.gmstrace");
  const auto err = [&](const std::string& line) {
    write_text(p, head + line + "\nend 1\n");
    return error_of(p);
  };
  EXPECT_EQ(err("0 ffff bar"), p + ":6: barrier needs 4 fields (pc mask bar gap), found 3");
  EXPECT_EQ(err("0 ffff bar 4 s 0x10 4"), p + ":6: barrier needs 4 fields (pc mask bar gap), found 7");
  EXPECT_EQ(err("0 ffff bar x"), p + ":6: gap: 'x' is not a decimal number");
  EXPECT_EQ(err("0 ffff bar 4 @x"), p + ":6: timestamp: 'x' is not a decimal number");
  EXPECT_EQ(
      err("0 1ffff bar 4"),
      p + ":6: mask 0x1ffff: lane 16 is active, but the CTA has only 16 threads (warp 0 holds lanes 0..15)");
  EXPECT_EQ(err("0 ffff baz 4 2 s 0x10 4"), p + ":6: kind: 'baz' is not ld, st, atom or bar");
}

// The record: flags with encoding 3 (older readers stop at "unknown address encoding 3"), no width, no
// addresses; a corrupt one (width bits set) is an error.
TEST(NativeBarriers, BinaryRecordAndItsErrors) {
  TraceInst t;
  t.inst.kind = MemKind::Barrier;
  t.inst.pc = 0x30;
  t.inst.active_mask = 0xff;
  t.inst.gap = 9;
  t.inst.addr[0] = 0x1234;  // not stored
  CodecState st;
  std::vector<uint8_t> b;
  encode_inst(t, st, b);
  ASSERT_EQ(b.size(), 5u);  // flags, pc delta, mask (two bytes), gap
  EXPECT_EQ(b[0], kBarrierEncoding << kEncodingShift);
  TraceInst out;
  CodecState rs;
  VecSource src{b};
  decode_inst(src, rs, out);
  EXPECT_EQ(src.i, b.size());
  EXPECT_EQ(out.inst.kind, MemKind::Barrier);
  EXPECT_EQ(out.inst.pc, 0x30u);
  EXPECT_EQ(out.inst.active_mask, 0xffu);
  EXPECT_EQ(out.inst.gap, 9u);
  EXPECT_EQ(out.inst.width, 0u);
  EXPECT_EQ(out.inst.addr[0], 0u);
  b[0] |= 2u << kWidthShift;
  CodecState rs2;
  VecSource bad{b};
  try {
    decode_inst(bad, rs2, out);
    FAIL() << "a barrier record with a width code decoded";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "barrier record (encoding 3) with the store bit or a width code set (flags 0x34)");
  }
}
