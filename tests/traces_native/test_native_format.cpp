// The native trace format: address encodings, text lines, and text/binary round trips of hand-made and
// synthetic workloads, instruction by instruction.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "tb/traces/native_format.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/trace_writer.h"
#include "tb/workloads/workload_loader.h"
#include "tests/traces_native/native_test_util.h"

using namespace gms;
using namespace gms_test;

namespace {

// Two kernels exercising every encoding, partial masks, mask 0, every width, stores and gaps.
VecWorkload hand_workload() {
  HandKernel a;
  a.info = KernelInfo{"vec add<float>(a, b)", 2, 40, 32, 1024};  // 2 warps per CTA, the second 8 lanes
  std::vector<uint64_t> scattered{0x2000, 0x2010, 0x1ff0, 0x2400, 0x2404, 0x2000, 0x9000, 0x8ffc};
  std::vector<uint64_t> far{0x10, 0x7fff00000000, 0x20, 0x123456789abc};
  for (unsigned c = 0; c < 2; ++c) {
    a.ctas.push_back({
        {inst(0x100, MemKind::Load, 0xffffffff, 4, 3, seq(0x1000 + c * 0x1000, 4)),
         inst(0x108, MemKind::Store, 0xffffffff, 8, 0, seq(0x80000, -8)),
         inst(0x110, MemKind::Load, 0x000000ff, 4, 7, scattered), inst(0x118, MemKind::Load, 0, 4, 1, {}),
         inst(0x0f0, MemKind::Load, 0x00010000, 1, 0, {0xabc}),
         inst(0x120, MemKind::Store, 0x0000f00f, 16, 2,
              {0x10, 0x7fff00000000, 0x20, 0x123456789abc, 0, 16, 32, 48})},
        {inst(0x100, MemKind::Load, 0x000000ff, 2, 3, seq(0x5000, 2, 8)),
         inst(0x130, MemKind::Load, 0x0000000f, 4, 0, far)},
    });
  }
  HandKernel b;
  b.info = KernelInfo{"second", 1, 32, 0, 0};
  b.ctas.push_back({{}});  // one warp with no instruction
  return VecWorkload("hand", {a, b});
}

std::vector<std::string> dump_trace(const std::string& path) {
  NativeTraceWorkload w(path);
  return dump(w);
}

}  // namespace

TEST(NativeCodec, ChoosesStrideDeltaOrList) {
  int64_t s = 0;
  EXPECT_EQ(choose_encoding(inst(0, MemKind::Load, 0xffffffff, 4, 0, seq(0x1000, 4)), s),
            AddrEncoding::Stride);
  EXPECT_EQ(s, 4);
  EXPECT_EQ(choose_encoding(inst(0, MemKind::Load, 0xffffffff, 8, 0, seq(0x80000, -8)), s),
            AddrEncoding::Stride);
  EXPECT_EQ(s, -8);
  EXPECT_EQ(choose_encoding(inst(0, MemKind::Load, 0x10, 4, 0, {0x40}), s), AddrEncoding::Stride);
  EXPECT_EQ(s, 0);
  EXPECT_EQ(choose_encoding(inst(0, MemKind::Load, 0x7, 4, 0, {0x40, 0x48, 0x44}), s), AddrEncoding::Delta);
  EXPECT_EQ(choose_encoding(inst(0, MemKind::Load, 0x7, 4, 0, {0x40, 0x100000040, 0x44}), s),
            AddrEncoding::List);
  EXPECT_EQ(choose_encoding(inst(0, MemKind::Load, 0, 4, 0, {}), s), AddrEncoding::List);
}

TEST(NativeCodec, PackedRecordsRoundTripWithTimestamps) {
  VecWorkload hw = hand_workload();
  auto k = hw.next_kernel();
  auto c = k->next_cta();
  PackedWarp pw;
  std::vector<TraceInst> in;
  WarpInst wi;
  uint64_t t = 1000;
  while (c->warps[0]->next(wi)) {
    TraceInst ti{wi, in.size() % 2 == 0, t};
    t += 17;
    in.push_back(ti);
    pw.add(ti);
  }
  EXPECT_EQ(pw.count, 6u);
  PackedWarpStream s(pw);
  TraceInst out;
  for (const TraceInst& want : in) {
    ASSERT_TRUE(s.next(out));
    EXPECT_EQ(dump_inst(out.inst), dump_inst(want.inst));
    EXPECT_EQ(out.has_time, want.has_time);
    EXPECT_EQ(out.time, want.has_time ? want.time : 0);
  }
  EXPECT_FALSE(s.next(out));
  // A full-mask stride instruction packs into a handful of bytes: flags, pc, gap, base, stride; the next
  // one of a streaming loop stores small deltas only.
  PackedWarp two;
  two.add(TraceInst{inst(0x100, MemKind::Load, 0xffffffff, 4, 0, seq(0x10000000, 4)), false, 0});
  EXPECT_EQ(two.bytes.size(), 1u + 2 + 1 + 5 + 1);
  two.add(TraceInst{inst(0x100, MemKind::Load, 0xffffffff, 4, 0, seq(0x10000000 + 128 * 32, 4)), false, 0});
  EXPECT_EQ(two.bytes.size(), 10u + 1 + 1 + 1 + 2 + 1);
}

TEST(NativeText, WritesEachEncodingAsDocumented) {
  const std::string p = tmp_path("hand.gmstrace");
  VecWorkload w = hand_workload();
  TraceWriter(p, TraceFormat::Text).write(w);
  const std::string text = slurp(p);
  EXPECT_EQ(text.substr(0, 11), "gmstrace 1\n");
  for (const char* line : {
           "workload hand\n",
           "kernel grid=2 block=40 regs=32 shmem=1024 name=vec add<float>(a, b)\n",
           "cta 0\nwarp 0 6\n",
           "100 ffffffff ld 4 3 s 0x1000 4\n",
           "108 ffffffff st 8 0 s 0x80000 -8\n",
           "110 000000ff ld 4 7 d 0x2000 16 -32 1040 4 -1028 28672 -4\n",
           "118 00000000 ld 4 1 l\n",
           "f0 00010000 ld 1 0 s 0xabc 0\n",
           "120 0000f00f st 16 2 l 0x10 0x7fff00000000 0x20 0x123456789abc 0x0 0x10 0x20 0x30\n",
           "warp 1 2\n100 000000ff ld 2 3 s 0x5000 2\n",
           "cta 1\nwarp 0 6\n100 ffffffff ld 4 3 s 0x2000 4\n",
           "kernel grid=1 block=32 regs=0 shmem=0 name=second\ncta 0\nwarp 0 0\nend 2\n",
       })
    EXPECT_NE(text.find(line), std::string::npos) << line;
}

TEST(NativeText, HandWorkloadRoundTrips) {
  const std::string p = tmp_path("hand_rt.gmstrace");
  VecWorkload w = hand_workload(), ref = hand_workload();
  const TraceWriteCounts n = TraceWriter(p, TraceFormat::Text).write(w);
  EXPECT_EQ(n.kernels, 2u);
  EXPECT_EQ(n.ctas, 3u);
  EXPECT_EQ(n.warps, 5u);
  EXPECT_EQ(n.instructions, 16u);
  EXPECT_EQ(dump_trace(p), dump(ref));
}

TEST(NativeBinary, HandWorkloadRoundTripsUnderEveryCompression) {
  for (TraceCompression c : {TraceCompression::None, TraceCompression::Zlib, TraceCompression::Xz}) {
    const std::string p = tmp_path("hand_rt" + std::to_string(int(c)) + ".gmstrace.bin");
    VecWorkload w = hand_workload(), ref = hand_workload();
    TraceWriter(p, TraceFormat::Binary, c).write(w);
    EXPECT_EQ(dump_trace(p), dump(ref)) << int(c);
    EXPECT_EQ(uint8_t(slurp(p)[9]), uint8_t(c));  // the header states the compression
  }
}

namespace {
const char* kSynthetic = R"(workload:
  name: synth
  seed: 7
  kernels:
    - {name: copy, pattern: streaming, grid: 6, block: 96, insts_per_warp: 12, store_fraction: 0.25, gap: 2}
    - {name: rnd, pattern: random, grid: 3, block: 50, insts_per_warp: 9, width: 8, footprint: 65536, store_fraction: 0.5}
    - {name: hc, pattern: hotcold, grid: 4, block: 64, insts_per_warp: 10, hot_lines: 4, hot_fraction: 0.5}
    - {name: str, pattern: strided, grid: 2, block: 64, insts_per_warp: 5, width: 2, stride: 66}
)";
std::unique_ptr<Workload> synthetic() {
  return load_workload(ConfigNode::load_string(kSynthetic, "synth.yaml"));
}
}  // namespace

TEST(NativeText, SyntheticWorkloadRoundTrips) {
  const std::string p = tmp_path("synth.gmstrace");
  auto w = synthetic();
  TraceWriter(p, TraceFormat::Text).write(*w);
  auto ref = synthetic();
  const auto want = dump(*ref);
  // 1 workload + 4 kernels + 15 CTAs + 36 warps + 370 instructions
  EXPECT_EQ(want.size(), 426u);
  EXPECT_EQ(dump_trace(p), want);
}

TEST(NativeBinary, SyntheticWorkloadRoundTrips) {
  for (TraceCompression c : {TraceCompression::Zlib, TraceCompression::Xz}) {
    const std::string p = tmp_path("synth" + std::to_string(int(c)) + ".gmstrace.bin");
    auto w = synthetic();
    TraceWriter(p, TraceFormat::Binary, c).write(*w);
    auto ref = synthetic();
    EXPECT_EQ(dump_trace(p), dump(*ref));
  }
}

TEST(NativeFormat, TimestampsSurviveBothForms) {
  for (TraceFormat f : {TraceFormat::Text, TraceFormat::Binary}) {
    const std::string p = tmp_path(f == TraceFormat::Text ? "ts.gmstrace" : "ts.gmstrace.bin");
    auto sink = open_native_sink(p, f);
    sink->begin("ts");
    sink->kernel(KernelInfo{"k", 1, 32, 0, 0});
    sink->cta(0);
    PackedWarp pw;
    pw.add(TraceInst{inst(0x10, MemKind::Load, 1, 4, 0, {0x100}), true, 5000});
    pw.add(TraceInst{inst(0x18, MemKind::Store, 1, 4, 3, {0x104}), false, 0});
    pw.add(TraceInst{inst(0x20, MemKind::Load, 3, 4, 0, {0x108, 0x10c}), true, 4990});
    sink->warp(0, pw);
    sink->finish();
    if (f == TraceFormat::Text) {
      EXPECT_NE(slurp(p).find("10 00000001 ld 4 0 s 0x100 0 @5000\n18 00000001 st 4 3 s 0x104 0\n"),
                std::string::npos);
    }
    auto src = open_native_trace(p);
    EXPECT_EQ(src->workload_name(), "ts");
    KernelInfo k;
    ASSERT_TRUE(src->next_kernel(k));
    std::vector<PackedWarp> warps;
    src->read_cta(0, 1, warps);
    PackedWarpStream s(warps.at(0));
    TraceInst t;
    ASSERT_TRUE(s.next(t));
    EXPECT_TRUE(t.has_time);
    EXPECT_EQ(t.time, 5000u);
    ASSERT_TRUE(s.next(t));
    EXPECT_FALSE(t.has_time);
    ASSERT_TRUE(s.next(t));
    EXPECT_EQ(t.time, 4990u);
    EXPECT_EQ(t.inst.addr[1], 0x10cu);
    EXPECT_FALSE(s.next(t));
    EXPECT_FALSE(src->next_kernel(k));
  }
}

TEST(NativeWorkload, NextKernelSkipsCtasNotPulled) {
  const std::string p = tmp_path("skip.gmstrace.bin");
  VecWorkload w = hand_workload();
  TraceWriter(p, TraceFormat::Binary).write(w);
  NativeTraceWorkload t(p);
  EXPECT_EQ(t.name(), "hand");
  auto k0 = t.next_kernel();
  ASSERT_TRUE(k0);
  EXPECT_EQ(k0->info().name, "vec add<float>(a, b)");
  EXPECT_EQ(k0->info().regs_per_thread, 32u);
  auto c0 = k0->next_cta();
  ASSERT_TRUE(c0);
  EXPECT_EQ(c0->warps.size(), 2u);
  auto k1 = t.next_kernel();  // CTA 1 of kernel 0 is read and dropped
  ASSERT_TRUE(k1);
  EXPECT_EQ(k1->info().name, "second");
  EXPECT_EQ(k0->next_cta(), nullptr);  // a stale kernel source hands out nothing
  auto c = k1->next_cta();
  ASSERT_TRUE(c);
  WarpInst in;
  EXPECT_FALSE(c->warps.at(0)->next(in));
  EXPECT_EQ(k1->next_cta(), nullptr);
  EXPECT_EQ(t.next_kernel(), nullptr);
  EXPECT_EQ(t.next_kernel(), nullptr);
}
