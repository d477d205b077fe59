// GpuMemSys: host launches. A launch runs one workload on every SM through the host dispatcher (made by
// the first launch, kept for the next ones). When its last kernel ended, settle() waits for an LLC
// reorganisation in progress to finish, invalidates every L1 (write-through: nothing to write back) and
// every LLC slice (dirty lines written back to DRAM, timed), waits until the slices are quiescent, and
// ends the launch: every byte is then in the backing store, which is what makes DMI correct between
// launches (host_access.cpp).
#include <stdexcept>

#include "models/common/clock.h"
#include "models/l1/l1_cache.h"
#include "models/llc/adaptive/adaptive_controller.h"
#include "models/llc/last_level_cache.h"
#include "models/llc/llc_mode_controller.h"
#include "models/sm/cta_dispatcher.h"
#include "models/sm/streaming_multiprocessor.h"
#include "models/system/gpu_mem_sys.h"
#include "models/system/launch_queue.h"

namespace gms {

void GpuMemSys::launch(Workload& w, std::function<void()> on_done, MemObserver* observer) {
  if (busy_) throw std::logic_error(std::string(name()) + ": launch while a launch is running");
  if (!programs_.empty())
    throw std::logic_error(std::string(name()) + ": launch into a system with programs");
  revoke_dmi();  // the caches are about to hold lines the backing store does not have yet
  if (!launches_) {
    launches_ = std::make_unique<HostLaunchQueue>();
    host_dispatcher_ = &make_dispatcher(*launches_, 0, unsigned(sms_.size()), *stats_, observer);
    host_dispatcher_->set_on_done([this] { launch_finished(); });
  } else {
    host_dispatcher_->set_observer(observer);
    for (auto& sm : sms_) sm->set_observer(observer);
  }
  caches_clean_ = false;
  caches_flushed_ = false;
  on_done_ = std::move(on_done);
  launches_->set(&w);
  busy_ = true;
  // The adaptive LLC learns of each kernel launch (a new profiling window, paper 004 Rule 3) from the
  // dispatcher at kernel ends; the first kernel of a launch is announced here, and the controller, idle
  // while nothing ran, schedules its windows again.
  if (adaptive_ctl_) adaptive_ctl_->on_kernel_launch();
  try {
    host_dispatcher_->start();  // a workload without kernels finishes here (settle() still ends it)
  } catch (...) {  // its first kernel cannot run: no launch (the dispatcher keeps that kernel, see header)
    busy_ = false;
    on_done_ = nullptr;
    throw;
  }
}

void GpuMemSys::launch_finished() {
  settle_event_.notify(sc_core::SC_ZERO_TIME);
  settle_at_ = sc_core::sc_time_stamp().value();
}

void GpuMemSys::settle() {
  const sc_core::sc_time poll = Clock(cfg_.llc.clock_mhz).period();
  if (mode_ctl_->busy()) {  // a reorganisation drains and flushes on its own: let it finish first
    next_trigger(poll);
    settle_at_ = (sc_core::sc_time_stamp() + poll).value();
    return;
  }
  if (!caches_flushed_) {
    caches_flushed_ = true;
    for (auto& l1 : l1s_) l1->invalidate_all();
    for (auto& s : llcs_) s->invalidate_all();
  }
  for (const auto& s : llcs_)
    if (!s->quiescent()) {  // write-backs still on their way to DRAM
      next_trigger(poll);
      settle_at_ = (sc_core::sc_time_stamp() + poll).value();
      return;
    }
  settle_at_ = ~uint64_t(0);
  busy_ = false;
  caches_clean_ = true;
  std::function<void()> done = std::move(on_done_);
  on_done_ = nullptr;
  idle_event_.notify(sc_core::SC_ZERO_TIME);
  if (done) done();
  if (pause_when_idle_ && !next_activity()) sc_core::sc_pause();  // as WakeScheduler does for its blocks
}

}  // namespace gms
