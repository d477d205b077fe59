// Throughput of the reuse-distance model: line requests (and thread accesses) per second on
// 10-million-line-request workloads and on paper 003's kmeans with 10 million thread accesses, and peak
// memory. Single-threaded. Usage: bench_rd [line_requests [only]]
// (only = 1..8 runs just that line, in this process: for callgrind). Otherwise each line runs in a child
// process so that its peak resident memory is its own, not the largest so far.
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "models/analytic/rd_model.h"
#include "models/common/config.h"
#include "tb/workloads/workload_loader.h"

using namespace gms;

namespace {

// Warps that each issue `insts` loads over a footprint with a hot part: `lanes` active lanes, coalesced
// into one 128 B line (lanes = 32) or a single lane (lanes = 1).
class BenchWorkload : public Workload {
 public:
  BenchWorkload(uint64_t line_requests, uint32_t lanes, uint64_t cold)
      : total_(line_requests), lanes_(lanes), cold_(cold) {}
  std::string name() const override { return "bench"; }
  std::unique_ptr<KernelSource> next_kernel() override {
    if (done_) return nullptr;
    done_ = true;
    return std::make_unique<Kernel>(total_, lanes_, cold_);
  }

 private:
  struct Stream : WarpStream {
    uint64_t left, x, cold;
    uint32_t lanes;
    Stream(uint64_t n, uint64_t seed, uint32_t l, uint64_t c)
        : left(n), x(seed * 0x9e3779b97f4a7c15ULL + 1), cold(c), lanes(l) {}
    bool next(WarpInst& out) override {
      if (!left--) return false;
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const uint64_t r = x >> 33;
      const uint64_t line = (r & 3) ? (r >> 2) % 2048 : (r >> 2) % cold;  // 75 % hot
      out.kind = MemKind::Load;
      out.width = 4;
      out.active_mask = lanes == 32 ? 0xffffffffu : 1u;
      for (uint32_t l = 0; l < lanes; ++l) out.addr[l] = line * 128 + l * 4;
      return true;
    }
  };
  struct Kernel : KernelSource {
    KernelInfo inf;
    uint32_t next = 0, lanes;
    uint64_t per_warp, cold;
    Kernel(uint64_t total, uint32_t l, uint64_t c) : lanes(l), cold(c) {
      inf.name = "bench";
      inf.threads_per_cta = 256;
      inf.num_ctas = 960;
      per_warp = total / (uint64_t(inf.num_ctas) * 8);
    }
    const KernelInfo& info() const override { return inf; }
    std::unique_ptr<CtaWork> next_cta() override {
      if (next >= inf.num_ctas) return nullptr;
      auto c = std::make_unique<CtaWork>();
      c->cta_id = next++;
      for (uint32_t w = 0; w < 8; ++w)
        c->warps.push_back(std::make_unique<Stream>(per_warp, c->cta_id * 8 + w, lanes, cold));
      return c;
    }
  };
  uint64_t total_;
  uint32_t lanes_;
  uint64_t cold_;
  bool done_ = false;
};

int g_line = 0, g_only = 0;  // this line's number, the one line to run (0: all, each in a child)

// Paper 003's own benchmark: Rodinia kmeans invert_mapping (34 features; the lanes of a load are 136 B
// apart, so nearly every thread access is its own line request) with 1152 CTAs of 128 threads: 147,456
// threads x 68 accesses = 10,027,008 thread accesses, the unit of the paper's public tool (one trace
// record per thread access; it did ~26,000 per second on a 557,056-access kmeans trace).
std::unique_ptr<Workload> kmeans_workload() {
  const std::string yaml = R"(workload:
  name: kmeans
  seed: 1
  kernels:
    - name: invert_mapping
      pattern: kmeans
      grid: 1152
      block: 128
      nfeatures: 34
      width: 4
      base: 0x1000000
)";
  return load_workload(ConfigNode::load_string(yaml, "bench_rd kmeans"));
}

void run_line(const char* label, const RdParams& p, uint64_t n, uint32_t lanes, uint64_t cold) {
  BenchWorkload bench_workload(n, lanes, cold);
  std::unique_ptr<Workload> kmeans = lanes == 0 ? kmeans_workload() : nullptr;
  Workload& w = kmeans ? *kmeans : bench_workload;
  timespec c0{}, c1{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  RdResult r = RdModel(p).run(w);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  const double cpu = double(c1.tv_sec - c0.tv_sec) + 1e-9 * double(c1.tv_nsec - c0.tv_nsec);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf(
      "%-36s %6.2f M line req/s %7.2f M thread acc/s (per CPU s; wall %.2f s, cpu %.2f s)  miss %.1f %%"
      "  maxrss %.0f MiB\n",
      label, double(r.total.loads) / cpu / 1e6, double(r.total.thread_accesses) / cpu / 1e6, r.seconds, cpu,
      100 * r.total.miss_rate(), double(ru.ru_maxrss) / 1024.0);
  std::fflush(stdout);
}

void bench(const char* label, const RdParams& p, uint64_t n, uint32_t lanes, uint64_t cold = 1 << 20) {
  ++g_line;
  if (g_only) {
    if (g_only == g_line) run_line(label, p, n, lanes, cold);
    return;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    run_line(label, p, n, lanes, cold);
    std::_Exit(0);
  }
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
}

}  // namespace

// libsystemc (pulled in by the model libraries) wants an sc_main; this benchmark never starts SystemC.
int sc_main(int, char**) {
  return 0;
}

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 10000000ull;
  g_only = argc > 2 ? std::atoi(argv[2]) : 0;
  std::printf(
      "bench_rd: %llu line requests, 15 cores (unless said), 16 KB 4-way Fermi-hash L1, 75 %% of the\n"
      "loads on 2048 hot lines, the rest on 1M cold lines (unless said)\n",
      (unsigned long long)n);
  std::fflush(stdout);
  RdParams fermi;  // defaults: 16 KB, 4 ways, Fermi hash, 64 MSHRs, 6 per warp, lambda 100, sigma 5
  fermi.cores = 15;
  bench("full model, 1 lane/inst", fermi, n, 1);
  bench("full model, 32 lanes/inst", fermi, n, 32);
  RdParams ideal = RdParams::ideal(16384, 4, 128);
  ideal.set_index = SetIndexFn::FermiHash;
  ideal.cores = 15;
  bench("zero latency, no MSHR limit, 1 lane", ideal, n, 1);
  bench("full model, 1 lane, cold 16K lines", fermi, n, 1, 1 << 14);
  bench("full model, 32 lanes, cold 2K lines", fermi, n, 32, 1 << 11);
  bench("zero latency, 32 lanes, cold 2K lines", ideal, n, 32, 1 << 11);
  RdParams one = fermi;
  one.cores = 1;
  bench("full model, 1 lane, 1 core", one, n, 1);
  bench("kmeans (paper 003), full model", fermi, 0, 0);  // 10,027,008 thread accesses
  return 0;
}
