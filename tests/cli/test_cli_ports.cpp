// Kernel ports from the command line: `gpumemsys kernels` lists them (--count runs them without a
// simulator and checks their results), and `-w NAME[:sizes]` runs one on a preset with every load checked.
#include <gtest/gtest.h>

#include "tests/cli/cli_runner.h"

namespace {

TEST(CliPorts, KernelsListsAndCountsAPort) {
  const CliResult r = run_cli("kernels recorded/colcopy --count");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("recorded/colcopy\n  suite      recorded on H100\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  footprint  1.00 MiB in 2 arrays\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  warp insts 8192 (4096 loads, 4096 stores, 0 barriers, 0 compute)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  result     equals the sequential reference\n"), std::string::npos) << r.out;
}

// The count is every warp instruction the port executes, as Nsight's inst_executed: the memory instructions,
// the barriers and the compute between them (the gaps, from the kernel's PTX counts). Exact: a port is
// deterministic.
TEST(CliPorts, KernelsCountsComputeBarriersAndMemory) {
  const CliResult r = run_cli("kernels rodinia/hotspot --count");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("  warp insts 2993832 (29240 loads, 11008 stores, 59168 barriers, 2894416 compute)"),
            std::string::npos)
      << r.out;
}

TEST(CliPorts, KernelsRefusesUnknownNamesAndOptions) {
  CliResult r = run_cli("kernels rodinia/nothing");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "gpumemsys: error: command line: kernels: no kernel port named 'rodinia/nothing'\n");
  r = run_cli("kernels --bogus");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(count_lines(r.out), 1u) << r.out;
}

// Every registered port is listed (one block each) with its papers line.
TEST(CliPorts, KernelsListsEveryPort) {
  const CliResult r = run_cli("kernels");
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* name : {"recorded/vecadd", "recorded/stencil5", "recorded/colcopy", "rodinia/bfs",
                           "rodinia/nw", "rodinia/srad_v2", "rodinia/b+tree"})
    EXPECT_NE(r.out.find(std::string(name) + "\n  suite"), std::string::npos) << name;
  // Every port's default warp instructions, from the committed counts (no run).
  size_t ports = 0, counted = 0;
  for (size_t at = 0; (at = r.out.find("\n  suite", at)) != std::string::npos; ++at) ++ports;
  for (size_t at = 0;
       (at = r.out.find(" at the default input (--count recounts)\n", at)) != std::string::npos; ++at)
    ++counted;
  EXPECT_EQ(counted, ports);
  EXPECT_NE(r.out.find("rodinia/hotspot\n"), std::string::npos);
  EXPECT_NE(
      r.out.find("  warp insts 2993832 (29240 loads, 11008 stores, 59168 barriers, 2894416 compute) at the "
                 "default input"),
      std::string::npos);
}

TEST(CliPorts, APortRunsOnAPresetWithEveryLoadChecked) {
  const std::string dir = temp_dir("cli_ports");
  const CliResult r = run_cli("run -q -c " + gms_src("configs/tiny.yaml") +
                              " -w rodinia/hotspot:grid=64,sim_time=2 -o " + dir);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_GT(summary_value(r.out, "loads checked \\(golden\\)"), 0) << r.out;
  EXPECT_EQ(summary_value(r.out, "data mismatches"), 0) << r.out;
  const auto stats = read_stats_csv(dir);
  EXPECT_GT(stats.at("sm0.barriers"), 0);  // hotspot's __syncthreads reached the SM
}

// Barnes-Hut's tree-building CTAs wait on locks other CTAs hold: a grid the machine cannot hold at once
// would hang on a GPU; here it stops with one line naming the kernel and the counts.
TEST(CliPorts, ACoResidentGridLargerThanTheMachineIsRefused) {
  const std::string dir = temp_dir("cli_ports_coresident");
  const CliResult r = run_cli("run -q -c " + gms_src("configs/tiny.yaml") +
                              " -w lonestar/bh:bodies=256,timesteps=1,sms=4,block_cap=512 -o " + dir);
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("kernel 'TreeBuildingKernel' needs its 12 CTAs resident at once (they wait on each "
                       "other), but the 2 SMs hold 2 of them"),
            std::string::npos)
      << r.out;
}

// The analytical model runs the cores of a co-resident kernel step by step together (one core run alone to
// its CTA's end would spin on locks and masses the others have not produced: before, this input ran out of
// memory), and refuses a grid its cores cannot hold at once, as the simulator does.
TEST(CliPorts, TheAnalyticalModelAdvancesWaitingCtasTogether) {
  const CliResult ok = run_cli("rd -q -c " + gms_src("configs/fermi.yaml") +
                               " -w lonestar/bh:bodies=3072,timesteps=1,sms=15 -o " + temp_dir("cli_rd_bh"));
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_NE(ok.out.find("  SummarizationKernel "), std::string::npos) << ok.out;
  const CliResult big =
      run_cli("rd -q -c " + gms_src("configs/tiny.yaml") +
              " -w lonestar/bh:bodies=256,timesteps=1,sms=4,block_cap=512 -o " + temp_dir("cli_rd_bh_big"));
  EXPECT_NE(big.status, 0) << big.out;
  EXPECT_NE(big.out.find("kernel 'TreeBuildingKernel' needs its 12 CTAs resident at once (they wait on each "
                         "other), but the 2 cores hold 2 of them"),
            std::string::npos)
      << big.out;
}

}  // namespace
