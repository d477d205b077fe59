// The adaptive LLC in the running system (paper 004 sections 4.1-4.4; llc.mode: adaptive): drives the
// AdaptivePolicy with the cycle numbers of its profiling windows and epochs, feeds the ATD from the sampled
// slice's accesses and the LSP estimator from every routed request while the LLC is shared, and carries
// out the policy's decisions through the LlcModeController (drain, write back / invalidate, gate, switch).
// It sleeps between window and epoch boundaries; its only per-request work is a counter increment (LSP)
// and, on the sampled slice, one ATD lookup.
#pragma once
#include <systemc>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/block_env.h"
#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/common/wake_scheduler.h"
#include "models/llc/adaptive/adaptive_params.h"
#include "models/llc/adaptive/adaptive_policy.h"
#include "models/llc/adaptive/aux_tag_directory.h"
#include "models/llc/adaptive/lsp_estimator.h"
#include "models/llc/llc_mode_controller.h"

namespace gms {

class LastLevelCache;

class AdaptiveLlcController : public sc_core::sc_module {
 public:
  // `p` must have its bandwidths resolved; the controller observes slices[p.sampled_slice].
  AdaptiveLlcController(sc_core::sc_module_name name, const AdaptiveParams& p, double clock_mhz,
                        LlcModeController& modes, SliceSelector& selector,
                        std::vector<LastLevelCache*> slices, const BlockEnv& env,
                        std::function<bool()> finished = nullptr);

  // A request routed to `shared_slice` (the address map's slice) for SM `sm` (from the route function).
  void on_route(unsigned shared_slice, unsigned sm) {
    if (modes_.mode() == LlcMode::Shared && !modes_.busy()) lsp_.record(shared_slice, sm);
  }
  // A kernel starts (the previous one's end hook): Rule 3 and a new window.
  void on_kernel_launch();
  // The run is over: the pending window or epoch boundary is dropped, so that the end-of-run drain waits
  // for traffic only (a switch in progress is the mode controller's and goes on).
  void stop_timers();
  // The decisions so far, one line each (the mode timeline).
  const std::vector<std::string>& timeline() const { return timeline_; }

 private:
  void start_of_simulation() override;
  static void observe(void* self, uint64_t line, uint32_t set, unsigned sm);
  void run();
  void act(const AdaptiveDecision& d);
  void open_window();  // resets the ATD and LSP counters and snapshots the slices' statistics
  void begin_epoch();  // a new epoch's window: open now, or after llc.adaptive.warmup_cycles
  uint64_t next_event() const;
  void switched();
  void account_mode(uint64_t c);
  uint64_t slice_sum(const char* counter) const;
  void schedule();

  AdaptiveParams p_;
  Clock clock_;
  LlcModeController& modes_;
  SliceSelector& selector_;
  std::vector<LastLevelCache*> slices_;
  AuxTagDirectory atd_;
  LspEstimator lsp_;
  AdaptivePolicy policy_;
  Wakeup wake_;
  uint64_t scheduled_ = UINT64_MAX;
  bool counting_ = true;  // the current window's counters are open (false during its warm-up)
  uint64_t base_accesses_ = 0, base_hits_ = 0;  // slice totals when the window opened
  // Real private miss rate: slice accesses and hits while private.
  uint64_t private_since_acc_ = 0, private_since_hits_ = 0;
  std::vector<std::string> timeline_;
  std::function<bool()> finished_;  // the workload is done: no more windows or epochs
  bool stopped_ = false;            // stop_timers(): the run is over

  StatGroup stats_;
  Counter& windows_;
  Counter& rule1_;
  Counter& rule2_;
  Counter& rule3_;
  Counter& no_samples_;
  Counter& atd_accesses_;
  Counter& atd_private_hits_;
  Counter& private_accesses_;
  Counter& private_hits_;
  double last_pred_private_miss_ = 0, last_shared_miss_ = 0, last_lsp_shared_ = 0, last_lsp_private_ = 0;
};

}  // namespace gms
