// SmCore: construction, occupancy, CTA launch and retirement, and the per-cycle method.
// The memory side (issue, send, responses) is in sm_memory.cpp.
#include "models/sm/sm_core.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/sm/cta_dispatcher.h"

namespace gms {

namespace {
uint32_t regs_of(const KernelInfo& k) {
  return k.warps_per_cta() * kWarpSize * k.regs_per_thread;
}
}  // namespace

SmCore::SmCore(sc_core::sc_module_name name, const SmParams& p, unsigned sm_id, const BlockEnv& env,
               MemObserver* observer)
    : StreamingMultiprocessor(name, sm_id, observer),
      p_(p),
      env_(env),
      clock_(p.clock_mhz),
      port_([this](Payload& t, tlm::tlm_phase& ph,
                   sc_core::sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
            [this] { on_request_accepted(); }, [this](Payload& t) { return on_response(t); }),
      issue_(p.scheduler, p.max_warps, p.schedulers),
      stats_(*env.stats, basename(), "SM load-store front end"),
      warp_insts_(stats_.counter("warp_insts", "warp memory instructions issued", "instructions")),
      load_insts_(stats_.counter("load_insts", "warp load instructions issued", "instructions")),
      store_insts_(stats_.counter("store_insts", "warp store instructions issued", "instructions")),
      atomic_insts_(stats_.counter("atomic_insts", "warp atomic instructions issued", "instructions")),
      line_requests_(
          stats_.counter("line_requests", "128 B line requests produced by the coalescer", "requests")),
      load_line_requests_(stats_.counter("load_line_requests", "line requests of loads", "requests")),
      store_line_requests_(stats_.counter("store_line_requests", "line requests of stores", "requests")),
      atomic_line_requests_(stats_.counter("atomic_line_requests", "line requests of atomics", "requests")),
      load_sectors_(stats_.counter("load_sectors", "32 B chunks requested by loads", "sectors")),
      store_sectors_(stats_.counter("store_sectors", "32 B chunks written by stores", "sectors")),
      atomic_sectors_(stats_.counter("atomic_sectors", "32 B chunks updated by atomics", "sectors")),
      requests_(stats_.counter("requests", "line requests sent to the L1", "requests")),
      responses_(stats_.counter("responses", "responses received from the L1", "responses")),
      mem_stall_cycles_(stats_.counter("mem_stall_cycles",
                                       "cycles the memory pipeline waited for END_REQ (L1 reservation fail)",
                                       "cycles")),
      limit_stall_cycles_(stats_.counter(
          "limit_stall_cycles", "cycles the memory pipeline waited for a per-warp or per-SM in-flight slot",
          "cycles")),
      active_cycles_(stats_.counter("active_cycles", "cycles with at least one resident CTA", "cycles")),
      ctas_launched_(stats_.counter("ctas_launched", "CTAs launched on this SM", "CTAs")),
      ctas_completed_(stats_.counter("ctas_completed", "CTAs completed on this SM", "CTAs")),
      max_in_flight_(stats_.counter("max_in_flight", "most line requests in flight at once", "requests")),
      wakeups_(
          stats_.counter("wakeups", "activations of the SM's method (event-driven cost)", "activations")),
      scoreboard_waits_(stats_.counter("scoreboard_waits",
                                       "instructions that waited for registers an in-flight load was writing",
                                       "instructions")),
      barriers_(stats_.counter("barriers", "warp barrier instructions issued (__syncthreads, BAR)",
                               "instructions")),
      barrier_wait_cycles_(stats_.counter(
          "barrier_wait_cycles", "cycles warps waited at barriers for the other warps of their CTA, summed",
          "warp-cycles")),
      load_latency_(stats_.histogram("load_latency", "load instruction issue to its last line response",
                                     "cycles", 16, 64)) {
  if (!env.pool) throw std::invalid_argument(std::string(name) + ": BlockEnv has no payload pool");
  stats_.formula(
      "lines_per_inst", "line requests per warp instruction (coalescing)", "requests/instruction",
      [this] { return warp_insts_.value ? double(line_requests_.value) / double(warp_insts_.value) : 0; });
  stats_.formula("avg_load_latency", "mean load_latency", "cycles", [this] { return load_latency_.mean(); });
  ctas_.resize(p.max_ctas);
  warps_.resize(p.max_warps);
  waiting_.resize(p.max_warps);
  ready_cycle_.resize(p.max_warps);
  // At most this many lines are in flight under both limits; instructions: one per line in flight plus the
  // one in the pipeline. The tables create entries when first needed, so a generous limit costs nothing.
  const size_t max_lines = size_t(
      std::min<uint64_t>(p.max_outstanding_per_sm, uint64_t(p.max_warps) * p.max_outstanding_per_warp));
  insts_.init(max_lines + 1);
  lines_.init(max_lines);
  pipe_lines_.reserve(2 * kWarpSize);
  if (auto* tf = env.trace_file(basename())) {
    in_flight_probe_.attach(tf, basename(), "in_flight");
    ctas_probe_.attach(tf, basename(), "resident_ctas");
  }
  wake_.bind(
      env.wake, [](void* o) { static_cast<SmCore*>(o)->tick(); }, this);
}

bool SmCore::fits_empty(const KernelInfo& k) const {
  return k.warps_per_cta() > 0 && k.warps_per_cta() <= p_.max_warps &&
         k.warps_per_cta() * kWarpSize <= p_.max_threads && regs_of(k) <= p_.max_regs &&
         k.shmem_per_cta <= p_.max_shmem;
}

bool SmCore::can_accept(const KernelInfo& k) const {
  // Threads and registers are allocated per whole warp.
  const uint32_t w = k.warps_per_cta();
  return fits_empty(k) && resident_ctas_ < p_.max_ctas && used_warps_ + w <= p_.max_warps &&
         used_threads_ + w * kWarpSize <= p_.max_threads && used_regs_ + regs_of(k) <= p_.max_regs &&
         used_shmem_ + k.shmem_per_cta <= p_.max_shmem;
}

void SmCore::launch(std::unique_ptr<CtaWork> cta, const KernelInfo& k) {
  if (!can_accept(k))
    throw std::logic_error(std::string(name()) + ": launch without room for a CTA of " + k.name);
  const uint32_t wpc = k.warps_per_cta();
  if (cta->warps.size() != wpc)
    throw std::runtime_error("kernel '" + k.name + "': CTA " + std::to_string(cta->cta_id) + " has " +
                             std::to_string(cta->warps.size()) + " warp streams, expected " +
                             std::to_string(wpc));
  uint32_t cs = 0;
  while (ctas_[cs].active) ++cs;
  CtaSlot& c = ctas_[cs];
  c.active = true;
  c.warps = wpc;
  c.threads = wpc * kWarpSize;
  c.regs = regs_of(k);
  c.shmem = k.shmem_per_cta;
  c.warps_left = 0;
  c.running = c.arrived = 0;
  if (resident_ctas_++ == 0) active_since_ = clock_.next_edge_cycle();
  used_warps_ += c.warps;
  used_threads_ += c.threads;
  used_regs_ += c.regs;
  used_shmem_ += c.shmem;
  ++ctas_launched_;
  const uint64_t now = clock_.next_edge_cycle();
  uint32_t ws = 0;
  for (uint32_t i = 0; i < wpc; ++i) {
    while (warps_[ws].active) ++ws;
    WarpSlot& w = warps_[ws];
    w.active = true;
    w.cta_slot = cs;
    w.uid = uint64_t(cta->cta_id) * wpc + i;
    w.cta_id = cta->cta_id;
    w.age = next_age_++;
    issue_.set_age(ws, w.age);
    w.stream = cta->warps[i].get();
    w.in_flight = w.unsent = 0;
    w.at_barrier = false;
    w.pending.clear();
    pull_next(w);
    ready_cycle_[ws] = now + (w.has_next ? w.next.gap : 0);
    if (w.has_next) {
      ++c.warps_left;
      ++c.running;
    } else {
      w.active = false;  // an empty stream finishes at once
    }
    update_eligible(ws);
  }
  c.work = std::move(cta);
  if (c.warps_left == 0) finished_ctas_.push_back(cs);
  ctas_probe_.set(resident_ctas_);
  schedule_next();
}

// Called whenever a warp's counts changed: retire it (and maybe its CTA) once it is done.
void SmCore::warp_progress(uint32_t slot) {
  WarpSlot& w = warps_[slot];
  if (!w.active || !w.finished()) return;
  w.active = false;
  w.stream = nullptr;
  CtaSlot& c = ctas_[w.cta_slot];
  if (--c.warps_left == 0) finished_ctas_.push_back(w.cta_slot);
}

void SmCore::report_finished_ctas() {
  // Slots are freed first, then the dispatcher hears of each; it may launch new CTAs into this SM.
  reporting_.swap(finished_ctas_);
  for (uint32_t cs : reporting_) {
    CtaSlot& c = ctas_[cs];
    c.active = false;
    c.work.reset();
    used_warps_ -= c.warps;
    used_threads_ -= c.threads;
    used_regs_ -= c.regs;
    used_shmem_ -= c.shmem;
    ++ctas_completed_;
    if (--resident_ctas_ == 0) active_cycles_ += clock_.next_edge_cycle() - active_since_;
  }
  ctas_probe_.set(resident_ctas_);
  if (dispatcher_)
    for (size_t i = 0; i < reporting_.size(); ++i) dispatcher_->cta_finished(*this);
  reporting_.clear();
}

void SmCore::tick() {
  in_tick_ = true;
  ++wakeups_;
  pending_wake_cycle_ = UINT64_MAX;
  const uint64_t cycle = clock_.cycle();
  if (!finished_ctas_.empty()) report_finished_ctas();
  if (pipe_next_ == pipe_lines_.size()) try_issue(cycle);
  if (pipe_next_ < pipe_lines_.size() && port_.can_send() && limits_allow_head() &&
      last_send_cycle_ != cycle) {
    if (limit_blocked_) limit_stall_cycles_ += cycle - limit_blocked_since_;
    limit_blocked_ = false;
    send_head(cycle);
  }
  in_tick_ = false;
  schedule_next();
}

void SmCore::pause_issue(bool paused) {
  if (paused == paused_) return;
  paused_ = paused;
  if (!paused) schedule_next();  // warps that became ready meanwhile issue from the next edge
}

// Notify the method for the earliest cycle that has work; nothing when all waits are on the L1.
void SmCore::schedule_next() {
  if (in_tick_) return;  // the tick schedules once at its end
  const uint64_t now = clock_.next_edge_cycle();
  uint64_t best = UINT64_MAX;
  if (!finished_ctas_.empty()) best = now;
  if (pipe_next_ < pipe_lines_.size()) {
    // The head line goes out in the next free send cycle unless the L1 holds END_REQ (on_request_accepted
    // wakes us) or an in-flight limit is reached (a response wakes us).
    const uint64_t send_at = last_send_cycle_ == UINT64_MAX ? now : std::max(now, last_send_cycle_ + 1);
    if (port_.can_send()) {
      if (limits_allow_head()) {
        best = std::min(best, send_at);
      } else if (!limit_blocked_) {
        limit_blocked_ = true;
        limit_blocked_since_ = send_at;
      }
    }
  } else if (!paused_) {
    // The earliest ready_cycle of an eligible warp: at most now if one is ready already.
    uint64_t earliest = UINT64_MAX;
    if (issue_.any_ready())
      earliest = now;
    else
      waiting_.for_each([&](uint32_t s) { earliest = std::min(earliest, ready_cycle_[s]); });
    if (earliest != UINT64_MAX) {
      earliest = std::max(earliest, now);
      if (last_issue_cycle_ != UINT64_MAX) earliest = std::max(earliest, last_issue_cycle_ + 1);
      if (last_send_cycle_ != UINT64_MAX) earliest = std::max(earliest, last_send_cycle_ + 1);
      best = std::min(best, earliest);
    }
  }
  if (best >= pending_wake_cycle_) return;
  pending_wake_cycle_ = best;
  wake_.notify_at_ps(clock_.edge_ps(best));
}

}  // namespace gms
