// The gpumemsys command as a user runs it: reproducibility, VCD selection, the embedded default.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "tests/cli/cli_runner.h"

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
  std::string vcd = read_file(d + "/wave.vcd");
  ASSERT_FALSE(vcd.empty());
  // Signals are named <block>.<signal>, which the VCD writer turns into one scope per block: collect
  // the scope of every $var.
  std::set<std::string> blocks;
  std::vector<std::string> scopes;
  std::istringstream lines(vcd);
  int vars = 0;
  for (std::string tok; lines >> tok;) {
    if (tok == "$scope") {
      std::string kind, name;
      lines >> kind >> name;
      scopes.push_back(name);
    } else if (tok == "$upscope") {
      if (!scopes.empty()) scopes.pop_back();
    } else if (tok == "$var") {
      ++vars;
      ASSERT_FALSE(scopes.empty());
      blocks.insert(scopes.back());
    } else if (tok == "$enddefinitions") {
      break;
    }
  }
  EXPECT_GE(vars, 5);
  ASSERT_FALSE(blocks.empty());
  bool has_l1 = false, has_dram = false;
  for (const auto& b : blocks) {
    EXPECT_TRUE(b.rfind("l1_", 0) == 0 || b.rfind("dram", 0) == 0) << "unselected block traced: " << b;
    has_l1 |= b.rfind("l1_", 0) == 0;
    has_dram |= b.rfind("dram", 0) == 0;
  }
  EXPECT_TRUE(has_l1);
  EXPECT_TRUE(has_dram);
  // Values change over time (the probes are live).
  EXPECT_NE(vcd.find("\n#"), std::string::npos);
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
