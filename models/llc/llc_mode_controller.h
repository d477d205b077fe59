// Reconfiguration of the LLC organisation (paper 004 section 4.1 "Dynamic Reconfiguration"), every step in
// simulated time: stop the SMs issuing, wait until nothing is in flight in the NoC and memory system,
// write back every dirty line (shared -> private) or invalidate the slices (private -> shared), gate or
// wake the H-Xbar's MC-routers, switch the slice choice (SliceSelector) and the slices' write policy
// (private: write-through), resume. The controller only sequences; what "drained" means for the SMs and
// how they pause is given by the system (callbacks), so the block does not depend on the SM model.
// It is woken once per LLC cycle only while a switch is in progress; otherwise it sleeps.
#pragma once
#include <systemc>

#include <functional>
#include <string>
#include <vector>

#include "models/common/block_env.h"
#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/common/wake_scheduler.h"
#include "models/llc/slice_selector.h"
#include "models/noc/mc_router_control.h"

namespace gms {

class LastLevelCache;

class LlcModeController : public sc_core::sc_module {
 public:
  enum class Phase : uint8_t { Idle = 0, Drain = 1, Flush = 2, Gate = 3 };
  struct SystemHooks {
    std::function<void(bool)> pause_sms;    // stop (true) or resume (false) issuing, every SM
    std::function<bool()> sms_drained;      // no SM has a request waiting or in flight
    std::function<McRouterControl*()> mcr;  // the H-Xbar's MC-router control, or nullptr
    std::function<bool()> finished;         // optional: the workload is done (forced switches stop)
    std::function<double()> noc_energy_nj;  // optional: the NoC's energy so far (energy per mode)
  };

  LlcModeController(sc_core::sc_module_name name, double clock_mhz, SliceSelector& selector,
                    std::vector<LastLevelCache*> slices, SystemHooks hooks, const BlockEnv& env);

  // Starts a switch of every SM to `target` (ignored while one is in progress or when already there);
  // `done` (optional) runs when the SMs resume; `why` goes into the timeline.
  void request(LlcMode target, std::function<void()> done = nullptr, const std::string& why = "");
  // Applies `m` when the simulation starts, before any traffic (no drain; MC-routers gated for private).
  void set_initial(LlcMode m) { initial_ = m; }
  // Several programs on disjoint SM ranges [first, last) with their own organisation (paper 004 section
  // 4.1): applied when the simulation starts; the MC-routers stay on unless every range is private, and
  // the slices are write-through (for the private programs' copies) when any range is private.
  struct Range {
    unsigned first, last;
    LlcMode mode;
  };
  void set_initial_ranges(std::vector<Range> ranges) { ranges_ = std::move(ranges); }
  // Toggles shared <-> private every `cycles` LLC cycles (0: never), each a full switch: for tests.
  void force_switches(uint64_t cycles) { force_every_ = cycles; }
  LlcMode mode() const { return mode_; }
  Phase phase() const { return phase_; }
  bool busy() const { return phase_ != Phase::Idle; }
  // The organisation's history, one line per event: "<LLC cycle> <event>" (the mode timeline; the CLI
  // writes it to llc_timeline.txt).
  const std::vector<std::string>& timeline() const { return timeline_; }
  // Adds a line to the timeline (a controller's decision that kept the mode).
  void note(const std::string& text) { timeline_.push_back(text); }
  // Private mode: the kernel-end flush of the private slices (software coherence, paper 004 section 4.1:
  // when the L1s are flushed the private LLC is too). Nothing is in flight at a kernel end.
  void kernel_end_flush();
  // The run is over (the test bench's end of the workload): a pending forced switch is dropped, so that the
  // end-of-run drain waits for traffic only. A switch in progress goes on (its traffic is traffic).
  void stop_timers();

 private:
  void start_of_simulation() override;
  void run();
  void enter(Phase p, uint64_t c);
  bool slices_quiescent() const;
  bool routers_reached() const;
  void finish(uint64_t c);
  void apply_mode(LlcMode m);
  void close_period();  // adds the time and NoC energy since the last mode change to the current mode's

  Clock clock_;
  SliceSelector& selector_;
  std::vector<LastLevelCache*> slices_;
  SystemHooks hooks_;
  Wakeup wake_;
  LlcMode mode_ = LlcMode::Shared, target_ = LlcMode::Shared, initial_ = LlcMode::Shared;
  uint64_t force_every_ = 0, next_force_ = UINT64_MAX;
  std::vector<Range> ranges_;
  std::vector<std::string> timeline_;
  bool any_private_ = false;  // some SM range is private (kernel-end flushes needed)
  Phase phase_ = Phase::Idle;
  uint64_t started_ = 0, phase_started_ = 0;
  std::function<void()> done_;
  double period_start_ps_ = 0, period_start_nj_ = 0;
  double mode_ps_[2] = {0, 0}, mode_nj_[2] = {0, 0};  // [shared, private]

  StatGroup stats_;
  Counter& to_private_;
  Counter& to_shared_;
  Counter& reconfig_cycles_;
  Counter& drain_cycles_;
  Counter& flush_cycles_;
  Counter& gate_cycles_;
  Counter& lines_written_back_;
  Counter& lines_invalidated_;
  Counter& kernel_flushes_;
  Probe<uint8_t> mode_probe_, phase_probe_;
};

}  // namespace gms
