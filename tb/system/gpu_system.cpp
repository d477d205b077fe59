#include "tb/system/gpu_system.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <sstream>

#include "models/common/clock.h"
#include "models/common/sm_clusters.h"
#include "models/dram/backing_store.h"
#include "models/dram/dram_channel.h"
#include "models/l1/l1_cache.h"
#include "models/llc/adaptive/adaptive_controller.h"
#include "models/llc/last_level_cache.h"
#include "models/llc/llc_mode_controller.h"
#include "models/llc/slice_selector.h"
#include "models/noc/interconnect.h"
#include "models/protocol/protocol_checker.h"
#include "models/sm/cta_dispatcher.h"
#include "models/sm/sm_core.h"
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
  env_.stats = &root_;
  env_.trace = trace_.get();
  env_.pool = &pool_;
  env_.seed = cfg_.system.seed;
  wake_ = std::make_unique<WakeScheduler>("wake");
  env_.wake = wake_.get();
  decisions_ = std::make_unique<DecisionBoard>(env_.trace_file("decisions"));
  env_.decisions = decisions_.get();
  build();
  add_system_formulas();
}

GpuSystem::~GpuSystem() = default;

template <class I, class T>
void GpuSystem::connect(I& i, T& t, const std::string& link) {
  if (!cfg_.system.protocol_check) {
    i.bind(t);
    return;
  }
  ProtocolCheckerParams p;
  p.link = link;
  protocol_checkers_.push_back(std::make_unique<ProtocolChecker>(("check_" + link).c_str(), env_, p));
  i.bind(protocol_checkers_.back()->tsock);
  protocol_checkers_.back()->isock.bind(t);
}

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
  SmParams smp = cfg_.sm;
  smp.line_bytes = cfg_.l1.line_bytes;  // the coalescer works at the L1's line size
  for (unsigned i = 0; i < n_sm; ++i) {
    sms_.push_back(
        std::make_unique<SmCore>(("sm" + std::to_string(i)).c_str(), smp, i, env_, observer_of_sm[i]));
    l1s_.push_back(make_l1(cfg_.l1, ("l1_" + std::to_string(i)).c_str(), i, env_));
    connect(sms_[i]->isock, l1s_[i]->tsock, "sm" + std::to_string(i) + "_l1");
  }
  const AddressMap* map = map_.get();
  slices_ = std::make_unique<SliceSelector>(*map, n_sm);  // shared LLC until a mode controller switches it
  const SliceSelector* sel = slices_.get();
  // The adaptive controller counts every routed request for its LSP estimate (made below, before any runs).
  AdaptiveLlcController* const* adaptive = &adaptive_ctl_raw_;
  noc_ = make_interconnect(
      cfg_.noc, "xbar",
      [sel, map, adaptive](const tlm::tlm_generic_payload& t, unsigned sm) {
        if (*adaptive) (*adaptive)->on_route(map->slice_of(t.get_address()), sm);
        return sel->slice_for(t.get_address(), sm);
      },
      env_, map->slices_per_channel());
  // A debug write reaches every slice that may hold the line (a private LLC keeps a copy per cluster).
  noc_->set_debug_targets(
      [sel](uint64_t addr, unsigned, std::vector<unsigned>& out) { sel->holders(addr, out); });
  for (unsigned i = 0; i < n_sm; ++i) connect(l1s_[i]->isock, noc_->up, "l1_" + std::to_string(i) + "_noc");
  for (unsigned c = 0; c < n_ch; ++c)
    drams_.push_back(std::make_unique<DramChannel>(("dram" + std::to_string(c)).c_str(), cfg_.dram, c, *map_,
                                                   *store_, env_));
  LlcParams llc = cfg_.llc;
  if (cfg_.l1.design == "gcache") {  // G-Cache's L1s read their victim bits from the LLC replies
    llc.victim_bit_l1s = n_sm;
    llc.sms_per_victim_bit = cfg_.l1.gcache.sms_per_victim_bit;
  }
  llc.map_slices = cfg_.memory_map.num_slices;  // a non-power-of-two set index spreads the slice's own lines
  llc.map_chunk_lines = uint32_t(cfg_.memory_map.interleave_bytes / kLineBytes);
  for (unsigned s = 0; s < n_slices; ++s) {
    llcs_.push_back(make_llc(llc, ("llc" + std::to_string(s)).c_str(), s, env_));
    connect(noc_->down, llcs_[s]->tsock, "noc_llc" + std::to_string(s));
    connect(llcs_[s]->isock, drams_[s / map_->slices_per_channel()]->tsock,
            "llc" + std::to_string(s) + "_dram");
  }

  std::vector<LastLevelCache*> slice_ptrs;
  for (auto& l : llcs_) slice_ptrs.push_back(l.get());
  LlcModeController::SystemHooks hooks;
  hooks.pause_sms = [this](bool on) {
    for (auto& sm : sms_) sm->pause_issue(on);
  };
  hooks.sms_drained = [this] {
    for (const auto& sm : sms_)
      if (!sm->drained()) return false;
    return true;
  };
  hooks.mcr = [this] { return noc_->mc_router_control(); };
  hooks.finished = [this] { return all_done(); };
  if (cfg_.noc.type != "full")  // router networks have an energy model
    hooks.noc_energy_nj = [this] { return root_.value("xbar.energy_nj"); };
  mode_ctl_ = std::make_unique<LlcModeController>("llc_mode", cfg_.llc.clock_mhz, *slices_, slice_ptrs,
                                                  std::move(hooks), env_);
  mode_ctl_->set_initial(cfg_.llc.mode == "private" ? LlcMode::Private : LlcMode::Shared);
  mode_ctl_->force_switches(cfg_.llc.force_switch_cycles);
  bool per_program = false;
  for (const ProgramSpec& p : programs_) per_program = per_program || !p.llc_mode.empty();
  if (per_program) {
    if (cfg_.llc.mode == "adaptive" || cfg_.llc.force_switch_cycles)
      throw ConfigError(
          "llc.mode: per-program llc_mode (programs file) needs llc.mode shared or private and no "
          "llc.force_switch_cycles: the organisation of each program is fixed");
    std::vector<LlcModeController::Range> ranges;
    unsigned sm = 0;
    for (const ProgramSpec& p : programs_) {
      const std::string& m = p.llc_mode.empty() ? cfg_.llc.mode : p.llc_mode;
      ranges.push_back({sm, sm + p.num_sms, m == "private" ? LlcMode::Private : LlcMode::Shared});
      sm += p.num_sms;
    }
    mode_ctl_->set_initial_ranges(std::move(ranges));
  }
  if (cfg_.llc.mode == "adaptive") {
    adaptive_ctl_ = std::make_unique<AdaptiveLlcController>("llc_adaptive", cfg_.llc_adaptive,
                                                            cfg_.llc.clock_mhz, *mode_ctl_, *slices_,
                                                            slice_ptrs, env_, [this] { return all_done(); });
    adaptive_ctl_raw_ = adaptive_ctl_.get();
  }

  first = 0;
  for (size_t p = 0; p < programs_.size(); ++p) {
    const unsigned n = programs_[p].num_sms;
    std::vector<StreamingMultiprocessor*> sm_ptrs;
    for (unsigned i = first; i < first + n; ++i) sm_ptrs.push_back(sms_[i].get());
    if (cfg_.system.cta_order == "clusters") {  // two-level round-robin: clusters first, then their SMs
      const unsigned k = map_->slices_per_channel();
      std::stable_sort(sm_ptrs.begin(), sm_ptrs.end(),
                       [n_sm, k](const StreamingMultiprocessor* a, const StreamingMultiprocessor* b) {
                         auto rank = [n_sm, k](unsigned sm) {  // (position within its cluster, cluster)
                           const unsigned c = sm_cluster(sm, n_sm, k);
                           unsigned first_of_c = 0;
                           while (sm_cluster(first_of_c, n_sm, k) != c) ++first_of_c;
                           return std::make_pair(sm - first_of_c, c);
                         };
                         return rank(a->sm_id()) < rank(b->sm_id());
                       });
    }
    fences_.push_back(std::make_unique<WorkloadFence>(*programs_[p].workload));
    auto d = std::make_unique<CtaDispatcher>(*fences_.back(), sm_ptrs, program_stats(p));
    if (opt_.check_data) d->set_observer(checkers_[p].get());
    if (cfg_.l1.flush_at_kernel_end)  // a kernel boundary of this program flushes its SMs' L1s only
      for (unsigned i = first; i < first + n; ++i) {
        L1Cache* l1 = l1s_[i].get();
        d->add_kernel_end_hook([l1] { l1->invalidate_all(); });
      }
    // Software coherence: a private LLC is flushed with the L1s at a kernel boundary (paper 004 s4.1).
    d->add_kernel_end_hook([ctl = mode_ctl_.get()] { ctl->kernel_end_flush(); });
    if (adaptive_ctl_)  // the next kernel starts as this one ends: Rule 3 and a new profiling window
      d->add_kernel_end_hook([a = adaptive_ctl_.get()] { a->on_kernel_launch(); });
    for (unsigned i = first; i < first + n; ++i) sms_[i]->set_dispatcher(d.get());
    dispatchers_.push_back(std::move(d));
    first += n;
  }
}

const std::vector<std::string>& GpuSystem::llc_timeline() const {
  return mode_ctl_->timeline();
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
            [this] {
              double n = 0;
              for (const auto& c : protocol_checkers_) n += double(c->violations());
              return n;
            });
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
  uint64_t ps = 0;
  for (const auto& sm : sms_) ps = std::max(ps, sm->last_response_ps());
  return std::max(run_start_, Clock::ps(ps));
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

// One step of the kernel towards `limit` (> now, and there is pending activity). The step runs every instant
// up to the next pending one plus a slice, but none at or past `limit`: an instant never gets skipped however
// far away it is (a fixed-length slice with nothing in it would not move time at all, SystemC's W571), and a
// limit stops the kernel exactly at its instant, before anything of that instant has run.
void GpuSystem::step_towards(const sc_core::sc_time& limit) {
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time next = sat_add(now, sc_core::sc_time_to_pending_activity());
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

RunResult GpuSystem::run() {
  using clk = std::chrono::steady_clock;
  RunResult res;
  const auto t0 = clk::now();
  const auto setup_start = opt_.started != clk::time_point{} ? opt_.started : build_start_;
  res.elaboration_seconds = std::chrono::duration<double>(t0 - setup_start).count();
  auto last_print = t0;
  bool printed = false;
  run_start_ = sc_core::sc_time_stamp();
  try {
    for (auto& d : dispatchers_) d->start();
  } catch (const std::exception&) {
    throw_input_errors();
    throw;
  }
  throw_input_errors();
  // The limits, exact in simulated time. The run stops at the start of the limit's instant: what would have
  // happened at that instant (a request completing, the last warp finishing) is too late.
  //  - system.max_time_us: at that time after the start of the run, if the workload has not finished.
  //  - system.watchdog_us (livelock): at watchdog_us after the last completed request (a response received by
  //    an SM), or after the start of the run while none has completed, whatever else is still going on.
  const sc_time watchdog = us_time(cfg_.system.watchdog_us);
  const sc_time max_at = cfg_.system.max_time_us ? sat_add(run_start_, us_time(cfg_.system.max_time_us))
                                                 : sc_core::sc_max_time();
  while (!all_done()) {
    const sc_time now = sc_core::sc_time_stamp(), last = last_completion();
    const sc_time watchdog_at = sat_add(last, watchdog);
    if (now >= max_at) {
      res.error = "reached system.max_time_us (" + std::to_string(cfg_.system.max_time_us) +
                  " us) before the workload finished, at " + now.to_string();
      break;
    }
    if (now >= watchdog_at) {
      const std::string since = completed_requests() ? "the last completed at " + last.to_string()
                                                     : "none since the run started at " + last.to_string();
      res.error = "no request completed for " + std::to_string(cfg_.system.watchdog_us) +
                  " us of simulated time (livelock, system.watchdog_us): " + since + ", stopped at " +
                  now.to_string();
      break;
    }
    if (!sc_core::sc_pending_activity()) {
      res.error = "simulation stalled (deadlock): no pending events at " + now.to_string() +
                  " but the workload is not finished";
      break;
    }
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
  if (res.error.empty()) drain(res);
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

// Runs what is still in flight after the last warp finished (e.g. write-back acknowledgements) until the
// kernel has nothing left to do. However slow the memory, traffic that still moves is drained; traffic
// that stops moving (no block answers a request for system.watchdog_us) ends the drain with an error.
void GpuSystem::drain(RunResult& res) {
  const sc_time watchdog = us_time(cfg_.system.watchdog_us);
  double answered = total_responses();
  sc_time moved = sc_core::sc_time_stamp();  // when the drain last saw a response (at a step's end)
  while (sc_core::sc_pending_activity()) {
    const sc_time now = sc_core::sc_time_stamp(), limit = sat_add(moved, watchdog);
    if (now >= limit) {
      res.error =
          "in-flight traffic did not drain after the workload finished: no block answered a request "
          "for " +
          std::to_string(cfg_.system.watchdog_us) + " us (system.watchdog_us), at " + now.to_string();
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
