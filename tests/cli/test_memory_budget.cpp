// The up-front memory budget (models/system/memory_budget.h) is honest: for every block family (SMs, L1
// designs, LLC organisations, NoC topologies, DRAM) the estimate the run summary prints follows the
// process's measured peak RSS over a grid of sizes, and a system that cannot fit is refused before it is
// built, under `ulimit -v` as under system.memory_limit_mb.
//
// Each system runs in a fresh gpumemsys process (the SystemC kernel elaborates once per process) on the
// tiny preset and a tiny workload. Compared are growths above the smallest system of the test (the fixed
// baseline: binary, libraries, SystemC, the workload): the estimate's growth must cover the measured peak
// RSS growth and stay below twice it, give or take kSlackMiB (RSS moves by 2 MiB huge pages, and the
// allocator keeps some memory it freed). Below 1x the budget would let a system through that does not fit;
// above 2x it would refuse systems that do (structures reserved for the worst case, e.g. MSHR waiter lists
// of max_merge, are counted in full but touched only as far as the workload goes).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

constexpr double kSlackMiB = 8;
// Every run is bounded: a regression of the budget fails with bad_alloc instead of eating the machine.
constexpr uint64_t kRunLimitKiB = uint64_t(3) << 20;  // 3 GiB

// gpumemsys under `ulimit -v ulimit_kib` (none when 0 or under AddressSanitizer) and a 60 s timeout.
CliResult run_limited(const std::string& args, uint64_t ulimit_kib) {
  return run_bounded(args, ulimit_kib, 60);
}

struct Point {
  std::string sets;                 // the --set options of the system
  double estimate = -1, peak = -1;  // MiB
};

class MemoryBudget : public ::testing::Test {
 protected:
  void SetUp() override { dir = temp_dir(::testing::UnitTest::GetInstance()->current_test_info()->name()); }

  std::string args(const std::string& sets) const {
    return "run -q -c " + gms_src("configs/tiny.yaml") + " -w " + gms_src("configs/workloads/small.yaml") +
           " -o " + dir + "/out " + sets;
  }

  // Runs the system and reads its estimate and peak RSS from the summary.
  Point measure(const std::string& sets) {
    Point p{sets};
    const CliResult r = run_limited(args(sets), kRunLimitKiB);
    EXPECT_EQ(r.status, 0) << sets << "\n" << r.out.substr(0, 3000);
    p.estimate = summary_value(r.out, "memory estimate");
    p.peak = summary_value(r.out, "peak resident memory");
    EXPECT_GT(p.estimate, 0) << sets << ": no memory estimate row\n" << r.out.substr(0, 3000);
    EXPECT_GT(p.peak, 0) << sets << ": no peak resident memory row\n" << r.out.substr(0, 3000);
    return p;
  }

  // Measures `base` (the smallest system) and every point of `grid`, and checks each point's estimate
  // growth against its measured growth: growth - slack <= estimate growth <= 2 x growth + slack. The
  // largest point must grow by at least `min_growth_mib`, so the grid measures the family, not noise.
  void expect_tracks(const std::string& base, const std::vector<std::string>& grid, double min_growth_mib) {
    if (kCliUnderAsan) GTEST_SKIP() << "AddressSanitizer's shadow memory and redzones are not the model's";
    const Point b = measure(base);
    double largest = 0;
    for (const std::string& sets : grid) {
      const Point p = measure(sets);
      const double grown = p.peak - b.peak, est = p.estimate - b.estimate;
      largest = std::max(largest, grown);
      std::printf("  %-100s estimate +%8.1f MiB, peak RSS +%8.1f MiB\n", sets.c_str(), est, grown);
      EXPECT_GE(est, grown - kSlackMiB) << sets << ": the estimate grows less than peak RSS";
      EXPECT_LE(est, 2 * grown + kSlackMiB) << sets << ": the estimate grows more than twice peak RSS";
    }
    EXPECT_GE(largest, min_growth_mib) << "the grid does not reach a size that measures the family";
  }

  std::string dir;
};

// SMs: count (each with its L1 and NoC ports), warp and CTA slots.
TEST_F(MemoryBudget, SmEstimateTracksPeakRss) {
  expect_tracks("",
                {"--set sm.count=128", "--set sm.count=1024",
                 "--set sm.count=512 --set sm.max_warps=1024 --set sm.max_ctas=1024"},
                50);
}

// Every L1 design at 16 SMs x 4 MiB: tag/data arrays, TSC/TSC+ chunk stores (8 B chunks: 16 chunk
// records per line), DSC tags and slots, G-Cache (and its LLC victim bits), the Decoupled L1D's tag store.
TEST_F(MemoryBudget, L1DesignEstimateTracksPeakRss) {
  const std::string big = "--set sm.count=16 --set l1.size_bytes=4194304 ";
  expect_tracks("--set sm.count=16",
                {big + "--set l1.design=baseline", big + "--set l1.design=sector",
                 big + "--set l1.design=tsc --set l1.tsc.chunk_bytes=8", big + "--set l1.design=tsc_plus",
                 big + "--set l1.design=dsc --set l1.dsc.tags_per_frame=4", big + "--set l1.design=gcache",
                 big + "--set l1.design=decoupled --set l1.decoupled.tag_ways=32",
                 big + "--set l1.design=bypass_all", big + "--set l1.design=stall_bypass"},
                60);
}

// G-Cache's victim bits live in the LLC: a bit per L1 per LLC line, 64 MiB for 1,024 SMs and a 64 MiB LLC.
TEST_F(MemoryBudget, GCacheVictimBitsEstimateTracksPeakRss) {
  const std::string sys = "--set sm.count=1024 --set llc.size_bytes=67108864 ";
  expect_tracks(sys, {sys + "--set l1.design=gcache"}, 50);
}

// LLC organisations: shared and private slices of growing size, deep MSHRs (waiters and answers are
// allocated for mshr_entries x mshr_max_merge), and the adaptive LLC with a large tag directory.
TEST_F(MemoryBudget, LlcEstimateTracksPeakRss) {
  const std::string four = "--set llc.slices=4 --set dram.channels=2 ";
  expect_tracks(
      four,
      {four + "--set llc.size_bytes=16777216", four + "--set llc.size_bytes=67108864 --set llc.mode=private",
       four + "--set llc.mshr_entries=4096 --set llc.mshr_max_merge=64",
       four + "--set llc.size_bytes=33554432 --set llc.ways=64 --set llc.mode=adaptive "
              "--set llc.adaptive.sampled_sets=4096"},
      100);
}

// NoC topologies at 64 SMs and 8 slices: the one-hop crossbar's input buffers, and the router networks'
// VC buffers (VCs x depth per input port) and allocators.
TEST_F(MemoryBudget, NocEstimateTracksPeakRss) {
  const std::string sys = "--set sm.count=64 --set llc.slices=8 --set dram.channels=2 ";
  expect_tracks(
      sys,
      {sys + "--set noc.input_buffer_flits=4096",
       sys + "--set noc.type=crossbar --set noc.router.vcs=16 --set noc.router.vc_buffer_flits=1024",
       sys + "--set noc.type=concentrated --set noc.concentration=4 --set noc.router.vcs=64 "
             "--set noc.router.vc_buffer_flits=512 --set noc.router.allocator=rr",
       sys + "--set noc.type=hxbar --set noc.router.vcs=64 --set noc.router.vc_buffer_flits=1024"},
      60);
}

// DRAM: channels x banks x queue slots.
TEST_F(MemoryBudget, DramEstimateTracksPeakRss) {
  expect_tracks(
      "",
      {"--set llc.slices=16 --set dram.channels=16 --set dram.banks=1024 --set dram.queue_size=1024",
       "--set llc.slices=64 --set dram.channels=64 --set dram.banks=1024 --set dram.queue_size=1024"},
      20);
}

// 4,096 SMs and 1,024 slices on a crossbar with 64 VCs x 4,096 flits per input port: ~20 GiB of router
// buffers, which the estimate used to leave out (such a system died of bad_alloc, exit 3, after building
// for seconds). Refused before anything is built, at once, naming the NoC keys.
TEST_F(MemoryBudget, RouterNetworkThatCannotFitIsRefusedBeforeItIsBuilt) {
  if (kCliUnderAsan) GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no ulimit -v";
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = run_limited(args("--set sm.count=4096 --set llc.slices=1024 --set dram.channels=64 "
                                       "--set noc.type=crossbar --set noc.router.vcs=64 "
                                       "--set noc.router.vc_buffer_flits=4096"),
                                  uint64_t(8) << 20);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(
      r.out.find("gpumemsys: error: the configured system needs about 21.3 GiB of memory, more than the "
                 "8.0 GiB limit (address-space limit (ulimit -v), "),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("NoC 20.2 GiB (noc.type crossbar, sm.count 4096 + llc.slices 1024 ports x "
                       "noc.router.vcs 64 x noc.router.vc_buffer_flits 4096, noc.router.allocator islip)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_LT(seconds, 1.0) << r.out;
}

// The issue's finding: 1,280 SMs x 64 VCs x 4,096 flits of router buffers were estimated at 55.6 MiB and
// ran at 5.4 GB under system.memory_limit_mb 1000. They count now: refused, exit 2.
TEST_F(MemoryBudget, RouterBuffersCountAgainstMemoryLimitMb) {
  const CliResult r =
      run_limited(args("--set sm.count=1280 --set noc.type=crossbar --set noc.router.vcs=64 "
                       "--set noc.router.vc_buffer_flits=4096 --set system.memory_limit_mb=1000"),
                  kRunLimitKiB);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("more than the 1000.0 MiB limit (system.memory_limit_mb): NoC 5."), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("noc.router.vcs 64 x noc.router.vc_buffer_flits 4096"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

// Under `ulimit -v`, what the process holds before building counts too: a system whose estimate fits in
// the address space left runs to the end within the limit (no bad_alloc), and the same system under a limit
// a little smaller is refused up front with exit 2.
TEST_F(MemoryBudget, SystemJustUnderTheAddressSpaceLimitRunsWithinIt) {
  if (kCliUnderAsan) GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no ulimit -v";
  const std::string sys =
      "--set sm.count=64 --set llc.slices=8 --set dram.channels=2 --set noc.type=crossbar "
      "--set noc.router.vcs=64 --set noc.router.vc_buffer_flits=4096";
  const Point p = measure(sys);
  ASSERT_GT(p.estimate, 100) << "the system is too small to test the limit";
  // The limit that leaves the estimate plus the process's own address space (libraries, SystemC, heap) and
  // no more: found by asking the binary, which names what it holds when it refuses.
  const CliResult probe = run_limited(args(sys), uint64_t(p.estimate * 1024) / 2);
  ASSERT_EQ(probe.status, 2) << probe.out;
  std::smatch m;
  ASSERT_TRUE(
      std::regex_search(probe.out, m, std::regex(", ([0-9.]+) MiB of it in use before the system is built")))
      << probe.out;
  const double in_use = std::stod(m[1].str());
  const uint64_t limit_kib = uint64_t((p.estimate + in_use) * 1024) + 16 * 1024;  // 16 MiB over
  const CliResult ok = run_limited(args(sys), limit_kib);
  EXPECT_EQ(ok.status, 0) << "limit " << limit_kib << " KiB\n" << ok.out.substr(0, 3000);
  EXPECT_EQ(ok.out.find("bad_alloc"), std::string::npos) << ok.out.substr(0, 3000);
  EXPECT_LE(summary_value(ok.out, "peak resident memory") * 1024, double(limit_kib))
      << ok.out.substr(0, 3000);
  const CliResult refused = run_limited(args(sys), limit_kib - 32 * 1024);  // 16 MiB short
  EXPECT_EQ(refused.status, 2) << refused.out;
  EXPECT_NE(refused.out.find("limit (address-space limit (ulimit -v), "), std::string::npos) << refused.out;
  EXPECT_EQ(std::count(refused.out.begin(), refused.out.end(), '\n'), 1) << refused.out;
}

// Stores that each write a 4 KiB page of their own: 64 CTAs x 8 warps x 16 instructions x 32 lanes =
// 262,144 pages (1 GiB of backing store, about 4.5 GiB with the golden memory's pages). No configuration key
// bounds this data: the run charges every page to what the limit leaves after the system's structures.
const char* kPageStores = R"(workload:
  name: page_stores
  kernels:
    - pattern: strided
      grid: 64
      block: 256
      insts_per_warp: 16
      width: 4
      stride: 4096
      store_fraction: 1
)";

std::string page_store_args(const std::string& dir, const std::string& grid, const std::string& extra) {
  std::string w = kPageStores;
  w.replace(w.find("grid: 64"), 8, "grid: " + grid);
  write_file(dir + "/pages.yaml", w);
  return "run -q -c " + gms_src("configs/tiny.yaml") + " -w " + dir + "/pages.yaml -o " + dir + "/out " +
         extra;
}

// The issue's remaining finding: workload data was not counted. Under system.memory_limit_mb 64 such a
// workload ran to the end at 4.5 GiB. Now it stops at the limit with one error naming what held the data,
// with and without the golden memory, and its peak RSS stays within the limit over the process's baseline.
TEST_F(MemoryBudget, WorkloadDataStopsAtMemoryLimitMb) {
  const Point base = measure("");
  for (const std::string check : {"", "--no-check "}) {
    const CliResult r =
        run_limited(page_store_args(dir, "64", check + "--set system.memory_limit_mb=64"), kRunLimitKiB);
    EXPECT_EQ(r.status, 2) << check << "\n" << r.out.substr(0, 3000);
    EXPECT_EQ(count_lines(r.out), 1u) << r.out.substr(0, 3000);
    EXPECT_NE(r.out.find("gpumemsys: error: the workload's data outgrew the memory left for it: the "),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("left (the 64.0 MiB limit (system.memory_limit_mb) less "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("written 4 KiB pages"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("golden memory") != std::string::npos, check.empty()) << r.out;
    EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;
    if (!kCliUnderAsan) {
      // The peak RSS of the failed run (it prints no summary), as its parent sees it.
      const CliResult rss = run_shell(
          "python3 -c 'import resource, subprocess, sys; subprocess.run(sys.argv[1:], "
          "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
          "print(\"peak\", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' " +
          gms_bin() + " " + page_store_args(dir, "64", check + "--set system.memory_limit_mb=64"));
      std::smatch m;
      ASSERT_TRUE(std::regex_search(rss.out, m, std::regex("peak ([0-9]+)"))) << rss.out;
      EXPECT_LE(std::stod(m[1].str()) / 1024 - base.peak, 64 + kSlackMiB) << check << rss.out;
    }
  }
  // A footprint that fits runs to the end: one CTA writes 4,096 pages (16 MiB of backing store, about 74 MiB
  // with the golden memory's write and image pages) under 128 MiB; three CTAs 48 MiB with --no-check
  // under 96.
  const CliResult fits =
      run_limited(page_store_args(dir, "1", "--set system.memory_limit_mb=128"), kRunLimitKiB);
  EXPECT_EQ(fits.status, 0) << fits.out.substr(0, 3000);
  const CliResult fits_unchecked =
      run_limited(page_store_args(dir, "3", "--no-check --set system.memory_limit_mb=96"), kRunLimitKiB);
  EXPECT_EQ(fits_unchecked.status, 0) << fits_unchecked.out.substr(0, 3000);
}

// Under `ulimit -v` with no memory_limit_mb, the same workload ended in std::bad_alloc (exit 3, "simulation
// failed: std::bad_alloc"). Now the address space left after the system is its data budget: exit 2, one line.
TEST_F(MemoryBudget, WorkloadDataStopsWithinTheAddressSpaceLimit) {
  if (kCliUnderAsan) GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no ulimit -v";
  const CliResult r = run_limited(page_store_args(dir, "64", ""), 400 * 1024);
  EXPECT_EQ(r.status, 2) << r.out.substr(0, 3000);
  EXPECT_EQ(count_lines(r.out), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(r.out.find("left (the 400.0 MiB limit (address-space limit (ulimit -v)) less "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" MiB in use before it was built and "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bad_alloc"), std::string::npos) << r.out;
}

}  // namespace
