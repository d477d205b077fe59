#include "tb/system/gpu_system.h"

#include <chrono>
#include <cstdio>
#include <sstream>

#include "models/dram/backing_store.h"
#include "models/dram/dram_channel.h"
#include "models/l1/l1_cache.h"
#include "models/llc/llc_slice.h"
#include "models/noc/interconnect.h"
#include "models/sm/cta_dispatcher.h"
#include "models/sm/sm_core.h"
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
    : GpuSystem(cfg, std::vector<ProgramSpec>{{"", &workload, cfg.sm.count}}, opt) {}

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
  if (!opt_.vcd_path.empty()) trace_ = std::make_unique<TraceSelector>(opt_.vcd_path, opt_.traces);
  env_.stats = &root_;
  env_.trace = trace_.get();
  env_.pool = &pool_;
  env_.seed = cfg_.system.seed;
  wake_ = std::make_unique<WakeScheduler>("wake");
  env_.wake = wake_.get();
  build();
  add_system_formulas();
}

GpuSystem::~GpuSystem() = default;

void GpuSystem::build() {
  map_ = std::make_unique<AddressMap>(cfg_.memory_map);
  store_ = std::make_unique<BackingStore>();
  // A single program keeps the flat statistics layout; several get one group each (program name).
  const bool multi = programs_.size() > 1;
  std::vector<GoldenMemory*> observer_of_sm(cfg_.sm.count, nullptr);
  unsigned first = 0;
  for (size_t p = 0; p < programs_.size(); ++p) {
    if (multi) {
      std::string name = programs_[p].name.empty() ? "program" + std::to_string(p) : programs_[p].name;
      program_groups_.push_back(std::make_unique<StatGroup>(root_, name, "program " + std::to_string(p)));
    }
    if (opt_.check_data) {
      checkers_.push_back(std::make_unique<GoldenMemory>(program_stats(p)));
      for (unsigned i = first; i < first + programs_[p].num_sms; ++i)
        observer_of_sm[i] = checkers_.back().get();
    }
    first += programs_[p].num_sms;
  }

  const unsigned n_sm = cfg_.sm.count, n_slices = cfg_.llc.slices, n_ch = cfg_.dram.channels;
  for (unsigned i = 0; i < n_sm; ++i) {
    sms_.push_back(
        std::make_unique<SmCore>(("sm" + std::to_string(i)).c_str(), cfg_.sm, i, env_, observer_of_sm[i]));
    l1s_.push_back(make_l1(cfg_.l1, ("l1_" + std::to_string(i)).c_str(), i, env_));
    sms_[i]->isock.bind(l1s_[i]->tsock);
  }
  const AddressMap* map = map_.get();
  noc_ = make_interconnect(
      cfg_.noc, "xbar", [map](const tlm::tlm_generic_payload& t) { return map->slice_of(t.get_address()); },
      env_);
  for (auto& l1 : l1s_) l1->isock.bind(noc_->up);
  for (unsigned c = 0; c < n_ch; ++c)
    drams_.push_back(std::make_unique<DramChannel>(("dram" + std::to_string(c)).c_str(), cfg_.dram, c, *map_,
                                                   *store_, env_));
  for (unsigned s = 0; s < n_slices; ++s) {
    llcs_.push_back(std::make_unique<LlcSlice>(("llc" + std::to_string(s)).c_str(), cfg_.llc, s, env_));
    noc_->down.bind(llcs_[s]->tsock);
    llcs_[s]->isock.bind(drams_[s / map_->slices_per_channel()]->tsock);
  }

  first = 0;
  for (size_t p = 0; p < programs_.size(); ++p) {
    const unsigned n = programs_[p].num_sms;
    std::vector<SmCore*> sm_ptrs;
    for (unsigned i = first; i < first + n; ++i) sm_ptrs.push_back(sms_[i].get());
    fences_.push_back(std::make_unique<WorkloadFence>(*programs_[p].workload));
    auto d = std::make_unique<CtaDispatcher>(*fences_.back(), sm_ptrs, program_stats(p));
    if (opt_.check_data) d->set_observer(checkers_[p].get());
    if (cfg_.l1.flush_at_kernel_end)  // a kernel boundary of this program flushes its SMs' L1s only
      for (unsigned i = first; i < first + n; ++i) {
        L1Cache* l1 = l1s_[i].get();
        d->add_kernel_end_hook([l1] { l1->invalidate_all(); });
      }
    for (unsigned i = first; i < first + n; ++i) sms_[i]->set_dispatcher(d.get());
    dispatchers_.push_back(std::move(d));
    first += n;
  }
}

StatGroup& GpuSystem::program_stats(size_t program) {
  return program_groups_.empty() ? root_ : *program_groups_.at(program);
}

void GpuSystem::throw_input_errors() const {
  for (const auto& f : fences_)
    if (f->failed()) throw ConfigError(f->error());
}

bool GpuSystem::all_done() const {
  for (const auto& d : dispatchers_)
    if (!d->done()) return false;
  return true;
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
  s.formula("l1_reservation_fails", "L1 reservation fails, all SMs", "events",
            [&r] { return sum_prefix(r, "l1_", "reservation_fails"); });
  s.formula("llc_accesses", "LLC accesses, all slices", "accesses",
            [&r] { return sum_prefix(r, "llc", "accesses"); });
  s.formula("llc_hit_rate", "LLC hits / LLC accesses, all slices", "ratio",
            [&r] { return ratio(sum_prefix(r, "llc", "hits"), sum_prefix(r, "llc", "accesses")); });
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
  if (dispatchers_.empty() || !all_done()) return sc_core::sc_time_stamp().to_seconds() * 1e12;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  for (const auto& d : dispatchers_) t = std::max(t, d->finish_time());
  return t.to_seconds() * 1e12;
}

uint64_t GpuSystem::completed_requests() const {
  return uint64_t(sum_prefix(root_, "sm", "responses"));
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

RunResult GpuSystem::run() {
  using clk = std::chrono::steady_clock;
  RunResult res;
  const auto t0 = clk::now();
  auto last_print = t0;
  bool printed = false;
  const sc_core::sc_time slice(10, sc_core::SC_US);
  uint64_t last_done = 0;
  sc_core::sc_time last_progress = sc_core::SC_ZERO_TIME;
  try {
    for (auto& d : dispatchers_) d->start();
  } catch (const std::exception&) {
    throw_input_errors();
    throw;
  }
  throw_input_errors();
  while (!all_done()) {
    if (!sc_core::sc_pending_activity()) {
      res.error = "simulation stalled (deadlock): no pending events at " +
                  sc_core::sc_time_stamp().to_string() + " but the workload is not finished";
      break;
    }
    try {
      sc_core::sc_start(slice, sc_core::SC_EXIT_ON_STARVATION);
    } catch (const std::exception&) {
      throw_input_errors();  // the workload's own error explains what followed it (e.g. missing CTAs)
      throw;
    }
    throw_input_errors();
    const uint64_t done = completed_requests();
    if (done != last_done) {
      last_done = done;
      last_progress = sc_core::sc_time_stamp();
    } else if (sc_core::sc_time_stamp() - last_progress >
               sc_core::sc_time(double(cfg_.system.watchdog_us), sc_core::SC_US)) {
      res.error = "no request completed for " + std::to_string(cfg_.system.watchdog_us) +
                  " us of simulated time (livelock) at " + sc_core::sc_time_stamp().to_string();
      break;
    }
    if (cfg_.system.max_time_us &&
        sc_core::sc_time_stamp() >= sc_core::sc_time(double(cfg_.system.max_time_us), sc_core::SC_US)) {
      res.error = "reached system.max_time_us before the workload finished";
      break;
    }
    auto now = clk::now();
    if (opt_.progress && now - last_print > std::chrono::seconds(2)) {
      last_print = now;
      printed = true;
      std::fprintf(stderr, "\r[gpumemsys] sim %.1f us  requests done %llu  wall %.0f s   ",
                   sc_core::sc_time_stamp().to_seconds() * 1e6, (unsigned long long)done,
                   std::chrono::duration<double>(now - t0).count());
      std::fflush(stderr);
    }
  }
  if (printed) std::fprintf(stderr, "\n");
  // Drain what is still in flight after the last warp finished (e.g. write-back acknowledgements).
  if (res.error.empty() && sc_core::sc_pending_activity())
    sc_core::sc_start(sc_core::sc_time(double(cfg_.system.watchdog_us), sc_core::SC_US),
                      sc_core::SC_EXIT_ON_STARVATION);
  res.finished = all_done() && res.error.empty();
  res.sim_time_ns = finish_ps() / 1e3;
  res.wall_seconds = std::chrono::duration<double>(clk::now() - t0).count();
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
  if (trace_) trace_->close();
}

}  // namespace gms
