#include "tb/system/gpu_system.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <sstream>

#include "models/common/clock.h"
#include "models/common/data_budget.h"
#include "models/common/format_bytes.h"
#include "models/dram/backing_store.h"
#include "models/system/gpu_mem_sys.h"
#include "models/system/memory_budget.h"
#include "tb/checker/golden_memory.h"
#include "tb/system/workload_fence.h"

namespace gms {

namespace {

// Sum of `stat` over the direct children of `g` whose names start with `prefix`.
double sum_prefix(const StatGroup& g, const std::string& prefix, const std::string& stat) {
  double s = 0;
  for (const StatGroup* c : g.children()) {
    if (c->name().compare(0, prefix.size(), prefix) != 0) continue;
    try {
      s += c->value(stat);
    } catch (const std::out_of_range&) {
    }
  }
  return s;
}

double ratio(double a, double b) {
  return b > 0 ? a / b : 0.0;
}

}  // namespace

GpuSystem::GpuSystem(const SystemConfig& cfg, Workload& workload, const RunOptions& opt)
    : GpuSystem(cfg, std::vector<ProgramSpec>{{"", &workload, cfg.sm.count, ""}}, opt) {}

GpuSystem::GpuSystem(const SystemConfig& cfg, const std::vector<ProgramSpec>& programs, const RunOptions& opt)
    : cfg_(cfg), opt_(opt), programs_(programs) {
  unsigned used = 0;
  for (const auto& p : programs_) {
    if (!p.workload || p.num_sms == 0)
      throw ConfigError("program '" + p.name + "': needs a workload and at least one SM");
    used += p.num_sms;
  }
  if (programs_.empty() || used > cfg_.sm.count)
    throw ConfigError("programs need " + std::to_string(used) + " SMs, the system has " +
                      std::to_string(cfg_.sm.count));
  check_memory_budget(cfg_);  // before anything is built: a clear error instead of std::bad_alloc
  if (!opt_.vcd_path.empty()) {
    trace_ = std::make_unique<TraceSelector>(opt_.vcd_path, opt_.traces);
    trace_->set_window_ps(opt_.trace_from_ps, opt_.trace_to_ps);
  }
  // A single program keeps the flat statistics layout; several get one group each (program name). The
  // program groups and checkers come first in the statistics tree, the blocks after them.
  const bool multi = programs_.size() > 1;
  for (size_t p = 0; p < programs_.size(); ++p) {
    if (multi) {
      std::string name = programs_[p].name.empty() ? "program" + std::to_string(p) : programs_[p].name;
      program_groups_.push_back(std::make_unique<StatGroup>(root_, name, "program " + std::to_string(p)));
    }
    if (opt_.check_data) checkers_.push_back(std::make_unique<GoldenMemory>(program_stats(p)));
  }
  GpuMemSysOptions mo;
  mo.stats = &root_;
  mo.trace = trace_.get();
  mem_ = std::make_unique<GpuMemSys>("gpu", cfg_, mo);
  for (auto& c : checkers_) c->set_data_budget(&mem_->data_budget());
  unsigned first = 0;
  for (size_t p = 0; p < programs_.size(); ++p) {
    fences_.push_back(std::make_unique<WorkloadFence>(*programs_[p].workload));
    mem_->add_program(*fences_.back(), first, programs_[p].num_sms, program_stats(p),
                      opt_.check_data ? checkers_[p].get() : nullptr, programs_[p].llc_mode);
    first += programs_[p].num_sms;
  }
  add_system_formulas();
}

GpuSystem::~GpuSystem() = default;

BackingStore& GpuSystem::memory() {
  return mem_->memory();
}

const std::vector<std::string>& GpuSystem::llc_timeline() const {
  return mem_->llc_timeline();
}

StatGroup& GpuSystem::program_stats(size_t program) {
  return program_groups_.empty() ? root_ : *program_groups_.at(program);
}

void GpuSystem::throw_input_errors() const {
  for (const auto& f : fences_)
    if (f->failed()) throw ConfigError(f->error());
  const DataBudget& b = mem_->data_budget();
  if (!b.exceeded()) return;
  // Where the data went, and what to change.
  uint64_t golden = 0;
  for (const auto& c : checkers_) golden += c->data_bytes();
  std::ostringstream os;
  os << std::fixed << std::setprecision(3) << b.error() << " at "
     << sc_core::sc_time_stamp().to_seconds() * 1e6 << " us: the backing store holds "
     << mem_->memory().pages() << " written 4 KiB pages (" << format_bytes(mem_->memory().data_bytes())
     << ")";
  if (!checkers_.empty())
    os << ", the golden memory " << format_bytes(golden) << "; run with --no-check to drop the latter, ";
  else
    os << "; ";
  os << "write a smaller footprint, or raise the limit (system.memory_limit_mb)";
  throw ConfigError(os.str());
}

bool GpuSystem::all_done() const {
  return mem_->workloads_done();
}

uint64_t GpuSystem::mismatches() const {
  uint64_t m = 0;
  for (const auto& c : checkers_) m += c->mismatches();
  return m;
}

void GpuSystem::add_system_formulas() {
  sys_stats_ = std::make_unique<StatGroup>(root_, "system", "whole-system totals");
  StatGroup& s = *sys_stats_;
  const StatGroup& r = root_;
  const double sm_period_ps = 1e6 / cfg_.sm.clock_mhz;
  s.formula("sim_time_ns", "simulated time until the last warp finished", "ns",
            [this] { return finish_ps() / 1e3; });
  s.formula("sm_cycles", "simulated time in SM clock cycles", "cycles",
            [this, sm_period_ps] { return std::floor(finish_ps() / sm_period_ps); });
  s.formula("warp_insts", "warp-level memory instructions issued", "instructions",
            [&r] { return sum_prefix(r, "sm", "warp_insts"); });
  s.formula("line_requests", "coalesced 128 B line requests sent to the L1s", "requests",
            [&r] { return sum_prefix(r, "sm", "line_requests"); });
  s.formula("l1_accesses", "L1 accesses (loads + stores; reservation-fail retries not counted), all SMs",
            "accesses", [&r] { return sum_prefix(r, "l1_", "loads") + sum_prefix(r, "l1_", "stores"); });
  s.formula("l1_hit_rate", "L1 (hits + hit-pending) / loads, all SMs", "ratio", [&r] {
    return ratio(sum_prefix(r, "l1_", "hits") + sum_prefix(r, "l1_", "hit_pending"),
                 sum_prefix(r, "l1_", "loads"));
  });
  s.formula("l1_load_sector_hit_rate",
            "L1 load sectors valid or being fetched / load sectors, all SMs (Nsight's "
            "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate)",
            "ratio", [&r] {
              return ratio(sum_prefix(r, "l1_", "load_sector_hits"), sum_prefix(r, "l1_", "load_sectors"));
            });
  s.formula("l1_reservation_fails", "L1 reservation fails, all SMs", "events",
            [&r] { return sum_prefix(r, "l1_", "reservation_fails"); });
  s.formula("llc_accesses", "LLC accesses, all slices", "accesses",
            [&r] { return sum_prefix(r, "llc", "accesses"); });
  s.formula("llc_hit_rate", "LLC hits / LLC accesses, all slices", "ratio",
            [&r] { return ratio(sum_prefix(r, "llc", "hits"), sum_prefix(r, "llc", "accesses")); });
  s.formula("llc_sector_hit_rate",
            "LLC sector hits / sectors, reads and writes (Nsight's lts__t_sector_hit_rate)", "ratio",
            [&r] { return ratio(sum_prefix(r, "llc", "sector_hits"), sum_prefix(r, "llc", "sectors")); });
  s.formula("llc_read_sector_hit_rate",
            "LLC read sector hits / read sectors (lts__t_sector_op_read_hit_rate)", "ratio", [&r] {
              return ratio(sum_prefix(r, "llc", "read_sector_hits"), sum_prefix(r, "llc", "read_sectors"));
            });
  const double llc_period_ps = 1e6 / cfg_.llc.clock_mhz;
  s.formula("llc_response_rate", "LLC responses per LLC cycle, all slices (paper 004 Figure 12)",
            "responses/cycle", [this, &r, llc_period_ps] {
              const double cycles = finish_ps() / llc_period_ps;
              return cycles > 0 ? sum_prefix(r, "llc", "responses") / cycles : 0.0;
            });
  s.formula("protocol_violations",
            "TLM base-protocol violations on all checked links (system.protocol_check)", "violations",
            [this] { return double(mem_->protocol_violations()); });
  s.formula("noc_request_flits", "flits through the request network", "flits",
            [&r] { return sum_prefix(r, "xbar", "req.flits"); });
  s.formula("noc_reply_flits", "flits through the reply network", "flits",
            [&r] { return sum_prefix(r, "xbar", "resp.flits"); });
  s.formula("dram_bytes", "bytes read and written by the DRAM channels", "bytes",
            [&r] { return sum_prefix(r, "dram", "bytes_read") + sum_prefix(r, "dram", "bytes_written"); });
  s.formula("dram_bandwidth_gbps", "DRAM bytes / simulated time", "GB/s", [this, &r] {
    double t = finish_ps() * 1e-12;
    return t > 0 ? (sum_prefix(r, "dram", "bytes_read") + sum_prefix(r, "dram", "bytes_written")) / t / 1e9
                 : 0.0;
  });
  if (opt_.check_data) {
    s.formula("loads_checked", "lane loads checked against the golden memory, all programs", "lane loads",
              [this] {
                double n = 0;
                for (const auto& c : checkers_) n += double(c->loads_checked());
                return n;
              });
    s.formula("data_mismatches", "lane loads whose bytes differed from the golden memory, all programs",
              "lane loads", [this] { return double(mismatches()); });
  }
  s.formula("dram_row_hit_rate", "DRAM row hits / column accesses", "ratio", [&r] {
    double h = sum_prefix(r, "dram", "row_hits");
    return ratio(h, h + sum_prefix(r, "dram", "row_misses") + sum_prefix(r, "dram", "row_conflicts"));
  });
}

double GpuSystem::finish_ps() const {
  return mem_->finish_time().to_seconds() * 1e12;
}

uint64_t GpuSystem::completed_requests() const {
  return uint64_t(sum_prefix(root_, "sm", "responses"));
}

// What the run waits for, one line: the blocks whose requests and responses differ (the first few), or,
// when every request has its response, the next pending activity (a timer).
std::string GpuSystem::outstanding_summary() const {
  std::string report;
  if (all_requests_answered(&report)) {
    const std::optional<sc_core::sc_time> next = mem_->next_activity();
    return next ? "no request is outstanding; the next pending activity is at " + next->to_string()
                : "no request is outstanding";
  }
  std::string out;
  size_t shown = 0, total = 0;
  for (size_t pos = 0; pos < report.size();) {
    size_t nl = report.find('\n', pos);
    if (nl == std::string::npos) nl = report.size();
    if (nl > pos && shown < 4) {
      out += (shown ? "; " : "") + report.substr(pos, nl - pos);
      ++shown;
    }
    if (nl > pos) ++total;
    pos = nl + 1;
  }
  if (total > shown) out += "; and " + std::to_string(total - shown) + " more blocks";
  return out;
}

bool GpuSystem::all_requests_answered(std::string* report) const {
  bool ok = true;
  std::ostringstream os;
  std::function<void(const StatGroup&)> walk = [&](const StatGroup& g) {
    try {
      double rq = g.value("requests"), rs = g.value("responses");
      if (rq != rs) {
        ok = false;
        os << g.path() << ": " << uint64_t(rq) << " requests, " << uint64_t(rs) << " responses\n";
      }
    } catch (const std::out_of_range&) {
    }
    for (const StatGroup* c : g.children()) walk(*c);
  };
  walk(root_);
  if (report) *report = os.str();
  return ok;
}

namespace {

using sc_core::sc_time;

// The kernel never runs more than this far past the next pending instant in one step: the loop gets control
// back often enough for the limits, input errors and the progress line. (A function, not a global: an sc_time
// built before sc_main would fix the kernel's time resolution.)
sc_time slice() {
  return sc_time(10, sc_core::SC_US);
}

// a + b, saturated at the kernel's largest time.
sc_time sat_add(const sc_time& a, const sc_time& b) {
  const sc_time& max = sc_core::sc_max_time();
  return b >= max - a ? max : a + b;
}

sc_time us_time(uint64_t us) {
  const sc_time& max = sc_core::sc_max_time();
  return double(us) >= max.to_seconds() * 1e6 ? max : sc_time(double(us), sc_core::SC_US);
}

}  // namespace

sc_core::sc_time GpuSystem::last_completion() const {
  return std::max(run_start_, Clock::ps(mem_->last_response_ps()));
}

double GpuSystem::total_responses() const {
  double n = 0;
  std::function<void(const StatGroup&)> walk = [&](const StatGroup& g) {
    try {
      n += g.value("responses");
    } catch (const std::out_of_range&) {
    }
    for (const StatGroup* c : g.children()) walk(*c);
  };
  walk(root_);
  return n;
}

// With background clocks (RTL co-simulation, GpuMemSys::has_background_clocks) the kernel always has an event
// pending: the clocks' next edge. The model's own activity is then what its wake scheduler has pending, and
// the kernel pauses by itself at the instant the model goes idle (GpuMemSys::pause_when_idle), where it would
// have starved without the clocks.
bool GpuSystem::model_pending() const {
  return mem_->has_background_clocks() ? mem_->next_activity().has_value() : sc_core::sc_pending_activity();
}

// One step of the kernel towards `limit` (> now, and the model has pending activity). The step runs every
// instant up to the next pending one plus a slice, but none at or past `limit`: an instant never gets skipped
// however far away it is (a fixed-length slice with nothing in it would not move time at all, SystemC's
// W571), and a limit stops the kernel exactly at its instant, before anything of that instant has run. With
// background clocks the next pending instant is the model's, not the next clock edge: the step jumps there
// (the clocks tick through on the way) and ends at the slice's end or where the model went idle.
sc_core::sc_time GpuSystem::next_pending() const {
  return mem_->has_background_clocks()
             ? *mem_->next_activity()
             : sat_add(sc_core::sc_time_stamp(), sc_core::sc_time_to_pending_activity());
}

void GpuSystem::step_towards(const sc_core::sc_time& limit) {
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time next = next_pending();
  try {
    if (next >= limit)  // nothing happens before the limit: move time to it
      sc_core::sc_start(limit - now, sc_core::SC_RUN_TO_TIME);
    else  // ends at the last instant that had activity (or at the step's end with its events not yet run)
      sc_core::sc_start(std::min(sat_add(next, slice()), limit) - now, sc_core::SC_EXIT_ON_STARVATION);
  } catch (const std::exception&) {
    throw_input_errors();  // the workload's own error explains what followed it (e.g. missing CTAs)
    throw;
  }
  throw_input_errors();
}

namespace {

// User and system CPU time of the process so far, in seconds.
void cpu_seconds(double& user, double& sys) {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  user = double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) * 1e-6;
  sys = double(ru.ru_stime.tv_sec) + double(ru.ru_stime.tv_usec) * 1e-6;
}

}  // namespace

RunResult GpuSystem::run() {
  using clk = std::chrono::steady_clock;
  RunResult res;
  double user0 = 0, sys0 = 0;
  cpu_seconds(user0, sys0);
  const auto t0 = clk::now();
  const auto setup_start = opt_.started != clk::time_point{} ? opt_.started : build_start_;
  res.elaboration_seconds = std::chrono::duration<double>(t0 - setup_start).count();
  auto last_print = t0;
  bool printed = false;
  run_start_ = sc_core::sc_time_stamp();
  if (mem_->has_background_clocks()) mem_->pause_when_idle();
  try {
    mem_->start_programs();
  } catch (const std::exception&) {
    throw_input_errors();
    throw;
  }
  throw_input_errors();
  // The limits, exact in simulated time. The run stops at the start of the limit's instant: what would have
  // happened at that instant (a request completing, the last warp finishing) is too late.
  //  - system.max_time_us: at that time after the start of the run, if the workload has not finished.
  //  - system.watchdog_us (livelock): while a request waits for its response, at watchdog_us after the
  //    later of the last completed request (a response received by an SM) and the moment the SMs went from
  //    no request in flight to one. While no SM has a request in flight the run waits for timers (a compute
  //    gap, a controller's window): no livelock; traffic of the memory system alone (a reconfiguration's
  //    write-backs) must then answer a request every watchdog_us, as in the end-of-run drain.
  const sc_time watchdog = us_time(cfg_.system.watchdog_us);
  const sc_time max_at = cfg_.system.max_time_us ? sat_add(run_start_, us_time(cfg_.system.max_time_us))
                                                 : sc_core::sc_max_time();
  double answered = -1;  // total_responses() when the SMs last had nothing in flight, and when it moved
  sc_time moved = run_start_;
  while (!all_done()) {
    const sc_time now = sc_core::sc_time_stamp();
    if (now >= max_at) {
      res.error = "reached system.max_time_us (" + std::to_string(cfg_.system.max_time_us) +
                  " us) before the workload finished, at " + now.to_string();
      break;
    }
    sc_time watchdog_at = sc_core::sc_max_time();
    const std::optional<uint64_t> waiting = mem_->waiting_since_ps();
    const sc_time from = waiting ? std::max(run_start_, Clock::ps(*waiting)) : now;
    if (waiting) {
      watchdog_at = sat_add(from, watchdog);
      answered = -1;
    } else if (!all_requests_answered(nullptr)) {  // the memory system's own traffic: it must move
      const double a = total_responses();
      if (a != answered) {
        answered = a;
        moved = now;
      }
      watchdog_at = sat_add(moved, watchdog);
    } else {
      answered = -1;
    }
    if (now >= watchdog_at) {  // the message is built here only: the loop runs once per step
      std::string since;
      const sc_time last = last_completion();
      if (!waiting)
        since = "no SM request in flight, no block answered a request since " + moved.to_string();
      else if (completed_requests() && last >= from)
        since = "the last completed at " + last.to_string();
      else
        since = "none since a request was sent at " + from.to_string() +
                (completed_requests() ? " (the last completed at " + last.to_string() + ")" : "");
      res.error = "no request completed for " + std::to_string(cfg_.system.watchdog_us) +
                  " us of simulated time (livelock, system.watchdog_us): " + since + ", stopped at " +
                  now.to_string() + "; waiting for: " + outstanding_summary();
      break;
    }
    if (!model_pending()) {
      res.error = "simulation stalled (deadlock): no pending events at " + now.to_string() +
                  " but the workload is not finished";
      break;
    }
    // With no request waiting, a request sent in this step waits from its send, at or after the next
    // pending instant: a step of at most the watchdog from there cannot pass that request's limit.
    if (watchdog_at == sc_core::sc_max_time()) watchdog_at = sat_add(next_pending(), watchdog);
    step_towards(std::min(watchdog_at, max_at));
    auto wall = clk::now();
    if (opt_.progress && wall - last_print > std::chrono::seconds(2)) {
      last_print = wall;
      printed = true;
      std::fprintf(stderr, "\r[gpumemsys] sim %.1f us  requests done %llu  wall %.0f s   ",
                   sc_core::sc_time_stamp().to_seconds() * 1e6, (unsigned long long)completed_requests(),
                   std::chrono::duration<double>(wall - t0).count());
      std::fflush(stderr);
    }
  }
  if (printed) std::fprintf(stderr, "\n");
  if (res.error.empty()) {
    mem_->stop_timers();  // what stays pending is traffic: the drain waits for it alone
    drain(res);
  }
  res.finished = all_done() && res.error.empty();
  res.sim_time_ns = finish_ps() / 1e3;
  res.wall_seconds = std::chrono::duration<double>(clk::now() - t0).count();
  cpu_seconds(res.user_seconds, res.sys_seconds);
  res.user_seconds -= user0;
  res.sys_seconds -= sys0;
  std::string report;
  if (res.finished && !all_requests_answered(&report)) {
    res.finished = false;
    res.error = "requests without exactly one response:\n" + report;
  }
  return res;
}

void GpuSystem::check_trace_selection() const {
  if (trace_) trace_->check_every_glob_matched();
}

void GpuSystem::close_trace() {
  // Not the kernel's time: an idle controller timer (an adaptive LLC's next window) may have moved it far
  // past the run's end.
  if (trace_) trace_->close(std::max(mem_->finish_time(), last_completion()));
}

// Runs what is still in flight after the last warp finished (e.g. write-back acknowledgements) until the
// model has nothing left to do (model_pending). However slow the memory, traffic that still moves is drained;
// traffic that stops moving (no block answers a request for system.watchdog_us) ends the drain with an error.
void GpuSystem::drain(RunResult& res) {
  const sc_time watchdog = us_time(cfg_.system.watchdog_us);
  double answered = total_responses();
  sc_time moved = sc_core::sc_time_stamp();  // when the drain last saw a response (at a step's end)
  while (model_pending()) {
    const sc_time now = sc_core::sc_time_stamp(), limit = sat_add(moved, watchdog);
    if (now >= limit) {
      res.error =
          "in-flight traffic did not drain after the workload finished: no block answered a request "
          "for " +
          std::to_string(cfg_.system.watchdog_us) + " us (system.watchdog_us), at " + now.to_string() +
          "; waiting for: " + outstanding_summary();
      return;
    }
    step_towards(limit);
    const double a = total_responses();
    if (a != answered) {
      answered = a;
      moved = sc_core::sc_time_stamp();
    }
  }
}

}  // namespace gms
