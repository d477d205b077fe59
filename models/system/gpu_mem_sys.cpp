// GpuMemSys: building and binding the blocks, programs, and the state the owner of the run loop reads.
// Launches are in launch.cpp, the host socket in host_access.cpp.
#include "models/system/gpu_mem_sys.h"

#include <algorithm>

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
#include "models/system/launch_queue.h"
#include "models/system/memory_budget.h"

namespace gms {

GpuMemSys::GpuMemSys(sc_core::sc_module_name name, const SystemConfig& cfg, const GpuMemSysOptions& opt)
    : sc_core::sc_module(name), host("host"), cfg_(cfg) {
  {  // before anything is built: a clear error instead of std::bad_alloc
    const MemoryBudget budget = check_memory_budget(cfg_);
    data_budget_ = std::make_unique<DataBudget>(budget.data_bytes(), budget.data_text());
  }
  if (opt.stats) {
    stats_ = opt.stats;
  } else {
    own_stats_ = std::make_unique<StatGroup>(basename(), "GPU memory system");
    stats_ = own_stats_.get();
  }
  env_.stats = stats_;
  env_.trace = opt.trace;
  env_.pool = &pool_;
  env_.seed = cfg_.system.seed;
  wake_ = std::make_unique<WakeScheduler>("wake");
  env_.wake = wake_.get();
  decisions_ = std::make_unique<DecisionBoard>(env_.trace_file("decisions"));
  env_.decisions = decisions_.get();
  build(opt);
  build_controllers();
  host.register_b_transport(this, &GpuMemSys::host_b_transport);
  host.register_transport_dbg(this, &GpuMemSys::host_transport_dbg);
  host.register_get_direct_mem_ptr(this, &GpuMemSys::host_get_direct_mem_ptr);
  SC_HAS_PROCESS(GpuMemSys);
  SC_METHOD(settle);
  sensitive << settle_event_;
  dont_initialize();
}

GpuMemSys::~GpuMemSys() = default;

template <class I, class T>
void GpuMemSys::connect(I& i, T& t, const std::string& link) {
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

void GpuMemSys::build(const GpuMemSysOptions& opt) {
  map_ = std::make_unique<AddressMap>(cfg_.memory_map);
  store_ = std::make_unique<BackingStore>(data_budget_.get());
  builtin_dram_ = !opt.make_dram;
  const unsigned n_sm = cfg_.sm.count, n_slices = cfg_.llc.slices, n_ch = cfg_.dram.channels;
  SmParams smp = cfg_.sm;
  smp.line_bytes = cfg_.l1.line_bytes;  // the coalescer works at the L1's line size
  for (unsigned i = 0; i < n_sm; ++i) {
    const std::string sm_name = "sm" + std::to_string(i);
    if (opt.make_sm)
      sms_.push_back(opt.make_sm(sm_name.c_str(), smp, i, env_));
    else
      sms_.push_back(std::make_unique<SmCore>(sm_name.c_str(), smp, i, env_, nullptr));
    l1s_.push_back(make_l1(cfg_.l1, ("l1_" + std::to_string(i)).c_str(), i, env_));
    connect(sms_[i]->isock, l1s_[i]->tsock, "sm" + std::to_string(i) + "_l1");
  }
  const AddressMap* map = map_.get();
  slices_ = std::make_unique<SliceSelector>(*map, n_sm);  // shared LLC until a mode controller switches it
  const SliceSelector* sel = slices_.get();
  // The adaptive controller counts every routed request for its LSP estimate (made later, before any runs).
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
  for (unsigned c = 0; c < n_ch; ++c) {
    const std::string ch_name = "dram" + std::to_string(c);
    if (opt.make_dram)
      drams_.push_back(opt.make_dram(ch_name.c_str(), cfg_.dram, c, *map_, *store_, env_));
    else
      drams_.push_back(std::make_unique<DramChannel>(ch_name.c_str(), cfg_.dram, c, *map_, *store_, env_));
  }
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
}

void GpuMemSys::build_controllers() {
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
  hooks.finished = [this] { return workloads_done(); };
  if (cfg_.noc.type != "full")  // router networks have an energy model
    hooks.noc_energy_nj = [this] { return stats_->value("xbar.energy_nj"); };
  mode_ctl_ = std::make_unique<LlcModeController>("llc_mode", cfg_.llc.clock_mhz, *slices_, slice_ptrs,
                                                  std::move(hooks), env_);
  mode_ctl_->set_initial(cfg_.llc.mode == "private" ? LlcMode::Private : LlcMode::Shared);
  mode_ctl_->force_switches(cfg_.llc.force_switch_cycles);
  if (cfg_.llc.mode == "adaptive") {
    adaptive_ctl_ = std::make_unique<AdaptiveLlcController>(
        "llc_adaptive", cfg_.llc_adaptive, cfg_.llc.clock_mhz, *mode_ctl_, *slices_, slice_ptrs, env_,
        [this] { return workloads_done(); });
    adaptive_ctl_raw_ = adaptive_ctl_.get();
  }
}

CtaDispatcher& GpuMemSys::make_dispatcher(Workload& w, unsigned first, unsigned n, StatGroup& stats,
                                          MemObserver* observer) {
  std::vector<StreamingMultiprocessor*> sm_ptrs;
  for (unsigned i = first; i < first + n; ++i) sm_ptrs.push_back(sms_[i].get());
  if (cfg_.system.cta_order == "clusters") {  // two-level round-robin: clusters first, then their SMs
    const unsigned n_sm = unsigned(sms_.size()), k = map_->slices_per_channel();
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
  auto d = std::make_unique<CtaDispatcher>(w, sm_ptrs, stats);
  d->set_observer(observer);
  for (unsigned i = first; i < first + n; ++i) sms_[i]->set_observer(observer);
  if (cfg_.l1.flush_at_kernel_end)  // a kernel boundary of this program flushes its SMs' L1s only
    for (unsigned i = first; i < first + n; ++i) {
      L1Cache* l1 = l1s_[i].get();
      d->add_kernel_end_hook([l1] { l1->invalidate_all(); });
    }
  // Software coherence: a private LLC is flushed with the L1s at a kernel boundary (paper 004 s4.1).
  d->add_kernel_end_hook([ctl = mode_ctl_.get()] { ctl->kernel_end_flush(); });
  if (adaptive_ctl_)  // the next kernel starts as this one ends: Rule 3 and a new profiling window
    d->add_kernel_end_hook([a = adaptive_ctl_.get()] { a->on_kernel_launch(); });
  dispatchers_.push_back(std::move(d));
  return *dispatchers_.back();
}

void GpuMemSys::add_program(Workload& w, unsigned first_sm, unsigned num_sms, StatGroup& stats,
                            MemObserver* observer, const std::string& llc_mode) {
  if (launches_) throw std::logic_error(std::string(name()) + ": programs added after a launch");
  if (num_sms == 0 || first_sm + num_sms > sms_.size())
    throw ConfigError("program '" + w.name() + "': SMs " + std::to_string(first_sm) + ".." +
                      std::to_string(first_sm + num_sms) + " of " + std::to_string(sms_.size()));
  if (!llc_mode.empty() && (cfg_.llc.mode == "adaptive" || cfg_.llc.force_switch_cycles))
    throw ConfigError(
        "llc.mode: per-program llc_mode (programs file) needs llc.mode shared or private and no "
        "llc.force_switch_cycles: the organisation of each program is fixed");
  programs_.push_back({first_sm, num_sms, llc_mode});
  make_dispatcher(w, first_sm, num_sms, stats, observer);
  // Programs with their own organisation on disjoint SM ranges: applied when the simulation starts (set
  // again as each program is added, so the ranges are complete after the last one).
  bool per_program = false;
  for (const ProgramRange& p : programs_) per_program = per_program || !p.llc_mode.empty();
  if (!per_program) return;
  std::vector<LlcModeController::Range> ranges;
  for (const ProgramRange& p : programs_) {
    const std::string& m = p.llc_mode.empty() ? cfg_.llc.mode : p.llc_mode;
    ranges.push_back(
        {p.first_sm, p.first_sm + p.num_sms, m == "private" ? LlcMode::Private : LlcMode::Shared});
  }
  mode_ctl_->set_initial_ranges(std::move(ranges));
}

void GpuMemSys::start_programs() {
  revoke_dmi();
  caches_clean_ = false;
  for (auto& d : dispatchers_) d->start();
}

bool GpuMemSys::workloads_done() const {
  for (const auto& d : dispatchers_)
    if (!d->done()) return false;
  return !busy_;
}

sc_core::sc_time GpuMemSys::finish_time() const {
  if (dispatchers_.empty() || !workloads_done()) return sc_core::sc_time_stamp();
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  for (const auto& d : dispatchers_) t = std::max(t, d->finish_time());
  return t;
}

bool GpuMemSys::has_background_clocks() const {
  return wake_->background_clocks() != 0;
}

std::optional<sc_core::sc_time> GpuMemSys::next_activity() const {
  const uint64_t t = std::min(wake_->next_wake(), settle_at_);
  if (t == WakeScheduler::kNever) return std::nullopt;
  return sc_core::sc_time::from_value(std::max<uint64_t>(t, sc_core::sc_time_stamp().value()));
}

void GpuMemSys::pause_when_idle() {
  pause_when_idle_ = true;
  wake_->pause_when_idle();
}

void GpuMemSys::stop_timers() {
  if (adaptive_ctl_) adaptive_ctl_->stop_timers();
  if (mode_ctl_) mode_ctl_->stop_timers();
}

std::optional<uint64_t> GpuMemSys::waiting_since_ps() const {
  std::optional<uint64_t> since;
  for (const auto& sm : sms_) {
    const uint64_t s = sm->in_flight_since_ps();
    if (s != StreamingMultiprocessor::kNoneInFlight && (!since || s < *since)) since = s;
  }
  if (since) since = std::max(*since, last_response_ps());
  return since;
}

uint64_t GpuMemSys::last_response_ps() const {
  uint64_t ps = 0;
  for (const auto& sm : sms_) ps = std::max(ps, sm->last_response_ps());
  return ps;
}

uint64_t GpuMemSys::protocol_violations() const {
  uint64_t n = 0;
  for (const auto& c : protocol_checkers_) n += c->violations();
  return n;
}

const std::vector<std::string>& GpuMemSys::llc_timeline() const {
  return mode_ctl_->timeline();
}

}  // namespace gms
