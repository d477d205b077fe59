// The gpumemsys command as a user runs it: reproducibility, VCD selection, the embedded default.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "tests/cli/cli_runner.h"
#include "tests/common/vcd_reader.h"

TEST(Cli, SameInputsGiveByteIdenticalStatsJson) {
  std::string d = temp_dir("repro");
  std::string base =
      "run -q -c " + gms_src("configs/tiny.yaml") + " -w " + gms_src("configs/workloads/small.yaml");
  CliResult a = run_cli(base + " -o " + d + "/a");
  CliResult b = run_cli(base + " -o " + d + "/b");
  ASSERT_EQ(a.status, 0) << a.out;
  ASSERT_EQ(b.status, 0) << b.out;
  std::string ja = read_file(d + "/a/stats.json"), jb = read_file(d + "/b/stats.json");
  ASSERT_GT(ja.size(), 1000u);
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(read_file(d + "/a/stats.csv"), read_file(d + "/b/stats.csv"));
  // A different seed changes the run (the seed reaches the blocks' random sources).
  CliResult c = run_cli(base + " -o " + d + "/c --set l1.replacement=random --set system.seed=99");
  CliResult e = run_cli(base + " -o " + d + "/e --set l1.replacement=random --set system.seed=98");
  ASSERT_EQ(c.status, 0) << c.out;
  ASSERT_EQ(e.status, 0) << e.out;
  EXPECT_NE(read_file(d + "/c/stats.json"), read_file(d + "/e/stats.json"));
}

TEST(Cli, VcdContainsOnlySelectedBlocks) {
  std::string d = temp_dir("vcd");
  CliResult r =
      run_cli("run -q -c " + gms_src("configs/tiny.yaml") + " -w " + gms_src("configs/workloads/small.yaml") +
              " -o " + d + " --vcd " + d + "/wave.vcd --trace 'l1*,dram*'");
  ASSERT_EQ(r.status, 0) << r.out;
  // Signals are named SystemC.<block>.<signal> (a block may have sub-scopes: dram0.bank3.state).
  const auto f = gms::test::VcdFile::load(d + "/wave.vcd");
  EXPECT_GE(f.size(), 5u);
  bool has_l1 = false, has_dram = false, changes = false;
  for (const auto& n : f.names()) {
    ASSERT_EQ(n.rfind("SystemC.", 0), 0u) << n;
    const std::string b = n.substr(8, n.find('.', 8) - 8);
    EXPECT_TRUE(b.rfind("l1_", 0) == 0 || b.rfind("dram", 0) == 0) << "unselected block traced: " << b;
    has_l1 |= b.rfind("l1_", 0) == 0;
    has_dram |= b.rfind("dram", 0) == 0;
    changes |= f.signal(n).changes.size() > 1;
  }
  EXPECT_TRUE(has_l1);
  EXPECT_TRUE(has_dram);
  EXPECT_TRUE(changes) << "the probes are live";
  EXPECT_GT(f.last_time(), f.first_time());
}

TEST(Cli, HelpAndEmbeddedDefaultRun) {
  CliResult h = run_cli("--help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("gpumemsys run -c CONFIG -w WORKLOAD"), std::string::npos);
  std::string d = temp_dir("default");
  CliResult x;  // run from inside the temp dir so out/ lands there
  std::string cmd = "cd '" + d + "' && " + gms_bin() + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) x.out.append(buf, n);
  int st = pclose(p);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 0) << x.out;
  EXPECT_NE(x.out.find("GPUMemSys run summary"), std::string::npos);
  EXPECT_NE(x.out.find("L1 hit rate"), std::string::npos);
  EXPECT_TRUE(std::regex_search(x.out, std::regex(R"(data mismatches\s+0\s+lane loads)"))) << x.out;
  EXPECT_FALSE(read_file(d + "/out/stats.json").empty());
}
