// Native trace benchmark: freezes a 10,000,000-instruction synthetic workload into a binary (zlib, xz) and
// a text trace, then reads each back completely through the streaming reader in a fresh process and
// prints instructions per second and that process's peak RSS (getrusage). Target: < 200 MB while reading.
//   bench_traces [DIR]            write, read, report, delete the files (DIR default: /tmp)
//   bench_traces read FILE        (internal) read one trace and print its figures
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <systemc>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "models/common/config.h"
#include "tb/traces/native_workload.h"
#include "tb/traces/trace_writer.h"
#include "tb/workloads/workload_loader.h"

namespace {

using clk = std::chrono::steady_clock;

// 625 CTAs x 16 warps x 1000 instructions = 10,000,000 warp instructions (a quarter of them stores).
const char* kWorkload = R"(workload:
  name: bench10m
  seed: 1
  kernels:
    - {name: copy, pattern: streaming, grid: 625, block: 512, insts_per_warp: 1000, store_fraction: 0.25, gap: 2}
)";

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;  // KiB on Linux
}

int read_one(const std::string& path) {
  const auto t0 = clk::now();
  gms::NativeTraceWorkload w(path);
  uint64_t insts = 0, sum = 0;
  gms::WarpInst in;
  while (auto k = w.next_kernel())
    while (auto cta = k->next_cta())
      for (auto& warp : cta->warps)
        while (warp->next(in)) {
          ++insts;
          sum += in.addr[31];
        }
  const double s = std::chrono::duration<double>(clk::now() - t0).count();
  std::printf(
      "  read  %-22s %llu instructions in %.2f s = %.1f M instructions/s, peak RSS %.1f MB (checksum %llx)\n",
      std::filesystem::path(path).filename().c_str(), (unsigned long long)insts, s, insts / s / 1e6,
      peak_rss_mb(), (unsigned long long)(sum & 0xffff));
  return 0;
}

void write_one(const std::string& path, gms::TraceFormat f, gms::TraceCompression c) {
  auto w = gms::load_workload(gms::ConfigNode::load_string(kWorkload, "<bench>"));
  const auto t0 = clk::now();
  const gms::TraceWriteCounts n = gms::TraceWriter(path, f, c).write(*w);
  const double s = std::chrono::duration<double>(clk::now() - t0).count();
  const double mb = double(std::filesystem::file_size(path)) / 1e6;
  std::printf(
      "  write %-22s %llu instructions in %.2f s = %.1f M instructions/s, %.1f MB (%.2f B/instruction)\n",
      std::filesystem::path(path).filename().c_str(), (unsigned long long)n.instructions, s,
      n.instructions / s / 1e6, mb, mb * 1e6 / double(n.instructions));
}

// Reads in a fresh process so its peak RSS is the reader's alone.
void read_in_child(const char* self, const std::string& path) {
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    execl(self, self, "read", path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
}

}  // namespace

int sc_main(int argc, char** argv) {
  try {
    if (argc == 3 && std::string(argv[1]) == "read") return read_one(argv[2]);
    const std::string dir = argc > 1 ? argv[1] : "/tmp";
    struct Case {
      const char* name;
      gms::TraceFormat f;
      gms::TraceCompression c;
    };
    const Case cases[] = {{"bench10m.gmstrace.bin", gms::TraceFormat::Binary, gms::TraceCompression::Zlib},
                          {"bench10m_xz.gmstrace.bin", gms::TraceFormat::Binary, gms::TraceCompression::Xz},
                          {"bench10m.gmstrace", gms::TraceFormat::Text, gms::TraceCompression::None}};
    std::printf(
        "== native trace, 10,000,000 warp instructions (streaming copy, 625 CTAs x 16 warps x 1000)\n");
    for (const Case& c : cases) {
      const std::string p = dir + "/" + c.name;
      write_one(p, c.f, c.c);
      read_in_child("/proc/self/exe", p);
      std::filesystem::remove(p);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_traces: %s\n", e.what());
    return 1;
  }
}

// Our own main so the SystemC banner (the libraries link SystemC) stays off.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
