// Native traces checked as they are read (issue 29): a lane beyond the CTA's threads and a trace without a
// kernel are errors in both forms, a line without an end stops at the line limit, and a trace is read from
// an input already open (a FIFO: once, the sniffed bytes handed on).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>

#include "models/common/bounded_input.h"
#include "tb/traces/native_format.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/trace_writer.h"
#include "tests/traces_native/native_test_util.h"

using namespace gms;
using namespace gms_test;

namespace {

const char* kHalfCta =
    "gmstrace 1\nworkload w\nkernel grid=1 block=48 regs=0 shmem=0 name=k\ncta 0\nwarp 0 1\n"
    "100 ffffffff ld 4 0 s 0x1000 4\nwarp 1 1\n100 %s ld 4 0 s 0x2000 4\nend 1\n";

std::string half_cta(const std::string& name, const char* mask) {
  char text[512];
  std::snprintf(text, sizeof text, kHalfCta, mask);
  const std::string p = tmp_path(name + ".gmstrace");
  write_text(p, text);
  return p;
}

}  // namespace

TEST(NativeLimits, LanesOfTheCtasThreads) {
  EXPECT_EQ(cta_warp_lanes(48, 0), 0xffffffffu);
  EXPECT_EQ(cta_warp_lanes(48, 1), 0xffffu);
  EXPECT_EQ(cta_warp_lanes(64, 1), 0xffffffffu);
  EXPECT_EQ(cta_warp_lanes(1, 0), 1u);
  EXPECT_EQ(cta_warp_lanes(33, 2), 0u);
}

TEST(NativeLimits, TextLaneBeyondTheCtaIsAnError) {
  EXPECT_EQ(error_of(half_cta("ok", "0000ffff")), "");
  const std::string p = half_cta("bad", "0001ffff");
  EXPECT_EQ(error_of(p), p + ":8: mask 0x1ffff: lane 16 is active, but the CTA has only 48 threads (warp 1 "
                             "holds lanes 0..15)");
}

TEST(NativeLimits, BinaryLaneBeyondTheCtaIsAnError) {
  // The good trace as binary, then its second warp's record claims the lanes of a full warp: the block
  // shrinks from 48 to 40 threads (the varint of `block` in the kernel record).
  const std::string src = half_cta("src", "000000ff");
  const std::string b = tmp_path("b.gmstrace.bin");
  NativeTraceWorkload w(src);
  TraceWriter(b, TraceFormat::Binary, TraceCompression::None).write(w);
  std::string bytes = slurp(b);
  const size_t k = bytes.find('K', 20);
  ASSERT_NE(k, std::string::npos);
  ASSERT_EQ(bytes[k + 2], char(48));
  bytes[k + 2] = char(4);  // block 4: warp 0's full mask is now beyond the CTA
  write_text(b, bytes);
  const std::string e = error_of(b);
  EXPECT_NE(e.find(": mask 0xffffffff: lane 4 is active, but the CTA has only 4 threads (warp 0 holds lanes "
                   "0..3)"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.rfind(b + ": record ", 0), 0u) << e;
}

TEST(NativeLimits, TraceWithoutAKernelIsAnError) {
  const std::string t = tmp_path("empty.gmstrace");
  write_text(t, "gmstrace 1\nworkload w\n# nothing\nend 0\n");
  EXPECT_EQ(error_of(t), t + ":4: no kernel: a trace needs at least one kernel before its end record");
  const std::string b = tmp_path("empty.gmstrace.bin");
  VecWorkload none("w", {});
  TraceWriter(b, TraceFormat::Binary, TraceCompression::Zlib).write(none);
  EXPECT_EQ(error_of(b),
            b + ": record 2 (byte 3): no kernel: a trace needs at least one kernel before its end "
                "record");
}

TEST(NativeLimits, EndlessLineStopsAtTheLimit) {
  const std::string t = tmp_path("long.gmstrace");
  write_text(t, "gmstrace 1\nworkload " + std::string(kMaxTraceLineBytes + 10, 'x'));
  EXPECT_EQ(error_of(t), t + ":2: line longer than the 1 MiB limit for a trace line (not a text file?)");
}

TEST(NativeLimits, TraceFromAFifoIsReadOnce) {
  const std::string src = half_cta("fifo_src", "0000ffff");
  const std::string f = tmp_path("fifo");
  ::unlink(f.c_str());
  ASSERT_EQ(::mkfifo(f.c_str(), 0600), 0);
  const std::string text = slurp(src);
  std::thread writer([&] { write_text(f, text); });
  auto in = std::make_unique<InputFile>(f);
  EXPECT_EQ(sniff_native(in->peek(16)), NativeKind::Text);
  NativeTraceWorkload w(std::move(in));
  NativeTraceWorkload ref(src);
  EXPECT_EQ(dump(w), dump(ref));
  writer.join();
}
