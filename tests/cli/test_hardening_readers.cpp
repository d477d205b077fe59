// Every reader checks its input as it reads, in bounded memory (issue 29, item 1): a device, a FIFO, a pipe
// or a huge file fails on its first bytes or at the size limit, never by filling memory; `-w /dev/stdin`
// works from a pipe like `-c /dev/stdin`; a second YAML document is an error naming its line; a native trace
// with lanes beyond its CTA's threads, or without a kernel, is refused. Every run here is under `ulimit -v`
// and a 30 s timeout, so a regression fails fast instead of eating the machine.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <string>

#include "tests/cli/cli_runner.h"

namespace {

// The address space a run may use here: the binary's own (~170 MiB of mappings) plus a 16 MiB document
// several times over, far below what reading a 200 MB file or a device whole takes.
constexpr uint64_t kLimitKiB = 600 * 1024;

// The largest resident set of any process this test ran and waited for, in MiB (each test case runs in
// its own process). A reader that loads a device or a huge file whole shows here even when the limit
// above turns its growth into a clean error.
double peak_child_rss_mib() {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return double(ru.ru_maxrss) / 1024.0;
}

// What a refused input may cost: the binary's own ~15 MiB, a 64 KiB prefix, or a 16 MiB document
// read to its limit (32 MiB of string capacity).
// AddressSanitizer's shadow memory and redzones add ~15 MiB to a refused run's ~15 MiB and scale what it
// reads: three times the room there still catches a 200 MB input read whole.
constexpr double kPeakMiB = kCliUnderAsan ? 300 : 100;

}  // namespace

class HardeningReaders : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = temp_dir(std::string("hr_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    tiny = gms_src("configs/tiny.yaml");
    small = gms_src("configs/workloads/small.yaml");
  }
  // Runs `script` with bash (GMS standing for the binary) under ulimit -v and a 30 s kill; at most 64 KB of
  // output comes back. The script may pipe into the binary.
  CliResult run_script(std::string script) {
    for (size_t p; (p = script.find("GMS")) != std::string::npos;)
      script.replace(p, 3, "timeout -s KILL 30 " + gms_bin());
    const std::string limit = kCliUnderAsan ? "" : "ulimit -v " + std::to_string(kLimitKiB) + "\n";
    write_file(dir + "/run.sh", limit + script + "\n");
    // pipefail outside: the status is the script's, which is the binary's (the last command).
    return run_shell("bash -o pipefail -c 'bash " + dir + "/run.sh 2>&1 | head -c 65536'");
  }
  CliResult run_args(const std::string& args) { return run_script("GMS " + args); }
  std::string out() const { return " -o " + dir + "/out"; }
  void expect_error(const CliResult& r, const std::string& expect) { EXPECT_INPUT_ERROR(r, expect); }
  void expect_ran(const CliResult& r) {
    EXPECT_EQ(r.status, 0) << r.out.substr(0, 2000);
    EXPECT_NE(r.out.find("statistics written to"), std::string::npos) << r.out.substr(0, 2000);
  }
  // A 200 MB file of zeros, sparse: no disk, no time.
  std::string zero_file() {
    const std::string z = dir + "/zeros.yaml";
    EXPECT_EQ(std::system(("truncate -s 200M '" + z + "'").c_str()), 0);
    return z;
  }
  void TearDown() override { EXPECT_LT(peak_child_rss_mib(), kPeakMiB) << "a run used too much memory"; }
  std::string dir, tiny, small;
};

// On main: -c /dev/zero grew to 13 GB in 30 s (the whole device read before any check).
TEST_F(HardeningReaders, ConfigFromDevZeroFailsOnItsFirstByte) {
  expect_error(run_args("run -q -c /dev/zero -w " + small + out()),
               "/dev/zero:1: not a text (YAML) file (byte '\\0')");
}

// On main: -w /dev/zero reached 16.8 GB before "not a workload" (a programs-file check read a line).
TEST_F(HardeningReaders, WorkloadFromDevZeroFailsOnItsFirstBytes) {
  expect_error(run_args("run -q -c " + tiny + " -w /dev/zero" + out()),
               "/dev/zero: not a workload: expected a YAML document with top key 'workload:'");
}

// On main: a 200 MB file of zeros took 403 MB (read whole, then found binary).
TEST_F(HardeningReaders, LargeZeroFileFailsOnItsFirstBytes) {
  const std::string z = zero_file();
  expect_error(run_args("run -q -c " + z + " -w " + small + out()),
               z + ":1: not a text (YAML) file (byte '\\0')");
  expect_error(run_args("run -q -c " + tiny + " -w " + z + out()), z + ": not a workload");
}

// A text file over the limit is refused by its size (a regular file), a stream at limit + 1 byte.
TEST_F(HardeningReaders, YamlLargerThanTheLimitIsRefused) {
  const std::string big = dir + "/big.yaml";
  std::string comments;
  const std::string line = "# " + std::string(1021, 'x') + "\n";
  while (comments.size() <= (16u << 20)) comments += line;
  write_file(big, comments);
  expect_error(run_args("run -q -c " + big + " -w " + small + out()),
               big + ": larger than the 16 MiB limit for a configuration file");
  write_file(dir + "/w.yaml", "workload:\n" + comments);
  expect_error(run_args("run -q -c " + tiny + " -w " + dir + "/w.yaml" + out()),
               dir + "/w.yaml: larger than the 16 MiB limit for a workload file");
  // An endless stream of comments through a pipe: read up to the limit, then refused.
  expect_error(run_script("yes '# a comment' | GMS run -q -c /dev/stdin -w " + small + out()),
               "/dev/stdin: larger than the 16 MiB limit for a configuration file");
}

// On main: -w /dev/stdin from a pipe was refused (read twice: the programs-file check ate it) while -c
// worked. Both read the stream once now; so does a native trace.
TEST_F(HardeningReaders, StdinPipeWorksForConfigAndWorkload) {
  expect_ran(run_script("cat " + tiny + " | GMS run -q -c /dev/stdin -w " + small + out()));
  expect_ran(run_script("cat " + small + " | GMS run -q -c " + tiny + " -w /dev/stdin" + out()));
  write_file(dir + "/t.gmstrace",
             "gmstrace 1\nworkload piped\nkernel grid=2 block=64 regs=0 shmem=0 name=k\n"
             "cta 0\nwarp 0 1\n100 ffffffff ld 4 0 s 0x1000 4\nwarp 1 1\n100 ffffffff st 4 0 s 0x2000 4\n"
             "cta 1\nwarp 0 1\n100 ffffffff ld 4 0 s 0x3000 4\nwarp 1 1\n100 ffffffff st 4 0 s 0x4000 4\n"
             "end 1\n");
  expect_ran(run_script("cat " + dir + "/t.gmstrace | GMS run -q -c " + tiny + " -w /dev/stdin" + out()));
  // The binary form too: recorded, then piped.
  CliResult rec = run_args("trace record -w " + small + " -o " + dir + "/s.gmstrace.bin");
  ASSERT_EQ(rec.status, 0) << rec.out;
  expect_ran(run_script("cat " + dir + "/s.gmstrace.bin | GMS run -q -c " + tiny + " -w /dev/stdin" + out()));
}

// On main: a FIFO as -w hung (opened twice, the second open waits for a writer that is gone).
TEST_F(HardeningReaders, FifoInputsAreReadOnceWithTheSameBound) {
  const std::string f = dir + "/fifo";
  ASSERT_EQ(std::system(("mkfifo '" + f + "'").c_str()), 0);
  expect_ran(run_script("cat " + small + " > " + f + " &\nGMS run -q -c " + tiny + " -w " + f + out()));
  expect_ran(run_script("cat " + tiny + " > " + f + " &\nGMS run -q -c " + f + " -w " + small + out()));
  expect_error(
      run_script("cat /dev/zero > " + f + " 2>/dev/null &\nGMS run -q -c " + f + " -w " + small + out()),
      f + ":1: not a text (YAML) file (byte '\\0')");
  expect_error(run_script("yes '# c' > " + f + " 2>/dev/null &\nGMS run -q -c " + f + " -w " + small + out()),
               f + ": larger than the 16 MiB limit for a configuration file");
}

// On main: everything after `---` was silently ignored (here: l1.ways 3, which is not a power of two).
TEST_F(HardeningReaders, SecondYamlDocumentIsAnErrorNamingItsLine) {
  const std::string c = dir + "/c.yaml";
  std::string text = read_file(tiny);
  const size_t at = size_t(std::count(text.begin(), text.end(), '\n')) + 1;
  write_file(c, text + "---\nl1:\n  ways: 3\n");
  expect_error(run_args("run -q -c " + c + " -w " + small + out()),
               c + ":" + std::to_string(at) + ": a second YAML document starts here; one document per file");
  // A leading `---` is the first document's start, not a second one.
  write_file(c, "---\n" + text);
  expect_ran(run_args("run -q -c " + c + " -w " + small + out()));

  const std::string w = dir + "/w.yaml";
  text = read_file(small);
  const size_t wat = size_t(std::count(text.begin(), text.end(), '\n')) + 2;
  write_file(w, text + "...\n---\nworkload: {}\n");
  expect_error(run_args("run -q -c " + tiny + " -w " + w + out()),
               w + ":" + std::to_string(wat) + ": a second YAML document starts here; one document per file");

  const std::string p = dir + "/programs.yaml";
  write_file(p, "programs:\n  - workload: " + small + "\n    sms: 1\n---\nprograms: []\n");
  expect_error(run_args("run -q -c " + tiny + " -w " + p + out()),
               p + ":4: a second YAML document starts here; one document per file");

  expect_error(run_script("GMS run -q -c " + tiny + " -w " + small + out() +
                          " --set \"$(printf 'l1.ways=4\\n---\\n3')\""),
               "--set l1.ways=4\\n---\\n3: a second YAML document in the value; one document per value");
}

// On main both were accepted (docs/trace-format.md: a lane beyond the CTA's threads holds no thread).
TEST_F(HardeningReaders, NativeTraceLanesBeyondTheCtaAndNoKernelAreErrors) {
  const std::string t = dir + "/t.gmstrace";
  write_file(t,
             "gmstrace 1\nworkload w\nkernel grid=1 block=16 regs=0 shmem=0 name=k\ncta 0\nwarp 0 1\n"
             "100 ffffffff ld 4 0 s 0x1000 4\nend 1\n");
  expect_error(run_args("run -q -c " + tiny + " -w " + t + out()),
               t + ":6: mask 0xffffffff: lane 16 is active, but the CTA has only 16 threads (warp 0 holds "
                   "lanes 0..15)");
  write_file(t, "gmstrace 1\nworkload w\nend 0\n");
  expect_error(run_args("run -q -c " + tiny + " -w " + t + out()),
               t + ":3: no kernel: a trace needs at least one kernel before its end record");
}

// A trace line without an end (a binary file with the text magic) stops at the line limit.
TEST_F(HardeningReaders, EndlessTraceLineStopsAtTheLineLimit) {
  const std::string t = dir + "/t.gmstrace";
  write_file(t, "gmstrace 1\nworkload ");
  ASSERT_EQ(std::system(("head -c 3000000 /dev/zero | tr '\\0' 'x' >> '" + t + "'").c_str()), 0);
  expect_error(run_args("run -q -c " + tiny + " -w " + t + out()),
               t + ":2: line longer than the 1 MiB limit for a trace line (not a text file?)");
}
