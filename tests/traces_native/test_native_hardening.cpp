// Hostile native traces (issue 8): accesses at and past the top of the 64-bit space, corrupt binary
// containers (reserved bytes, trailing bytes, oversized blocks, huge CTAs) and raw bytes in messages.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/common/config.h"
#include "tb/traces/native_block_io.h"
#include "tb/traces/native_format.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/trace_writer.h"
#include "tests/traces_native/native_test_util.h"

using namespace gms;
using namespace gms_test;

namespace {

// A one-kernel, one-warp text trace whose warp runs `insts` (instruction lines start at line 6).
std::string text_trace(const std::string& name, const std::vector<std::string>& insts,
                       const std::string& kernel = "kernel grid=1 block=32 regs=0 shmem=0 name=k") {
  std::string t =
      "gmstrace 1\nworkload top\n" + kernel + "\ncta 0\nwarp 0 " + std::to_string(insts.size()) + "\n";
  for (const auto& i : insts) t += i + "\n";
  const std::string p = tmp_path(name + ".gmstrace");
  write_text(p, t + "end 1\n");
  return p;
}

// A binary trace (no compression) of one warp holding `insts`, written by the library's sink, which
// stores whatever it is given: the reader is the one that must check.
std::string binary_trace(const std::string& name, const std::vector<WarpInst>& insts) {
  const std::string p = tmp_path(name + ".gmstrace.bin");
  auto sink = open_native_sink(p, TraceFormat::Binary, TraceCompression::None);
  sink->begin("top");
  KernelInfo k;
  k.name = "k";
  k.num_ctas = 1;
  k.threads_per_cta = 32;
  sink->kernel(k);
  sink->cta(0);
  PackedWarp w;
  for (const WarpInst& in : insts) w.add(TraceInst{in, false, 0});
  sink->warp(0, w);
  sink->finish();
  return p;
}

uint32_t u32_at(const std::string& b, size_t pos) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | uint8_t(b[pos + size_t(i)]);
  return v;
}

}  // namespace

TEST(NativeTopOfAddressSpace, TextAcceptsAccessesEndingExactlyAt2To64) {
  const std::string p = text_trace(
      "top_ok", {"100 ffffffff ld 4 0 s 0xffffffffffffff80 4", "108 00000001 ld 16 0 s 0xfffffffffffffff0 0",
                 "110 00000001 st 1 0 s 0xffffffffffffffff 0"});
  EXPECT_EQ(error_of(p), "");
  NativeTraceWorkload w(p);
  const auto d = dump(w);
  ASSERT_EQ(d.size(), 7u);  // workload, kernel, cta, warp, 3 instructions
  EXPECT_NE(d[4].find(" ffffffffffffff80 ffffffffffffff84 "), std::string::npos) << d[4];
  EXPECT_NE(d[4].find(" fffffffffffffffc"), std::string::npos) << d[4];
}

TEST(NativeTopOfAddressSpace, TextRejectsALaneWrappingPast2To64) {
  std::string p = text_trace("wrap1", {"100 00000001 ld 4 0 s 0xfffffffffffffffe 0"});
  EXPECT_EQ(error_of(p), p + ":6: lane 0 address 0xfffffffffffffffe + 4 bytes wraps past 2^64");
  // Lane 31 of a full warp (base ...82, stride 4) is the first that does not fit.
  p = text_trace("wrap31b", {"100 ffffffff st 4 0 s 0xffffffffffffff82 4"});
  EXPECT_EQ(error_of(p), p + ":6: lane 31 address 0xfffffffffffffffe + 4 bytes wraps past 2^64");
  p = text_trace("wrap_list", {"100 00000030 ld 16 0 l 0x1000 0xfffffffffffffff8"});
  EXPECT_EQ(error_of(p), p + ":6: lane 5 address 0xfffffffffffffff8 + 16 bytes wraps past 2^64");
}

TEST(NativeTopOfAddressSpace, BinaryRejectsALaneWrappingPast2To64) {
  const std::string ok =
      binary_trace("top_ok", {inst(0x100, MemKind::Load, ~0u, 4, 0, seq(0xffffffffffffff80, 4)),
                              inst(0x108, MemKind::Load, 1, 16, 0, {0xfffffffffffffff0})});
  EXPECT_EQ(error_of(ok), "");
  const std::string p = binary_trace("wrap", {inst(0x100, MemKind::Load, 1, 4, 0, {0x1000}),
                                              inst(0x108, MemKind::Store, 0x20, 8, 0, {0xfffffffffffffffc})});
  // Records: 1 W, 2 K, 3 C, 4 P, 5 and 6 the instructions.
  const std::string e = error_of(p);
  EXPECT_EQ(e.rfind(p + ": record 6 (byte ", 0), 0u) << e;
  EXPECT_NE(e.find("): lane 5 address 0xfffffffffffffffc + 8 bytes wraps past 2^64"), std::string::npos) << e;
}

TEST(NativeBinaryContainer, ReservedHeaderBytesMustBeZero) {
  const std::string good = slurp(binary_trace("res_src", {inst(0x100, MemKind::Load, 1, 4, 0, {0x1000})}));
  for (size_t i : {10u, 11u}) {
    std::string b = good;
    b[i] = 1;
    const std::string p = tmp_path("res" + std::to_string(i) + ".gmstrace.bin");
    write_text(p, b);
    EXPECT_EQ(error_of(p), p + ": byte " + std::to_string(i) + ": reserved header byte is 1 (must be 0)");
  }
}

// A bad header is reported without leaking the open file: libFuzzer ran out of descriptors after ~300k
// inputs when the constructor threw with the file still open.
TEST(NativeBinaryContainer, ABadHeaderClosesTheFile) {
  const std::string good = slurp(binary_trace("fd_src", {inst(0x100, MemKind::Load, 1, 4, 0, {0x1000})}));
  std::string b = good;
  b[10] = 1;
  const std::string p = tmp_path("fd.gmstrace.bin");
  write_text(p, b);
  auto open_fds = [] {
    const std::filesystem::directory_iterator fds("/proc/self/fd");
    return std::distance(begin(fds), end(fds));
  };
  const auto before = open_fds();
  for (int i = 0; i < 50; ++i) EXPECT_NE(error_of(p), "");
  EXPECT_EQ(open_fds(), before);
}

TEST(NativeBinaryContainer, BytesAfterTheEndBlockAreRejected) {
  const std::string good = slurp(binary_trace("tail_src", {inst(0x100, MemKind::Load, 1, 4, 0, {0x1000})}));
  for (const std::string& tail : {std::string("x"), std::string(8, '\0'), good}) {
    const std::string p = tmp_path("tail" + std::to_string(tail.size()) + ".gmstrace.bin");
    write_text(p, good + tail);
    const std::string e = error_of(p);
    EXPECT_NE(
        e.find("bytes after the end block: the file must end at file offset " + std::to_string(good.size())),
        std::string::npos)
        << e;
    EXPECT_EQ(e.rfind(p + ": record ", 0), 0u) << e;
  }
}

TEST(NativeBinaryContainer, BlocksOverOneMebibyteAreRejected) {
  // Header, then a stored block claiming 1 MiB + 1 raw bytes: rejected before anything is allocated.
  std::string b =
      slurp(binary_trace("big_src", {inst(0x100, MemKind::Load, 1, 4, 0, {0x1000})})).substr(0, 12);
  const uint32_t n = uint32_t(kBlockBytes) + 1;
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < 4; ++i) b += char(uint8_t(n >> (8 * i)));
  b += std::string(64, 'W');
  std::string p = tmp_path("big.gmstrace.bin");
  write_text(p, b);
  EXPECT_EQ(error_of(p),
            p + ": record 1 (byte 0): block at file offset 12 holds 1048577 bytes, more than the 1 MiB "
                "(1048576 bytes) limit");
  // A stored size that does not match an uncompressed block.
  b.replace(12, 8, std::string("\x21\0\0\0\x22\0\0\0", 8));  // 33 raw bytes stored in 34
  p = tmp_path("stored.gmstrace.bin");
  write_text(p, b);
  EXPECT_NE(error_of(p).find("record 1 (byte 0): corrupt block header at file offset 12 (stored size"),
            std::string::npos)
      << error_of(p);
}

TEST(NativeBinaryContainer, WriterCutsBlocksAtOneMebibyte) {
  // One warp of 12,000 scattered 32-lane loads: about 1.7 MB of records in a single warp section.
  std::vector<WarpInst> insts;
  uint64_t x = 1;
  for (int i = 0; i < 12000; ++i) {
    std::vector<uint64_t> a;
    for (int l = 0; l < 32; ++l)
      a.push_back((x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 20 << 4);
    insts.push_back(inst(0x100, MemKind::Load, ~0u, 4, 0, a));
  }
  const std::string p = binary_trace("blocks", insts);
  const std::string b = slurp(p);
  size_t pos = kFileHeaderBytes, blocks = 0;
  uint64_t total = 0;
  for (;;) {
    ASSERT_LE(pos + 8, b.size());
    const uint32_t raw = u32_at(b, pos), stored = u32_at(b, pos + 4);
    if (raw == 0) break;
    EXPECT_LE(raw, kBlockBytes);
    total += raw;
    pos += 8 + stored;
    ++blocks;
  }
  EXPECT_EQ(pos + 8, b.size());
  EXPECT_GE(blocks, 2u);
  EXPECT_GT(total, kBlockBytes);
  NativeTraceWorkload w(p);
  const auto d = dump(w);
  ASSERT_EQ(d.size(), 4u + insts.size());
  EXPECT_EQ(d.back(), dump_inst(insts.back()));
}

TEST(NativeBinaryContainer, CtasOverTheCudaLimitAreRejected) {
  const std::string p = text_trace("bigcta", {}, "kernel grid=1 block=100000000 regs=0 shmem=0 name=k");
  EXPECT_EQ(error_of(p), p + ":3: block=100000000: more than 1024 threads per CTA");
}

TEST(NativeTextMessages, RawBytesAreQuotedEscaped) {
  const std::string p = text_trace("nul", {std::string("100 ffffffff l\0d\x01 4 0 s 0x1000 4", 31)});
  const std::string e = error_of(p);
  EXPECT_EQ(e, p + ":6: kind: 'l\\0d\\x01' is not ld, st, atom or bar");
  EXPECT_EQ(e.find('\0'), std::string::npos);
  const std::string q = text_trace("long", {"100 ffffffff " + std::string(5000, 'z') + " 4 0 s 0x1000 4"});
  EXPECT_LT(error_of(q).size(), q.size() + 120);
}
