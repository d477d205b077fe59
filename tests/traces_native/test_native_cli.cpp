// gpumemsys trace record, -w recognition of every workload kind, and the full round trip through the
// SystemC model: synthetic -> record (text, binary) -> replay on tiny gives byte-identical statistics.
#include <gtest/gtest.h>

#include "models/common/config.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/workload_detect.h"
#include "tb/workloads/workload_loader.h"
#include "tests/cli/cli_runner.h"
#include "tests/traces_native/native_test_util.h"

using namespace gms;
using gms_test::dump;
using gms_test::slurp;

namespace {

const std::string kSmall = gms_src("configs/workloads/small.yaml");
const std::string kTiny = gms_src("configs/tiny.yaml");

// A two-CTA Accel-Sim trace: per CTA one full-warp 4-byte load and store (tracer version 5, no lineinfo).
std::string accelsim_folder(const std::string& dir) {
  std::string t =
      "-kernel name = tiny_copy\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
      "-nregs = 8\n-binary version = 90\n-cuda stream id = 0\n-shmem base_addr = 0x00007f6400000000\n"
      "-local mem base_addr = 0x00007f63a5000000\n-nvbit version = 1.7.1\n-accelsim tracer version = 5\n"
      "-enable lineinfo = 0\n\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
      "mem_width "
      "[adrrescompress?] [mem_addresses] immediate\n\n";
  for (int b = 0; b < 2; ++b)
    t += "#BEGIN_TB\n\nthread block = " + std::to_string(b) +
         ",0,0\n\nwarp = 0\ninsts = 3\n0030 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f00000" + std::to_string(b) +
         "0000 4 0 \n0050 ffffffff 0 STG.E 2 R6 R4 4 1 0x7f00002" + std::to_string(b) +
         "0000 4 0 \n0060 ffffffff 0 EXIT 0 0 0 \n\n#END_TB\n\n";
  write_file(dir + "/kernel-1.traceg", t);
  write_file(dir + "/kernelslist.g", "MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg\n");
  return dir;
}

std::string csv_value(const std::string& csv, const std::string& path) {
  const size_t p = csv.find("\n" + path + ",");
  if (p == std::string::npos) return "<missing " + path + ">";
  const size_t s = p + path.size() + 2;
  return csv.substr(s, csv.find(',', s) - s);
}

}  // namespace

TEST(NativeCli, RecordWritesTextAndBinaryTraces) {
  const std::string d = temp_dir("native_record");
  CliResult r = run_cli("trace record -w " + kSmall + " -o " + d + "/s.gmstrace");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("recorded workload 'small': 2 kernels, 16 CTAs, 64 warps, 512 warp instructions -> " +
                       d + "/s.gmstrace (text, "),
            std::string::npos)
      << r.out;
  r = run_cli("trace record -c " + kTiny + " -w " + kSmall + " -o " + d + "/s.gmstrace.bin --compression xz");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("(binary, "), std::string::npos) << r.out;
  r = run_cli("trace record -w " + kSmall + " -o " + d + "/forced --format binary");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(slurp(d + "/forced").substr(0, 8), "GMSTRACE");
  EXPECT_EQ(slurp(d + "/s.gmstrace").substr(0, 11), "gmstrace 1\n");
  // Re-recording a trace gives the same trace.
  r = run_cli("trace record -w " + d + "/s.gmstrace.bin -o " + d + "/again.gmstrace");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(slurp(d + "/again.gmstrace"), slurp(d + "/s.gmstrace"));
  auto ref = load_workload_file(kSmall);
  const auto want = dump(*ref);
  for (const char* f : {"/s.gmstrace", "/s.gmstrace.bin", "/forced"}) {
    NativeTraceWorkload t(d + f);
    EXPECT_EQ(dump(t), want) << f;
  }
}

TEST(NativeCli, RecordUsageErrorsExitWith2) {
  const std::string d = temp_dir("native_record_bad");
  CliResult r = run_cli("trace record -w " + kSmall);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: command line: trace record needs -o OUT\n");
  r = run_cli("trace record -w " + kSmall + " -o " + d + "/x --format csv");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: command line: --format: 'csv' is not one of: accelsim, binary, text\n");
  r = run_cli("trace play");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: command line: 'trace' needs a subcommand: trace record\n");
  write_file(d + "/bad.gmstrace",
             "gmstrace 1\nworkload w\nkernel grid=1 block=32 regs=0 shmem=0 name=k\ncta 0\n");
  r = run_cli("run -c " + kTiny + " -w " + d + "/bad.gmstrace -o " + d + "/out");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: " + d + "/bad.gmstrace:5: truncated file: expected 'warp 0 COUNT'\n");
}

TEST(NativeCli, RoundTripThroughTinyGivesIdenticalStatistics) {
  const std::string d = temp_dir("native_roundtrip");
  CliResult r = run_cli("run -q -c " + kTiny + " -w " + kSmall + " -o " + d + "/direct");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* ext : {".gmstrace", ".gmstrace.bin"}) {
    const std::string trace = d + "/small" + ext;
    r = run_cli("trace record -w " + kSmall + " -o " + trace);
    ASSERT_EQ(r.status, 0) << r.out;
    const std::string out = d + "/replay" + ext;
    r = run_cli("run -q -c " + kTiny + " -w " + trace + " -o " + out);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(slurp(out + "/stats.json"), slurp(d + "/direct/stats.json")) << ext;
    EXPECT_EQ(slurp(out + "/stats.csv"), slurp(d + "/direct/stats.csv")) << ext;
  }
  // The per-kernel counts are in the statistics: kernel 0 is a streaming copy, 4 loads + 4 stores per warp.
  const std::string csv = slurp(d + "/direct/stats.csv");
  EXPECT_EQ(csv_value(csv, "workload.k0.inst_executed_ld"), "128");
  EXPECT_EQ(csv_value(csv, "workload.k0.inst_executed_st"), "128");
  EXPECT_EQ(csv_value(csv, "workload.k0.line_requests_ld"), "128");
  EXPECT_EQ(csv_value(csv, "workload.k0.sectors_ld"), "512");
  EXPECT_EQ(csv_value(csv, "workload.k0.sectors_st"), "512");
  EXPECT_EQ(csv_value(csv, "workload.k1.inst_executed_ld"), "192");
  EXPECT_EQ(csv_value(csv, "workload.k1.inst_executed_st"), "64");
  EXPECT_EQ(csv_value(csv, "workload.inst_executed_ld"), "320");
  EXPECT_EQ(csv_value(csv, "workload.inst_executed_st"), "192");
  EXPECT_EQ(csv_value(csv, "system.warp_insts"), "512");
}

TEST(NativeCli, DetectsEveryWorkloadKind) {
  const std::string d = temp_dir("native_detect");
  ASSERT_EQ(run_cli("trace record -w " + kSmall + " -o " + d + "/t.gmstrace").status, 0);
  ASSERT_EQ(run_cli("trace record -w " + kSmall + " -o " + d + "/b.gmstrace.bin").status, 0);
  std::system(("mkdir -p " + d + "/accel").c_str());
  accelsim_folder(d + "/accel");
  EXPECT_EQ(detect_workload_kind(kSmall), WorkloadKind::Yaml);
  EXPECT_EQ(detect_workload_kind(d + "/t.gmstrace"), WorkloadKind::NativeText);
  EXPECT_EQ(detect_workload_kind(d + "/b.gmstrace.bin"), WorkloadKind::NativeBinary);
  EXPECT_EQ(detect_workload_kind(d + "/accel"), WorkloadKind::AccelSim);
  EXPECT_EQ(detect_workload_kind(d + "/accel/kernelslist.g"), WorkloadKind::AccelSim);
  // Recognised by content, not by name.
  std::system(
      ("cp " + d + "/b.gmstrace.bin " + d + "/renamed.yaml && cp " + kSmall + " " + d + "/wl.txt").c_str());
  EXPECT_EQ(detect_workload_kind(d + "/renamed.yaml"), WorkloadKind::NativeBinary);
  EXPECT_EQ(detect_workload_kind(d + "/wl.txt"), WorkloadKind::Yaml);
  EXPECT_EQ(load_any_workload(d + "/renamed.yaml")->name(), "small");
  EXPECT_EQ(load_any_workload(d + "/wl.txt")->name(), "small");
  EXPECT_EQ(load_any_workload(d + "/t.gmstrace")->name(), "small");
  auto accel = load_any_workload(d + "/accel");
  auto k = accel->next_kernel();
  ASSERT_TRUE(k);
  EXPECT_EQ(k->info().num_ctas, 2u);
  // Unknown content names the file.
  const std::string msg =
      ": not a workload: expected a YAML document with top key 'workload:', a native trace ('gmstrace 1' "
      "text or binary), an Accel-Sim kernelslist.g (or its folder), or a kernel port's name (gpumemsys "
      "kernels)";
  write_file(d + "/hello.txt", "hello world\n");
  write_file(d + "/junk.bin", std::string("\x01\x02\x00\x7f junk", 9));
  write_file(d + "/other.yaml", "system:\n  name: x\n");
  for (const char* f : {"/hello.txt", "/junk.bin", "/other.yaml"}) {
    try {
      detect_workload_kind(d + f);
      ADD_FAILURE() << f;
    } catch (const ConfigError& e) {
      EXPECT_EQ(std::string(e.what()), d + f + msg);
    }
  }
  EXPECT_THROW(detect_workload_kind(d + "/missing.yaml"), ConfigError);
  std::system(("mkdir -p " + d + "/empty").c_str());
  EXPECT_THROW(detect_workload_kind(d + "/empty"), ConfigError);
}

TEST(NativeCli, AccelSimFolderRunsWithDashW) {
  const std::string d = temp_dir("native_accel_run");
  std::system(("mkdir -p " + d + "/accel").c_str());
  accelsim_folder(d + "/accel");
  CliResult r = run_cli("run -q -c " + kTiny + " -w " + d + "/accel -o " + d + "/out");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string csv = slurp(d + "/out/stats.csv");
  EXPECT_EQ(csv_value(csv, "workload.k0.inst_executed_ld"), "2");
  EXPECT_EQ(csv_value(csv, "workload.k0.inst_executed_st"), "2");
  EXPECT_EQ(csv_value(csv, "workload.k0.sectors_ld"), "8");
  EXPECT_EQ(csv_value(csv, "workload.k0.sectors_st"), "8");
  EXPECT_EQ(csv_value(csv, "workload.k0.line_requests_ld"), "2");
}
