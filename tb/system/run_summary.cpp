#include "tb/system/run_summary.h"

#include <sys/resource.h>

#include <cstdio>
#include <string>

#include "models/system/memory_budget.h"
#include "tb/checker/golden_memory.h"

namespace gms {

namespace {
void row(std::ostream& os, const char* name, const std::string& value, const char* unit) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %-28s %18s  %s\n", name, value.c_str(), unit);
  os << buf;
}
std::string num(double v, int decimals = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}
std::string pct(double v) {
  return num(v * 100.0, 2);
}
}  // namespace

void print_summary(std::ostream& os, const StatGroup& root, const RunResult& res,
                   const GoldenMemory* checker) {
  auto v = [&](const char* p) { return root.value(p); };
  os << "GPUMemSys run summary\n";
  row(os, "simulated time", num(v("system.sim_time_ns"), 1), "ns");
  row(os, "SM cycles", num(v("system.sm_cycles")), "cycles");
  row(os, "warp memory instructions", num(v("system.warp_insts")), "instructions");
  row(os, "line requests (L1 accesses)", num(v("system.line_requests")), "requests");
  row(os, "L1 hit rate", pct(v("system.l1_hit_rate")), "%");
  row(os, "L1 load sector hit rate", pct(v("system.l1_load_sector_hit_rate")), "%");
  row(os, "L1 reservation fails", num(v("system.l1_reservation_fails")), "events");
  row(os, "LLC accesses", num(v("system.llc_accesses")), "accesses");
  row(os, "LLC hit rate", pct(v("system.llc_hit_rate")), "%");
  row(os, "LLC sector hit rate", pct(v("system.llc_sector_hit_rate")), "%");
  row(os, "LLC read sector hit rate", pct(v("system.llc_read_sector_hit_rate")), "%");
  row(os, "NoC request flits", num(v("system.noc_request_flits")), "flits");
  row(os, "NoC reply flits", num(v("system.noc_reply_flits")), "flits");
  row(os, "DRAM traffic", num(v("system.dram_bytes")), "bytes");
  row(os, "DRAM bandwidth", num(v("system.dram_bandwidth_gbps"), 2), "GB/s");
  row(os, "DRAM row-hit rate", pct(v("system.dram_row_hit_rate")), "%");
  if (checker) {
    row(os, "loads checked (golden)", num(v("system.loads_checked")), "lane loads");
    row(os, "data mismatches", num(v("system.data_mismatches")), "lane loads");
  }
  // Building a large system can take longer than simulating it: both are shown.
  row(os, "wall-clock time, set-up", num(res.elaboration_seconds, 2), "s");
  row(os, "wall-clock time, simulation", num(res.wall_seconds, 2), "s");
  row(os, "CPU time, simulation, user", num(res.user_seconds, 2), "s");
  row(os, "CPU time, simulation, system", num(res.sys_seconds, 2), "s");
  if (res.wall_seconds > 0)
    row(os, "simulation speed", num(v("system.line_requests") / res.wall_seconds), "L1 accesses/s");
}

void print_memory_summary(std::ostream& os, const SystemConfig& cfg) {
  constexpr double kMiB = 1024.0 * 1024.0;
  row(os, "memory estimate", num(double(estimate_memory(cfg).total) / kMiB, 1), "MiB");
  struct rusage ru {};
  if (getrusage(RUSAGE_SELF, &ru) == 0)  // ru_maxrss is in KiB on Linux
    row(os, "peak resident memory", num(double(ru.ru_maxrss) / 1024.0, 1), "MiB");
}

}  // namespace gms
