#include "models/sm/cta_dispatcher.h"

#include <stdexcept>

#include "models/common/clock.h"
#include "models/common/config.h"
#include "models/sm/streaming_multiprocessor.h"

namespace gms {

CtaDispatcher::CtaDispatcher(Workload& workload, std::vector<StreamingMultiprocessor*> sms, StatGroup& parent)
    : workload_(workload),
      sms_(std::move(sms)),
      stats_(parent, "kernels", "kernels run by the CTA dispatcher, one child group per kernel"),
      kernels_run_(stats_.counter("kernels", "kernels completed", "kernels")),
      ctas_run_(stats_.counter("ctas", "CTAs completed over all kernels", "CTAs")),
      cycles_(stats_.counter("cycles", "SM cycles from the first kernel's start to the last kernel's end",
                             "cycles")),
      instructions_(
          stats_.counter("instructions", "warp memory instructions over all kernels", "instructions")) {
  if (sms_.empty()) throw ConfigError("CTA dispatcher: no SMs");
  for (StreamingMultiprocessor* sm : sms_) sm->set_dispatcher(this);
}

void CtaDispatcher::start() {
  if (started_ && !done_) throw std::logic_error("CTA dispatcher started while its workload runs");
  started_ = true;
  done_ = false;
  begin_next_kernel();
}

uint64_t CtaDispatcher::total_instructions() const {
  uint64_t n = 0;
  for (const StreamingMultiprocessor* sm : sms_) n += sm->warp_insts();
  return n;
}

void CtaDispatcher::check_kernel(const KernelInfo& k) const {
  const std::string who = "workload '" + workload_.name() + "': kernel '" + k.name + "'";
  if (k.num_ctas == 0) throw ConfigError(who + " has no CTAs");
  if (k.threads_per_cta == 0) throw ConfigError(who + " has no threads per CTA");
  for (const StreamingMultiprocessor* sm : sms_)
    if (sm->fits_empty(k)) return;
  const SmParams& p = sms_[0]->params();
  throw ConfigError(who + ": one CTA (" + std::to_string(k.threads_per_cta) + " threads, " +
                    std::to_string(k.regs_per_thread) + " registers/thread, " +
                    std::to_string(k.shmem_per_cta) +
                    " B shared memory) fits no SM (limits: " + std::to_string(p.max_warps) + " warps, " +
                    std::to_string(p.max_threads) + " threads, " + std::to_string(p.max_regs) +
                    " registers, " + std::to_string(p.max_shmem) + " B shared memory)");
}

void CtaDispatcher::begin_next_kernel() {
  kernel_ = workload_.next_kernel();
  if (!kernel_) {
    done_ = true;
    finish_time_ = sc_core::sc_time_stamp();
    if (on_done_) on_done_();
    return;
  }
  info_ = kernel_->info();
  check_kernel(info_);
  dispatched_ = finished_ = 0;
  KernelRecord rec;
  rec.name = info_.name;
  rec.ctas = info_.num_ctas;
  rec.start_ps = Clock::now_ps();
  rec.start_cycle = sms_[0]->clock().next_edge_cycle();
  records_.push_back(rec);
  instructions_at_start_ = total_instructions();
  initial_fill();
  if (info_.co_resident && dispatched_ < info_.num_ctas)
    throw ConfigError("workload '" + workload_.name() + "': kernel '" + info_.name + "' needs its " +
                      std::to_string(info_.num_ctas) +
                      " CTAs resident at once (they wait on each other), but the " +
                      std::to_string(sms_.size()) + " SMs hold " + std::to_string(dispatched_) +
                      " of them: make the grid smaller (the port's size keys) or the configuration larger");
}

void CtaDispatcher::initial_fill() {
  // Round-robin passes over the SMs, one CTA per SM per pass, until no SM has room.
  bool placed = true;
  while (placed && dispatched_ < info_.num_ctas) {
    placed = false;
    for (StreamingMultiprocessor* sm : sms_) {
      if (dispatched_ == info_.num_ctas) break;
      if (!sm->can_accept(info_)) continue;
      dispatch_to(*sm);
      placed = true;
    }
  }
}

void CtaDispatcher::dispatch_to(StreamingMultiprocessor& sm) {
  std::unique_ptr<CtaWork> cta = kernel_->next_cta();
  if (!cta)
    throw ConfigError("workload '" + workload_.name() + "': kernel '" + info_.name +
                      "' ran out of CTAs after " + std::to_string(dispatched_) + " of " +
                      std::to_string(info_.num_ctas));
  ++dispatched_;
  sm.launch(std::move(cta), info_);
}

void CtaDispatcher::cta_finished(StreamingMultiprocessor& sm) {
  if (done_ || !kernel_) throw std::logic_error("CTA finished with no kernel running");
  ++finished_;
  ++ctas_run_;
  while (dispatched_ < info_.num_ctas && sm.can_accept(info_)) dispatch_to(sm);
  if (finished_ == info_.num_ctas) end_kernel();
}

void CtaDispatcher::end_kernel() {
  // Every CTA retires only after its last response, so nothing can be in flight here.
  for (const StreamingMultiprocessor* sm : sms_)
    if (!sm->idle())
      throw std::logic_error("kernel '" + info_.name + "' ended while " + sm->name() + " is busy");
  KernelRecord& rec = records_.back();
  rec.end_ps = Clock::now_ps();
  rec.end_cycle = sms_[0]->clock().next_edge_cycle();
  rec.instructions = total_instructions() - instructions_at_start_;
  for (auto& hook : hooks_) hook();
  if (observer_) observer_->on_kernel_end();
  const size_t index = records_.size() - 1;
  StatGroup& g = kernel_groups_.emplace_back(stats_, "k" + std::to_string(index), rec.name);
  g.counter("ctas", "CTAs of the kernel", "CTAs").value = rec.ctas;
  g.counter("start_cycle", "SM cycle the kernel started", "cycles").value = rec.start_cycle;
  g.counter("end_cycle", "SM cycle the kernel ended", "cycles").value = rec.end_cycle;
  g.counter("cycles", "SM cycles the kernel ran", "cycles").value = rec.cycles();
  g.counter("instructions", "warp memory instructions of the kernel", "instructions").value =
      rec.instructions;
  ++kernels_run_;
  cycles_.value = rec.end_cycle - records_.front().start_cycle;
  instructions_ += rec.instructions;
  kernel_.reset();
  begin_next_kernel();
}

}  // namespace gms
