// Bad input never crashes, hangs or passes silently: one clear message naming file, line and key, exit 2.
#include <gtest/gtest.h>

#include "tests/cli/cli_runner.h"

namespace {

struct BadCase {
  const char* name;
  const char* config_edit;  // python-free: a sed-like (from, to) pair applied to tiny.yaml; empty = unchanged
  const char* config_to;
  const char* workload_text;  // nullptr = use configs/workloads/small.yaml
  const char* extra_args;
  const char* expect;  // substring of the error message
};

// Replaces the first occurrence of `from` in `text`.
std::string replace(std::string text, const std::string& from, const std::string& to) {
  auto p = text.find(from);
  EXPECT_NE(p, std::string::npos) << "test setup: '" << from << "' not in tiny.yaml";
  if (p != std::string::npos) text.replace(p, from.size(), to);
  return text;
}

const char* kGoodWorkload =
    "workload:\n  name: w\n  seed: 1\n  kernels:\n    - name: k\n      pattern: streaming\n      grid: 2\n"
    "      block: 64\n      insts_per_warp: 2\n      width: 4\n      base: 0x1000\n";

CliResult run_case(const std::string& dir, const std::string& config_text, const std::string& workload_text,
                   const std::string& extra) {
  write_file(dir + "/c.yaml", config_text);
  write_file(dir + "/w.yaml", workload_text);
  return run_cli("run -q -c " + dir + "/c.yaml -w " + dir + "/w.yaml -o " + dir + "/out " + extra);
}

void expect_error(const CliResult& r, const std::string& expect) {
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find(expect), std::string::npos) << "expected '" << expect << "' in:\n" << r.out;
  // One error line, not a cascade or a crash report.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

}  // namespace

class BadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    tiny = read_file(gms_src("configs/tiny.yaml"));
  }
  std::string dir, tiny;
};

TEST_F(BadInput, MissingRequiredSection) {
  expect_error(run_case(dir, replace(tiny, "dram:", "dramx:"), kGoodWorkload, ""), "c.yaml");
  CliResult r = run_case(dir, replace(tiny, "dram:", "dramx:"), kGoodWorkload, "");
  EXPECT_NE(r.out.find("dram: missing required section"), std::string::npos) << r.out;
}

TEST_F(BadInput, UnknownKeyNamesLineAndPath) {
  expect_error(run_case(dir, replace(tiny, "  ways: 4\n", "  wayz: 4\n"), kGoodWorkload, ""),
               "c.yaml:18: l1.wayz: unknown key");
}

TEST_F(BadInput, WrongType) {
  expect_error(run_case(dir, replace(tiny, "  ways: 4\n", "  ways: four\n"), kGoodWorkload, ""),
               "c.yaml:18: l1.ways: expected an integer, got 'four'");
}

TEST_F(BadInput, NegativeSize) {
  expect_error(
      run_case(dir, replace(tiny, "  size_bytes: 4096\n", "  size_bytes: -4096\n"), kGoodWorkload, ""),
      "l1.size_bytes: value -4096 must not be negative");
}

// A set count that is not a power of two is legal (28 KiB and 224 KiB carve-outs); a size that is not a
// whole number of sets is not.
TEST_F(BadInput, SizeThatIsNotWholeSets) {
  expect_error(
      run_case(dir, replace(tiny, "  size_bytes: 4096\n", "  size_bytes: 6000\n"), kGoodWorkload, ""),
      "l1.size_bytes");
}

TEST_F(BadInput, ZeroSms) {
  expect_error(run_case(dir, replace(tiny, "  count: 2\n", "  count: 0\n"), kGoodWorkload, ""), "sm.count");
}

TEST_F(BadInput, UnreadableFiles) {
  CliResult r = run_cli("run -q -c " + dir + "/nope.yaml -w " + dir + "/w.yaml -o " + dir + "/out");
  expect_error(r, dir + "/nope.yaml: cannot read file");
  write_file(dir + "/c.yaml", tiny);
  r = run_cli("run -q -c " + dir + "/c.yaml -w " + dir + "/missing.yaml -o " + dir + "/out");
  expect_error(r, dir + "/missing.yaml");
}

TEST_F(BadInput, YamlSyntaxError) {
  expect_error(run_case(dir, tiny + "\nbroken: [1, 2\n", kGoodWorkload, ""), "YAML syntax error");
}

TEST_F(BadInput, SlicesNotMultipleOfChannels) {
  std::string c =
      replace(replace(tiny, "  slices: 1\n", "  slices: 3\n"), "  channels: 1\n", "  channels: 2\n");
  expect_error(run_case(dir, c, kGoodWorkload, ""), "must be a multiple of DRAM channels");
}

TEST_F(BadInput, BadOverride) {
  expect_error(run_case(dir, tiny, kGoodWorkload, "--set l1.ways=many"),
               "--set l1.ways=many: l1.ways: expected an integer");
  expect_error(run_case(dir, tiny, kGoodWorkload, "--set l1.bogus=1"), "l1.bogus: unknown key");
}

TEST_F(BadInput, BadChoice) {
  expect_error(
      run_case(dir, replace(tiny, "  replacement: lru\n", "  replacement: fifo\n"), kGoodWorkload, ""),
      "l1.replacement");
}

TEST_F(BadInput, WorkloadUnknownPattern) {
  std::string w = kGoodWorkload;
  w.replace(w.find("streaming"), 9, "zigzag");
  expect_error(run_case(dir, tiny, w, ""), "w.yaml:6: workload.kernels[0].pattern");
}

TEST_F(BadInput, WorkloadZeroGridAndBadWidth) {
  std::string w = kGoodWorkload;
  w.replace(w.find("grid: 2"), 7, "grid: 0");
  expect_error(run_case(dir, tiny, w, ""), "workload.kernels[0].grid");
  std::string v = kGoodWorkload;
  v.replace(v.find("width: 4"), 8, "width: 3");
  expect_error(run_case(dir, tiny, v, ""), "workload.kernels[0].width");
}

TEST_F(BadInput, WorkloadMissingKernels) {
  expect_error(run_case(dir, tiny, "workload:\n  name: w\n", ""), "kernels");
}

TEST_F(BadInput, CommandLine) {
  expect_error(run_cli("frobnicate"), "unknown command 'frobnicate'");
  expect_error(run_cli("run -c x.yaml"), "run needs -w WORKLOAD");
  expect_error(run_cli("run -c x.yaml -w y.yaml --bogus"), "unknown option '--bogus'");
}

TEST_F(BadInput, ProgramsNeedMoreSmsThanTheSystemHas) {
  write_file(dir + "/c.yaml", tiny);
  write_file(dir + "/a.yaml", kGoodWorkload);
  write_file(dir + "/p.yaml",
             "programs:\n  - name: a\n    workload: a.yaml\n    sms: 2\n  - name: b\n"
             "    workload: a.yaml\n    sms: 1\n");
  expect_error(run_cli("run -q -c " + dir + "/c.yaml -w " + dir + "/p.yaml -o " + dir + "/out"),
               "p.yaml:7: programs[1].sms: the programs need 3 SMs, the system has 2");
}

// Bad traces through the command line: one line naming file and line, exit 2 (native and Accel-Sim).
TEST_F(BadInput, NativeTraceNonHexAddressAndTruncation) {
  write_file(dir + "/c.yaml", tiny);
  CliResult rec =
      run_cli("trace record -w " + gms_src("configs/workloads/small.yaml") + " -o " + dir + "/t.gmstrace");
  ASSERT_EQ(rec.status, 0) << rec.out;
  std::string text = read_file(dir + "/t.gmstrace");
  // Line 10 is an instruction line: break its base address.
  size_t pos = 0;
  for (int line = 1; line < 10; ++line) pos = text.find('\n', pos) + 1;
  size_t hex = text.find(" 0x", pos) + 3;
  text.insert(hex, "ZZ");
  write_file(dir + "/bad.gmstrace", text);
  expect_error(run_cli("run -q -c " + dir + "/c.yaml -w " + dir + "/bad.gmstrace -o " + dir + "/out"),
               "bad.gmstrace:10: address: '0xZZ");
  std::string whole = read_file(dir + "/t.gmstrace");
  write_file(dir + "/cut.gmstrace", whole.substr(0, whole.size() / 2));
  CliResult r = run_cli("run -q -c " + dir + "/c.yaml -w " + dir + "/cut.gmstrace -o " + dir + "/out");
  expect_error(r, "cut.gmstrace:");
}

TEST_F(BadInput, AccelSimTraceNonHexAddressAndTruncation) {
  write_file(dir + "/c.yaml", tiny);
  std::string src = gms_src("tests/data/accelsim/small");
  std::system(("cp -r '" + src + "' '" + dir + "/a' && cp -r '" + src + "' '" + dir + "/b'").c_str());
  std::string k = read_file(dir + "/a/kernel-1.traceg");
  size_t at = k.find("LDG.E 1 R2 4 1 0x");
  ASSERT_NE(at, std::string::npos);
  k.insert(at + std::string("LDG.E 1 R2 4 1 0x").size(), "QQ");
  write_file(dir + "/a/kernel-1.traceg", k);
  expect_error(run_cli("run -q -c " + dir + "/c.yaml -w " + dir + "/a -o " + dir + "/out"),
               "a/kernel-1.traceg:26: non-hex address '0xQQ");
  std::string full = read_file(dir + "/b/kernel-1.traceg"), head;
  size_t p = 0;
  for (int line = 0; line < 20; ++line) p = full.find('\n', p) + 1;
  write_file(dir + "/b/kernel-1.traceg", full.substr(0, p));
  expect_error(run_cli("run -q -c " + dir + "/c.yaml -w " + dir + "/b/kernelslist.g -o " + dir + "/out"),
               "b/kernel-1.traceg:20: unexpected end of file inside the thread block");
}
