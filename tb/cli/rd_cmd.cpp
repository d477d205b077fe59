#include "tb/cli/rd_cmd.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "models/analytic/rd_model.h"
#include "models/analytic/rd_output.h"
#include "models/analytic/rd_sweep.h"
#include "models/common/config.h"
#include "models/common/output_file.h"
#include "models/common/text_excerpt.h"
#include "models/system/system_config.h"
#include "tb/cli/cli_options.h"
#include "tb/cli/output_paths.h"
#include "tb/system/gpu_system.h"
#include "tb/traces/workload_detect.h"

#ifndef GMS_SOURCE_DIR
#define GMS_SOURCE_DIR "."
#endif

namespace gms {

namespace {

struct RdOptions {
  std::string config_path, workload_path, out_dir = "out-rd";
  std::vector<std::string> sets, rd;
  bool png = false, sweep = false, compare = false, quiet = false, help = false;
};

RdOptions parse(int argc, const char* const* argv) {
  RdOptions o;
  RepeatGuard once;
  auto need = [&](int& i, const std::string& f) -> std::string {
    if (i + 1 >= argc) throw ConfigError("command line: " + f + " needs a value");
    return argv[++i];
  };
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-c" || a == "--config")
      o.config_path = need(i, once(a, "-c"));
    else if (a == "-w" || a == "--workload")
      o.workload_path = need(i, once(a, "-w"));
    else if (a == "-o" || a == "--out")
      o.out_dir = need(i, once(a, "-o"));
    else if (a == "--set")
      o.sets.push_back(need(i, a));
    else if (a == "--rd")
      o.rd.push_back(need(i, a));
    else if (a == "--png")
      o.png = true;
    else if (a == "--sweep")
      o.sweep = true;
    else if (a == "--compare-sim")
      o.compare = true;
    else if (a == "-q" || a == "--quiet")
      o.quiet = true;
    else if (a == "-h" || a == "--help")
      o.help = true;
    else
      throw ConfigError("command line: unknown rd option " + quote_excerpt(a));
  }
  if (o.help) return o;
  if (o.config_path.empty()) throw ConfigError("command line: rd needs -c CONFIG");
  if (o.workload_path.empty()) throw ConfigError("command line: rd needs -w WORKLOAD");
  return o;
}

std::string plot_script() {
  if (const char* s = std::getenv("GMS_PLOT_RD")) return s;
  return std::string(GMS_SOURCE_DIR) + "/scripts/plot_rd.py";
}

// The first of $GMS_PYTHON, python3, /usr/bin/python3 that has matplotlib.
std::string python_with_matplotlib() {
  std::vector<std::string> cands;
  if (const char* e = std::getenv("GMS_PYTHON")) cands.push_back(e);
  cands.push_back("python3");
  cands.push_back("/usr/bin/python3");
  for (const auto& py : cands)
    if (std::system(("'" + py + "' -c 'import matplotlib' >/dev/null 2>&1").c_str()) == 0) return py;
  throw ConfigError(
      "--png/--sweep plot: needs python3 with matplotlib (apt-get install python3-matplotlib, "
      "or GMS_PYTHON=/path/to/python3)");
}

void plot(const std::string& mode, const std::string& csv, const std::string& png) {
  const std::string cmd =
      "'" + python_with_matplotlib() + "' '" + plot_script() + "' " + mode + " '" + csv + "' '" + png + "'";
  if (std::system(cmd.c_str()) != 0) throw OutputError(png + ": plot failed: " + cmd);
}

// Writes `text` to `out` and closes it (OutputError naming the file if that fails).
void finish(OutputFile& out, const std::ostringstream& text) {
  out.write(text.str());
  out.close();
}

// Wraps the workload the SystemC model runs; at each kernel boundary (the dispatcher asks for the next
// kernel after the previous one drained and its end hooks ran) it snapshots the L1 counters of all SMs,
// so consecutive differences are exact per-kernel counts.
class SnapshotWorkload : public Workload {
 public:
  struct Counts {
    uint64_t loads = 0, misses = 0, hits = 0, hit_pending = 0, partial_hits = 0;
  };
  explicit SnapshotWorkload(std::unique_ptr<Workload> w) : inner_(std::move(w)) {}
  void attach(GpuSystem* sys) { sys_ = sys; }
  std::string name() const override { return inner_->name(); }
  std::unique_ptr<KernelSource> next_kernel() override {
    snaps_.push_back(read());
    auto k = inner_->next_kernel();
    if (k) names_.push_back(k->info().name);
    return k;
  }
  Counts read() const {
    Counts c;
    if (!sys_) return c;
    for (uint32_t i = 0; i < sys_->config().sm.count; ++i) {
      const std::string g = "l1_" + std::to_string(i) + ".";
      c.loads += uint64_t(sys_->stats().value(g + "loads"));
      c.misses += uint64_t(sys_->stats().value(g + "misses"));
      c.hits += uint64_t(sys_->stats().value(g + "hits"));
      c.hit_pending += uint64_t(sys_->stats().value(g + "hit_pending"));
      c.partial_hits += uint64_t(sys_->stats().value(g + "partial_hits"));
    }
    return c;
  }
  // Per-kernel counts (snapshot i+1 minus snapshot i).
  std::vector<Counts> per_kernel() const {
    std::vector<Counts> out;
    for (size_t i = 0; i + 1 < snaps_.size() && i < names_.size(); ++i) {
      const Counts &a = snaps_[i], &b = snaps_[i + 1];
      out.push_back({b.loads - a.loads, b.misses - a.misses, b.hits - a.hits, b.hit_pending - a.hit_pending,
                     b.partial_hits - a.partial_hits});
    }
    return out;
  }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::unique_ptr<Workload> inner_;
  GpuSystem* sys_ = nullptr;
  std::vector<Counts> snaps_;
  std::vector<std::string> names_;
};

int compare_sim(const RdOptions& o, const SystemConfig& cfg, const RdResult& model, OutputFile& csv_file) {
  SnapshotWorkload w(load_any_workload(o.workload_path));
  RunOptions ro;
  ro.progress = !o.quiet;
  ro.check_data = false;
  GpuSystem sys(cfg, w, ro);
  w.attach(&sys);
  RunResult rr = sys.run();
  if (!rr.error.empty()) {
    std::cerr << "gpumemsys: simulation failed: " << rr.error << "\n";
    return 3;
  }
  const auto sim = w.per_kernel();
  std::ostringstream csv;
  csv << "kernel,name,sim_loads,sim_misses,sim_miss_rate,sim_hit_pending_rate,model_loads,model_misses,"
         "model_miss_rate,model_latency_rate,abs_diff\n";
  std::cout
      << std::fixed << std::setprecision(2) << "\nmodel vs SystemC " << cfg.l1.design
      << " L1 (miss rate, %):\n"
      << "  kernel                  sim     model   |diff|   (sim hit-pending %, model latency-miss %)\n";
  double sum = 0;
  size_t n = std::min(sim.size(), model.kernels.size());
  for (size_t i = 0; i < n; ++i) {
    const auto& s = sim[i];
    const RdCounts& m = model.kernels[i].counts;
    // Loads that sent a request downstream: a sectored L1's partial hits too (the model's misses()).
    const uint64_t sim_misses = s.misses + s.partial_hits;
    const double sr = s.loads ? 100.0 * double(sim_misses) / double(s.loads) : 0;
    const double sp = s.loads ? 100.0 * double(s.hit_pending) / double(s.loads) : 0;
    const double mr = 100 * m.miss_rate(), ml = m.loads ? 100.0 * double(m.latency) / double(m.loads) : 0;
    const double d = std::fabs(sr - mr);
    sum += d;
    csv << i << "," << w.names()[i] << "," << s.loads << "," << sim_misses << "," << sr / 100 << ","
        << sp / 100 << "," << m.loads << "," << m.misses() << "," << mr / 100 << "," << ml / 100 << ","
        << d / 100 << "\n";
    std::cout << "  " << std::left << std::setw(20) << w.names()[i].substr(0, 20) << std::right
              << std::setw(8) << sr << std::setw(9) << mr << std::setw(8) << d << "   (" << sp << ", " << ml
              << ")\n";
  }
  std::cout << "  mean absolute difference: " << (n ? sum / double(n) : 0.0) << " percentage points over "
            << n << " kernels\n";
  finish(csv_file, csv);
  std::cout << "  written " << o.out_dir << "/rd_compare.csv\n";
  return 0;
}

}  // namespace

const char* rd_usage() {
  return "usage: gpumemsys rd -c CONFIG -w WORKLOAD [-o OUTDIR] [--set KEY=VALUE]... [--rd KEY=VALUE]...\n"
         "                    [--png] [--sweep] [--compare-sim] [-q]\n"
         "  analytical reuse-distance model of the L1 (paper 003); cache from CONFIG's l1:/sm: sections\n"
         "  writes OUTDIR/rd.json and rd_histogram.csv (default OUTDIR: out-rd)\n"
         "  --png           also rd_histogram.png (python3 + matplotlib)\n"
         "  --sweep         ways, size, line size and MSHRs at 0.25x..4x: rd_sweep.csv and rd_sweep.png\n"
         "  --compare-sim   run the SystemC model too and compare the L1 miss rates per kernel "
         "(rd_compare.csv)\n";
}

int run_rd_command(int argc, const char* const* argv) {
  RdOptions o = parse(argc, argv);
  if (o.help) {
    std::cout << rd_usage() << RdParams::option_help();
    return 0;
  }
  ConfigNode doc = ConfigNode::load_file(o.config_path);
  for (const auto& s : o.sets) doc.apply_override(s);
  SystemConfig cfg = SystemConfig::from(doc);
  RdParams p = RdParams::from_config(cfg.l1, cfg.sm);
  for (const auto& kv : o.rd) p.set(kv);
  p.validate();
  auto workload = load_any_workload(o.workload_path);

  // No output may overwrite an input or another output (checked before any is opened).
  std::vector<NamedPath> outputs;
  auto output = [&](const std::string& name) {
    outputs.push_back({"-o (" + name + ")", o.out_dir + "/" + name});
  };
  for (const char* name : {"rd.json", "rd_histogram.csv"}) output(name);
  if (o.png) output("rd_histogram.png");
  if (o.sweep) {
    output("rd_sweep.csv");
    output("rd_sweep.png");
  }
  if (o.compare) output("rd_compare.csv");
  check_output_paths({{"-c", o.config_path}, {"-w", o.workload_path}}, outputs);

  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) throw ConfigError(o.out_dir + ": cannot create output directory: " + ec.message());
  // Opened before the work: a path that cannot be written is bad input, reported before the run.
  OutputFile json_file(o.out_dir + "/rd.json"), hist_file(o.out_dir + "/rd_histogram.csv");
  std::unique_ptr<OutputFile> sweep_file, compare_file;
  if (o.sweep) sweep_file = std::make_unique<OutputFile>(o.out_dir + "/rd_sweep.csv");
  if (o.compare) compare_file = std::make_unique<OutputFile>(o.out_dir + "/rd_compare.csv");

  RdResult r = RdModel(p).run(*workload);
  {
    std::ostringstream js, hs;
    write_rd_json(js, r, p);
    write_rd_histogram_csv(hs, r.total);
    finish(json_file, js);
    finish(hist_file, hs);
  }
  print_rd_summary(std::cout, r);
  std::cout << "  written " << o.out_dir << "/rd.json and rd_histogram.csv\n";
  if (o.png) {
    plot("hist", o.out_dir + "/rd_histogram.csv", o.out_dir + "/rd_histogram.png");
    std::cout << "  written " << o.out_dir << "/rd_histogram.png\n";
  }
  if (o.sweep) {
    auto pts = rd_sweep(p, [&] { return load_any_workload(o.workload_path); });
    {
      std::ostringstream cs;
      write_sweep_csv(cs, pts);
      finish(*sweep_file, cs);
    }
    plot("sweep", o.out_dir + "/rd_sweep.csv", o.out_dir + "/rd_sweep.png");
    std::cout << "  written " << o.out_dir << "/rd_sweep.csv and rd_sweep.png (" << pts.size()
              << " points)\n";
  }
  if (o.compare) return compare_sim(o, cfg, r, *compare_file);
  return 0;
}

}  // namespace gms
