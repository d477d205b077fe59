// The GPU's CTA (thread block) scheduler: runs a Workload kernel by kernel over the SMs. Initial fill
// assigns CTAs round-robin over the SMs while occupancy allows (CTA0 -> SM0, CTA1 -> SM1, ...); after that
// a finished CTA's SM receives the next one (first-done first-served, paper 003 sec. 4.1). A kernel ends
// when all its CTAs finished and nothing is in flight; then the kernel-end hooks run (e.g. L1 flush) and the
// next kernel starts in the same cycle. Not a module: the SMs call it from their own method.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/block_env.h"
#include "models/common/stats.h"
#include "models/common/workload.h"

namespace gms {

class StreamingMultiprocessor;

struct KernelRecord {
  std::string name;
  uint32_t ctas = 0;
  uint64_t start_ps = 0, end_ps = 0;
  uint64_t start_cycle = 0, end_cycle = 0;  // SM clock (SM 0)
  uint64_t instructions = 0;                // warp memory instructions issued over all SMs
  uint64_t cycles() const { return end_cycle - start_cycle; }
};

class CtaDispatcher {
 public:
  // Registers itself with every SM; statistics go to a child group `kernels` of `parent` (env.stats).
  CtaDispatcher(Workload& workload, std::vector<StreamingMultiprocessor*> sms, StatGroup& parent);
  CtaDispatcher(Workload& workload, std::vector<StreamingMultiprocessor*> sms, const BlockEnv& env)
      : CtaDispatcher(workload, std::move(sms), *env.stats) {}
  CtaDispatcher(const CtaDispatcher&) = delete;
  CtaDispatcher& operator=(const CtaDispatcher&) = delete;

  void set_observer(MemObserver* o) { observer_ = o; }
  void add_kernel_end_hook(std::function<void()> hook) { hooks_.push_back(std::move(hook)); }
  void set_on_done(std::function<void()> f) { on_done_ = std::move(f); }

  // Starts the first kernel (before sc_start or at any time during simulation). Throws ConfigError for a
  // kernel without CTAs or whose CTA fits no SM; later kernels throw the same from inside the simulation.
  // Once done(), start() may be called again: the workload's next kernels run (a host launching more work
  // into a workload that had run dry); kernels keep their numbering and statistics.
  void start();
  bool done() const { return done_; }
  // When the last kernel ended (valid once done()).
  sc_core::sc_time finish_time() const { return finish_time_; }
  // An SM finished (and released) one CTA.
  void cta_finished(StreamingMultiprocessor& sm);

  const std::vector<KernelRecord>& kernels() const { return records_; }
  const std::string& current_kernel() const { return info_.name; }

 private:
  void begin_next_kernel();
  void check_kernel(const KernelInfo& k) const;
  void initial_fill();
  void dispatch_to(StreamingMultiprocessor& sm);
  void end_kernel();
  uint64_t total_instructions() const;

  Workload& workload_;
  std::vector<StreamingMultiprocessor*> sms_;
  MemObserver* observer_ = nullptr;
  std::vector<std::function<void()>> hooks_;
  std::function<void()> on_done_;

  std::unique_ptr<KernelSource> kernel_;
  KernelInfo info_;
  uint32_t dispatched_ = 0, finished_ = 0;
  uint64_t instructions_at_start_ = 0;
  bool started_ = false, done_ = false;
  sc_core::sc_time finish_time_ = sc_core::SC_ZERO_TIME;
  std::vector<KernelRecord> records_;

  StatGroup stats_;
  Counter &kernels_run_, &ctas_run_, &cycles_, &instructions_;
  std::deque<StatGroup> kernel_groups_;
};

}  // namespace gms
