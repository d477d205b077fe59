// Whole-system speed: the fermi preset on a streaming or a random workload; prints L1 accesses
// (coalesced line requests) per wall-clock second and peak memory. One run per process (SystemC
// elaborates once); bench/run_benchmarks.sh runs the matrix.
//   bench_system PATTERN INSTS_PER_WARP [CONFIG [KEY=VALUE ...]]
// KEY=VALUE overrides a configuration key like gpumemsys --set (e.g. l1.design=tsc): bench/l1_designs.sh
// compares the L1 designs with it.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "models/common/config.h"
#include "tb/system/gpu_system.h"
#include "tb/workloads/workload_loader.h"

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  std::string pattern = argc > 1 ? argv[1] : "streaming";
  int insts = argc > 2 ? std::atoi(argv[2]) : 64;
  std::string config = argc > 3 ? argv[3] : std::string(GMS_SOURCE_DIR) + "/configs/fermi.yaml";
  try {
    gms::ConfigNode root = gms::ConfigNode::load_file(config);
    std::string overrides;
    for (int i = 4; i < argc; ++i) {
      root.apply_override(argv[i]);
      overrides += std::string(" ") + argv[i];
    }
    auto cfg = gms::SystemConfig::from(root);
    std::string wl = "workload:\n  name: bench\n  seed: 1\n  kernels:\n    - name: " + pattern +
                     "\n      pattern: " + pattern +
                     "\n      grid: 480\n      block: 256\n      insts_per_warp: " + std::to_string(insts) +
                     "\n      width: 4\n      gap: 2\n      base: 0x10000000\n" +
                     (pattern == "random" ? "      footprint: 67108864\n" : "");
    auto workload = gms::load_workload(gms::ConfigNode::load_string(wl, "<bench>"));
    gms::RunOptions ro;
    ro.progress = false;
    ro.check_data = false;  // measure the model, not the checker
    gms::GpuSystem sys(cfg, *workload, ro);
    gms::RunResult r = sys.run();
    if (!r.finished) {
      std::fprintf(stderr, "bench failed: %s\n", r.error.c_str());
      return 1;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double acc = sys.stats().value("system.line_requests");
    // CPU time too: on a shared machine it is the steadier figure.
    double cpu = double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) * 1e-6;
    std::printf(
        "pattern=%s insts_per_warp=%d l1_accesses=%.0f wall_s=%.3f l1_accesses_per_s=%.0f cpu_s=%.3f "
        "l1_accesses_per_cpu_s=%.0f sim_us=%.1f l1_hit_rate=%.3f peak_rss_mb=%.1f%s\n",
        pattern.c_str(), insts, acc, r.wall_seconds, acc / r.wall_seconds, cpu, acc / cpu,
        r.sim_time_ns / 1e3, sys.stats().value("system.l1_hit_rate"), double(ru.ru_maxrss) / 1024.0,
        overrides.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench error: %s\n", e.what());
    return 2;
  }
}
