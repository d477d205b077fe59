// Issue 8, trace readers and the top of the 64-bit space, as a user meets them: the last line of the
// address space is simulated and checked exactly, an access wrapping past 2^64 is bad input (exit 2) in
// every reader, corrupt binary containers and unknown Accel-Sim versions are rejected, and kernelslist.g
// takes absolute paths and subfolders.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/cli/cli_runner.h"

namespace {

const std::string kTiny = gms_src("configs/tiny.yaml");

CliResult run_trace(const std::string& dir, const std::string& workload) {
  return run_cli("run -q -c " + kTiny + " -w " + workload + " -o " + dir + "/out");
}

// `one_line` false: the error is found when the last kernel ends, and SystemC adds its own "Simulation
// stopped by user" note (the run loop's business, as for the text reader's "content after the end record").
void expect_bad_input(const CliResult& r, const std::string& expect, bool one_line = true) {
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(expect), std::string::npos) << "expected '" << expect << "' in:\n" << r.out;
  if (one_line) {
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
}

std::string text_trace(const std::string& body, unsigned kernels = 1) {
  return "gmstrace 1\nworkload top\n" + body + "end " + std::to_string(kernels) + "\n";
}

// Uncompressed binary trace of `records` (the decoded record stream) in one block.
std::string binary_trace(const std::string& records) {
  std::string b = std::string("GMSTRACE") + char(1) + char(0) + char(0) + char(0);
  for (uint32_t v : {uint32_t(records.size()), uint32_t(records.size())})
    for (int i = 0; i < 4; ++i) b += char(uint8_t(v >> (8 * i)));
  return b + records + std::string(8, '\0');
}

// W "w", K grid 1 block 32 regs 0 shmem 0 "k", C 0, P warp 0 with 1 instruction: a 4-byte load of lane 0
// (flags 0x04, pc 0x100, mask 1, gap 0, stride encoding base zz(addr), stride 0), E 1.
std::string one_load_records(const std::string& zz_base) {
  return std::string(
             "W\x01w"
             "K\x01\x20\x00\x00\x01k"
             "C\x00"
             "P\x00\x01",
             15) +
         std::string("\x04\x80\x04\x01\x00", 5) + zz_base +
         std::string(
             "\x00"
             "E\x01",
             3);
}

const char* kAccelHeader = "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n";
const char* kAccelBody =
    "\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0030 0000000f 1 R4 LDG.E 1 R2 4 1 0x1000 4 "
    "0\n#END_TB\n";

}  // namespace

TEST(HardeningTraces, LastLineOfTheAddressSpaceIsLoadedStoredAndCheckedExactly) {
  const std::string d = temp_dir("hard_traces_top");
  write_file(d + "/top.gmstrace",
             text_trace("kernel grid=1 block=32 regs=32 shmem=0 name=read\ncta 0\nwarp 0 2\n"
                        "100 ffffffff ld 4 0 s 0xffffffffffffff80 4\n"
                        "108 00000001 ld 16 0 s 0xfffffffffffffff0 0\n"
                        "kernel grid=1 block=64 regs=32 shmem=0 name=write\ncta 0\nwarp 0 1\n"
                        "108 0000000f st 4 0 s 0xffffffffffffffc0 4\nwarp 1 1\n"
                        "108 00000003 st 8 0 s 0xfffffffffffffff0 8\n"
                        "kernel grid=1 block=32 regs=32 shmem=0 name=reread\ncta 0\nwarp 0 3\n"
                        "100 ffffffff ld 4 0 s 0xffffffffffffff80 4\n"
                        "108 00000001 ld 16 0 s 0xfffffffffffffff0 0\n"
                        "110 00000001 ld 4 0 s 0xfffffffffffffffc 0\n",
                        3));
  const CliResult r = run_trace(d, d + "/top.gmstrace");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string j = read_file(d + "/out/stats.json");
  // 32 + 1 lane loads in kernel 0, 32 + 1 + 1 in kernel 2; 128 + 16 + 128 + 16 + 4 bytes.
  EXPECT_NE(j.find("\"loads_checked\": 67,"), std::string::npos) << j.substr(0, 300);
  EXPECT_NE(j.find("\"bytes_checked\": 292,"), std::string::npos) << j.substr(0, 300);
  EXPECT_NE(j.find("\"mismatches\": 0,"), std::string::npos) << j.substr(0, 300);
}

TEST(HardeningTraces, ALaneEndingExactlyAt2To64IsRequestedAndChecked) {
  // Lanes 0-3 in the last line (lane 3 ends at 2^64), lanes 4-31 at 0, 4, ... (addresses are modulo 2^64).
  const std::string d = temp_dir("hard_traces_end");
  write_file(d + "/t.gmstrace", text_trace("kernel grid=1 block=32 regs=32 shmem=0 name=k\ncta 0\nwarp 0 1\n"
                                           "100 ffffffff ld 4 0 s 0xfffffffffffffff0 4\n"));
  const CliResult r = run_trace(d, d + "/t.gmstrace");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string j = read_file(d + "/out/stats.json");
  EXPECT_NE(j.find("\"loads_checked\": 32,"), std::string::npos) << j.substr(0, 300);
  EXPECT_NE(j.find("\"bytes_checked\": 128,"), std::string::npos) << j.substr(0, 300);
}

TEST(HardeningTraces, AnAccessWrappingPast2To64IsBadInputInEveryReader) {
  const std::string d = temp_dir("hard_traces_wrap");
  write_file(d + "/t.gmstrace", text_trace("kernel grid=1 block=32 regs=32 shmem=0 name=k\ncta 0\nwarp 0 1\n"
                                           "100 00000020 ld 4 0 s 0xfffffffffffffffe 0\n"));
  expect_bad_input(run_trace(d, d + "/t.gmstrace"),
                   d + "/t.gmstrace:6: lane 5 address 0xfffffffffffffffe + 4 bytes wraps past 2^64");
  write_file(d + "/t.gmstrace.bin", binary_trace(one_load_records("\x03")));  // zz(-2) = 3
  expect_bad_input(run_trace(d, d + "/t.gmstrace.bin"),
                   d + "/t.gmstrace.bin: record 5 (byte 15): lane 0 address "
                       "0xfffffffffffffffe + 4 bytes wraps past 2^64");
  write_file(d + "/kernel-1.traceg",
             std::string(kAccelHeader) + "-accelsim tracer version = 5\n" +
                 "\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                 "0030 00000003 1 R4 LDG.E.128 1 R2 16 0 0x1000 0xfffffffffffffff8 0\n#END_TB\n");
  expect_bad_input(run_trace(d, d + "/kernel-1.traceg"),
                   d + "/kernel-1.traceg:10: lane 1 address 0xfffffffffffffff8 + 16 bytes wraps past 2^64");
}

TEST(HardeningTraces, CorruptBinaryContainersAreBadInput) {
  const std::string d = temp_dir("hard_traces_bin");
  const std::string good = binary_trace(one_load_records("\x80\x40"));  // base zz 0x2000 = 0x1000
  write_file(d + "/good.gmstrace.bin", good);
  ASSERT_EQ(run_trace(d, d + "/good.gmstrace.bin").status, 0);
  write_file(d + "/tail.gmstrace.bin", good + "garbage");
  expect_bad_input(
      run_trace(d, d + "/tail.gmstrace.bin"),
      d +
          "/tail.gmstrace.bin: record 6 (byte 23): bytes after the end block: the file must end at file "
          "offset " +
          std::to_string(good.size()),
      false);
  std::string reserved = good;
  reserved[11] = 7;
  write_file(d + "/res.gmstrace.bin", reserved);
  expect_bad_input(run_trace(d, d + "/res.gmstrace.bin"),
                   d + "/res.gmstrace.bin: byte 11: reserved header byte is 7 (must be 0)");
  std::string big =
      good.substr(0, 12) + std::string("\x01\x00\x10\x00\x01\x00\x10\x00", 8) + std::string(100, 'W');
  write_file(d + "/big.gmstrace.bin", big);
  expect_bad_input(
      run_trace(d, d + "/big.gmstrace.bin"),
      d + "/big.gmstrace.bin: record 1 (byte 0): block at file offset 12 holds 1048577 bytes, more than "
          "the 1 MiB (1048576 bytes) limit");
}

TEST(HardeningTraces, AccelSimUnknownTracerVersionIsBadInput) {
  const std::string d = temp_dir("hard_traces_ver");
  write_file(d + "/kernel-1.traceg",
             std::string(kAccelHeader) + "-accelsim tracer version = 7\n" + kAccelBody);
  expect_bad_input(
      run_trace(d, d + "/kernel-1.traceg"),
      d + "/kernel-1.traceg:4: -accelsim tracer version '7' is not supported (this importer reads "
          "versions 1 to 5)");
}

TEST(HardeningTraces, KernelsListTakesAbsolutePathsAndSubfoldersAndNamesMissingFiles) {
  const std::string d = temp_dir("hard_traces_list");
  std::system(("mkdir -p '" + d + "/sub' '" + d + "/abs'").c_str());
  const std::string k = std::string(kAccelHeader) + "-accelsim tracer version = 5\n" + kAccelBody;
  write_file(d + "/sub/kernel-1.traceg", k);
  write_file(d + "/abs/kernel-2.traceg", k);
  write_file(d + "/kernelslist.g",
             "MemcpyHtoD,0x00007f0000000000,4096\nsub/kernel-1.traceg\n" + d + "/abs/kernel-2.traceg\n");
  const CliResult r = run_trace(d, d + "/kernelslist.g");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string j = read_file(d + "/out/stats.json");
  EXPECT_NE(j.find("\"loads_checked\": 8,"), std::string::npos) << j.substr(0, 300);  // 4 lanes per kernel
  write_file(d + "/missing.g", "kernel-3.traceg\n");
  expect_bad_input(run_trace(d, d + "/missing.g"), d + "/missing.g:1: 'kernel-3.traceg' not found");
}
