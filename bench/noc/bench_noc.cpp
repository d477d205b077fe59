// NoC benchmark (issue 9): one flit-level network direction under synthetic traffic, no SystemC kernel.
//   bench_noc curve --type T [--conc C] --flit-bytes B --pattern uniform|hotspot --rates r1,r2,...
//       latency vs injection rate (packets/cycle/terminal); one CSV row per rate, stops past saturation;
//       --overload adds a row at 1 packet/cycle/terminal (rate 1): the saturation throughput.
//   bench_noc speed (--sat | --load F) --packet-flits P --cycles N
//       simulator speed: flits delivered and cycles simulated per CPU second (F in flits/cycle/terminal).
// Common: --inputs/--outputs (64), --spm (hxbar slices per MC, 8), --data-bytes D (128), --seed,
//   --vcs, --vc-buf, --alloc islip|rr, --pipeline, --long-link, --input-buf, --hot-frac (0.2).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/noc/noc_driver.h"

using gms::noc_bench::Driver;
using gms::noc_bench::DriverConfig;

namespace {

using Args = std::map<std::string, std::string>;

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 2; i < argc; ++i) {
    std::string k = argv[i];
    if (k.rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument " + k);
    k = k.substr(2);
    const bool flag = i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0;
    a[k] = flag ? "1" : argv[++i];
  }
  return a;
}

double num(const Args& a, const std::string& k, double dflt) {
  auto it = a.find(k);
  return it == a.end() ? dflt : std::stod(it->second);
}
std::string str(const Args& a, const std::string& k, const std::string& dflt) {
  auto it = a.find(k);
  return it == a.end() ? dflt : it->second;
}

DriverConfig config(const Args& a) {
  DriverConfig c;
  gms::NocParams& p = c.noc;
  p.type = str(a, "type", "hxbar");
  p.concentration = uint32_t(num(a, "conc", 2));
  p.flit_bytes = uint32_t(num(a, "flit-bytes", 32));
  p.router.vcs = uint32_t(num(a, "vcs", p.router.vcs));
  p.router.vc_buffer_flits = uint32_t(num(a, "vc-buf", p.router.vc_buffer_flits));
  p.router.allocator = str(a, "alloc", p.router.allocator);
  p.router.pipeline = uint32_t(num(a, "pipeline", p.router.pipeline));
  p.hxbar.long_link_latency = uint32_t(num(a, "long-link", p.hxbar.long_link_latency));
  c.inputs = unsigned(num(a, "inputs", 64));
  c.outputs = unsigned(num(a, "outputs", 64));
  c.slices_per_mc = unsigned(num(a, "spm", 8));
  c.reply = num(a, "reply", 0) != 0;
  c.data_bytes = uint32_t(num(a, "data-bytes", 128));
  if (a.count("packet-flits")) {  // the payload that fills exactly P flits
    const uint32_t f = uint32_t(num(a, "packet-flits", 1)) * p.flit_bytes;
    c.data_bytes = f > p.ctrl_bytes ? f - p.ctrl_bytes : 0;
  }
  // The injection queue must hold a whole packet; narrow flits get the same bytes as 16 x 32 B (default).
  const uint32_t bytes_flits = 16 * 32 / p.flit_bytes;
  p.input_buffer_flits =
      uint32_t(num(a, "input-buf", std::max({16u, bytes_flits, p.packet_flits(c.data_bytes)})));
  c.pattern.hotspot = str(a, "pattern", "uniform") == "hotspot";
  c.pattern.hot_fraction = num(a, "hot-frac", 0.2);
  c.seed = uint64_t(num(a, "seed", 1));
  return c;
}

double cpu_seconds() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double p99(std::vector<uint32_t> v) {
  if (v.empty()) return 0;
  const size_t i = std::min(v.size() - 1, size_t(0.99 * double(v.size())));
  std::nth_element(v.begin(), v.begin() + long(i), v.end());
  return v[i];
}

double mean(const std::vector<uint32_t>& v) {
  double s = 0;
  for (uint32_t x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

int curve(const Args& a) {
  DriverConfig base = config(a);
  const uint64_t warm = uint64_t(num(a, "warmup", 10000)), sample = uint64_t(num(a, "sample", 20000));
  const double stop = num(a, "stop-factor", 10);
  std::vector<double> rates;
  std::stringstream ss(str(a, "rates", "0.01,0.02,0.05,0.1"));
  for (std::string r; std::getline(ss, r, ',');) rates.push_back(std::stod(r));
  const double pkt_bytes = base.noc.ctrl_bytes + base.data_bytes, n = base.inputs;
  std::printf(
      "type,conc,flit_bytes,pattern,packet_flits,rate_pkt,offered_Bpc,accepted_Bpc,accepted_flits,"
      "mean_lat,p99_lat,zero_load,measured,drained\n");
  for (double rate : rates) {
    DriverConfig c = base;
    c.packet_rate = rate;
    Driver d(c);
    d.set_window(warm, warm + sample);
    d.run_until(warm + sample);
    const bool drained = d.drain(warm + 3 * sample);
    const auto& t = d.tally();
    const double offered = double(t.measured_created) / (double(sample) * n) * pkt_bytes;
    const double acc_flits = double(t.window_flits) / (double(sample) * n);
    const double lat = mean(t.measured_latency);
    const uint64_t zl = d.zero_load_cycles(0, c.outputs - 1);
    std::printf("%s,%u,%u,%s,%u,%.5f,%.4f,%.4f,%.4f,%.2f,%.0f,%llu,%zu,%d\n", c.noc.type.c_str(),
                c.noc.type == "concentrated" ? c.noc.concentration : 1, c.noc.flit_bytes,
                c.pattern.hotspot ? "hotspot" : "uniform", d.packet_flits(), rate, offered,
                acc_flits / d.packet_flits() * pkt_bytes, acc_flits, lat, p99(t.measured_latency),
                (unsigned long long)zl, t.measured_latency.size(), drained ? 1 : 0);
    std::fflush(stdout);
    if (!drained || lat > stop * double(zl)) break;  // saturated: later rates only take longer
  }
  if (a.count("overload")) {  // accepted throughput with every source backed up (latency is unbounded)
    DriverConfig c = base;
    c.packet_rate = 1.0;
    Driver d(c);
    d.set_window(warm, warm + sample);
    d.run_until(warm + sample);
    const double acc_flits = double(d.tally().window_flits) / (double(sample) * n);
    std::printf("%s,%u,%u,%s,%u,1,%.4f,%.4f,%.4f,nan,nan,%llu,0,0\n", c.noc.type.c_str(),
                c.noc.type == "concentrated" ? c.noc.concentration : 1, c.noc.flit_bytes,
                c.pattern.hotspot ? "hotspot" : "uniform", d.packet_flits(), pkt_bytes,
                acc_flits / d.packet_flits() * pkt_bytes, acc_flits,
                (unsigned long long)d.zero_load_cycles(0, c.outputs - 1));
  }
  return 0;
}

int speed(const Args& a) {
  DriverConfig c = config(a);
  const uint32_t flits = c.noc.packet_flits(c.data_bytes);
  const bool sat = a.count("sat") != 0;
  c.packet_rate = sat ? 1.0 : num(a, "load", 0.05) / flits;  // sat: 1 packet/cycle/terminal, as BookSim's
  const uint64_t cycles = uint64_t(num(a, "cycles", 100000));
  const double cpu0 = cpu_seconds();
  const auto wall0 = std::chrono::steady_clock::now();
  Driver d(c);
  d.set_window(cycles / 2, cycles);  // second half measured: a latency check, not the speed figure
  d.run_until(cycles);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const double cpu = cpu_seconds() - cpu0;
  const auto& t = d.tally();
  std::printf(
      "mode=%s packet_flits=%u cycles=%llu stepped=%llu flits=%llu packets=%llu wall_s=%.3f cpu_s=%.3f "
      "flits_per_cpu_s=%.0f cycles_per_cpu_s=%.0f accepted=%.4f mean_lat=%.2f\n",
      sat ? "sat" : "load", flits, (unsigned long long)cycles, (unsigned long long)d.cycles_stepped(),
      (unsigned long long)t.flits, (unsigned long long)t.packets, wall, cpu, double(t.flits) / cpu,
      double(cycles) / cpu, double(t.window_flits) / (double(cycles / 2) * c.inputs),
      mean(t.measured_latency));
  return 0;
}

}  // namespace

// sc_main: libsystemc provides main(); no simulation runs, the kernel only supplies sc_time.
int sc_main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "curve") return curve(parse(argc, argv));
    if (mode == "speed") return speed(parse(argc, argv));
    std::fprintf(stderr, "usage: bench_noc curve|speed [options] (see bench/noc/bench_noc.cpp)\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_noc: %s\n", e.what());
    return 1;
  }
}
