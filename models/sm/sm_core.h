// One SM's load-store front end: resident CTAs and warps, a warp scheduler issuing one memory instruction
// per cycle, the coalescer, and a memory pipeline sending at most one 128 B line request per cycle to the
// L1 under per-warp and per-SM limits on requests in flight. Event driven: the one method runs only in
// cycles with work (an issue, a send, a finished CTA to report).
#pragma once
#include <tlm.h>

#include <systemc>

#include <array>
#include <memory>
#include <vector>

#include "models/coalescing/coalescer.h"
#include "models/common/at_port.h"
#include "models/common/block_env.h"
#include "models/common/clock.h"
#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/common/workload.h"
#include "models/sm/sm_params.h"
#include "models/sm/streaming_multiprocessor.h"
#include "models/sm/sub_partitions.h"
#include "models/sm/warp_state.h"

namespace gms {

class SmCore : public StreamingMultiprocessor {
 public:
  SmCore(sc_core::sc_module_name name, const SmParams& p, unsigned sm_id, const BlockEnv& env,
         MemObserver* observer /* nullable */);

  // Room for one more CTA of this kernel now (CTAs, warps, threads, registers, shared memory).
  bool can_accept(const KernelInfo& k) const override;
  // Whether one CTA of this kernel fits an empty SM at all.
  bool fits_empty(const KernelInfo& k) const override;
  void launch(std::unique_ptr<CtaWork> cta, const KernelInfo& k) override;
  // No resident CTA and no request in flight.
  bool idle() const override { return resident_ctas_ == 0 && in_flight_ == 0; }

  // Issue pause (the adaptive LLC's reconfiguration, paper 004 section 4.1): no new instruction issues; the
  // lines of an instruction already issued still go out, and responses are taken. Resuming wakes the SM.
  void pause_issue(bool paused) override;
  bool issue_paused() const { return paused_; }
  // Nothing of this SM is in the memory system: no line waiting to go out, none in flight.
  bool drained() const override { return in_flight_ == 0 && pipe_next_ == pipe_lines_.size(); }

  const Clock& clock() const override { return clock_; }
  const SmParams& params() const override { return p_; }
  uint64_t warp_insts() const override { return warp_insts_.value; }
  uint32_t in_flight() const { return in_flight_; }
  // Entries created in the instruction and line tables: grows with what was in flight at once, not with the
  // configured limits.
  size_t table_entries() const { return insts_.created() + lines_.created(); }
  // When the last response arrived (0 before the first): the run's livelock watchdog counts from it.
  uint64_t last_response_ps() const override { return last_response_ps_; }
  uint64_t in_flight_since_ps() const override { return in_flight_ ? in_flight_since_ps_ : kNoneInFlight; }
  // The byte a store writes at addr: a fixed function of the SM, its store counter and the address, so
  // every store instruction leaves a recognisable pattern.
  static uint8_t store_byte(unsigned sm_id, uint64_t store_seq, uint64_t addr);
  const StatGroup& stats() const override { return stats_; }

 private:
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
    return port_.nb_transport_bw(t, ph, d);
  }
  void tick();
  void report_finished_ctas();
  bool try_issue(uint64_t cycle);
  void issue(uint32_t slot, uint64_t cycle);
  void notify_stores(const WarpInst& inst, uint64_t uid, uint64_t store_seq, uint64_t order);
  // Atomics: 4 or 8 bytes a lane, aligned (else a clear error); each lane adds its operand (the store data of
  // its address); the lanes of one line are summed per element into pipe_operands_.
  void check_atomic(const WarpInst& inst) const;
  void make_operands(const WarpInst& inst, uint64_t seq);
  void notify_atomics(const WarpInst& inst, uint64_t uid, uint64_t seq, uint64_t order);
  // Tells the observer of the warp's loads in flight it has not heard of yet (on_load_issue), oldest first.
  // Done lazily, before the warp's next store is reported or when its list is full, not at each load's
  // issue: a warp rarely stores while its loads are in flight (its stores usually wait for their data), and
  // a load that ends before any later store of its warp needs no announcement at all. The golden checker's
  // per-warp ordering state, cold with thousands of loads in flight (the H100 preset), is then never touched.
  void announce_loads(uint32_t slot);
  bool limits_allow_head() const;
  void send_head(uint64_t cycle);
  bool on_response(Payload& t);
  void on_request_accepted();
  void finish_line(Payload& t);
  void warp_progress(uint32_t slot);
  // Barriers (MemKind::Barrier, __syncthreads): a warp that issued one waits until every warp of its CTA
  // whose stream has not ended has issued its own; then all go on, each after its next instruction's gap.
  void arrive(uint32_t slot, uint64_t cycle);
  void stream_ended(uint32_t cta_slot, uint64_t cycle);  // one fewer running warp: a barrier may be complete
  void release_barrier(uint32_t cta_slot, uint64_t cycle);
  // Pulls the warp's next instruction (has_next, next, next_strided) through the hot scratch pull_.
  void pull_next(WarpSlot& w);
  // The warp's next instruction with every lane's address: next itself, or, for a unit-stride one, the
  // scratch issue_inst_ with the addresses expanded.
  const WarpInst& next_inst(const WarpSlot& w);
  void schedule_next();
  // Called whenever a warp's eligibility may have changed (launch, issue, send, response); inline because
  // it runs for every request and response.
  void update_eligible(uint32_t slot) {
    const WarpSlot& w = warps_[slot];
    if (!(w.active && w.has_next && !w.at_barrier && w.in_flight < p_.max_outstanding_per_warp) ||
        blocked_on_loads(w)) {
      issue_.reset_ready(slot);
      waiting_.reset(slot);
    } else if (!issue_.is_ready(slot)) {
      waiting_.set(slot);
    }
  }
  // The warp's next instruction waits for registers its in-flight loads still write.
  bool blocked_on_loads(const WarpSlot& w) const {
    return p_.scoreboard && w.pending.intersects(w.next_waits_on);
  }
  void release_registers(WarpSlot& w, const RegSet& writes);
  void fill_store(Payload& t, const LineRequest& l, uint64_t store_seq) const;
  static uint64_t store_word(unsigned sm_id, uint64_t store_seq, uint64_t addr8);

  SmParams p_;
  BlockEnv env_;
  Clock clock_;
  Wakeup wake_;
  AtInitiatorPort port_;
  Coalescer coalescer_;

  // Residents.
  std::vector<CtaSlot> ctas_;
  std::vector<WarpSlot> warps_;
  std::vector<uint32_t> finished_ctas_;  // CTA slots finished, not yet reported to the dispatcher
  std::vector<uint32_t> reporting_;      // scratch of report_finished_ctas()
  // Eligible warps (active, a next instruction, an in-flight slot free) are in exactly one of two sets:
  // issue_'s ready sets once their gap has passed (time only moves on, so they stay ready until they issue),
  // waiting_ before that (or until try_issue looks again). Both are kept up to date incrementally.
  SubPartitions issue_;
  SlotMask waiting_;
  // Per warp slot: the first SM cycle its next instruction may issue. Apart from WarpSlot (a few hundred
  // bytes each) because try_issue() and schedule_next() scan it over every waiting warp: 8 B a warp.
  std::vector<uint64_t> ready_cycle_;
  uint32_t resident_ctas_ = 0, used_warps_ = 0, used_threads_ = 0, used_regs_ = 0, used_shmem_ = 0;
  uint64_t next_age_ = 0;

  // Memory pipeline: the line requests of the last issued instruction still to be sent.
  std::vector<LineRequest> pipe_lines_;
  std::vector<LineRequest> split_scratch_;  // split_to_lines' buffer (small L1 lines)
  std::vector<LaneOffsets> pipe_offsets_;   // per pipe line: its lanes' offsets (observed loads only)
  // Per pipe line of an atomic: the operands, summed per element (lanes that hit one element add theirs).
  std::vector<std::array<uint8_t, kLineBytes>> pipe_operands_;
  WarpInst pull_, issue_inst_;  // scratch of pull_next() and next_inst()
  size_t pipe_next_ = 0;
  uint32_t pipe_inst_ = 0;
  SlotTable<InstRecord> insts_;
  SlotTable<LineSlot> lines_;
  uint32_t in_flight_ = 0;
  uint64_t request_seq_ = 0, store_seq_ = 0;
  uint64_t issue_order_ = 0;  // instructions issued: a warp's program order, told to the observer
  uint64_t lines_first_ = 0, lines_last_ = 0;  // scratch of issue(): first and last byte of a load's lines
  uint64_t last_response_ps_ = 0;
  uint64_t in_flight_since_ps_ = 0;  // when in_flight_ last went from 0 to 1

  // Cycle bookkeeping (UINT64_MAX = never).
  uint64_t last_issue_cycle_ = UINT64_MAX, last_send_cycle_ = UINT64_MAX;
  uint64_t pending_wake_cycle_ = UINT64_MAX;
  bool in_tick_ = false;
  bool paused_ = false;  // pause_issue
  bool held_ = false;    // the L1 holds END_REQ of the last request
  uint64_t held_since_ = 0;
  bool limit_blocked_ = false;  // the head line waits for an outstanding-request slot
  uint64_t limit_blocked_since_ = 0;
  uint64_t active_since_ = 0;

  StatGroup stats_;
  Counter &warp_insts_, &load_insts_, &store_insts_, &atomic_insts_, &line_requests_, &load_line_requests_,
      &store_line_requests_, &atomic_line_requests_, &load_sectors_, &store_sectors_, &atomic_sectors_,
      &requests_, &responses_, &mem_stall_cycles_, &limit_stall_cycles_, &active_cycles_, &ctas_launched_,
      &ctas_completed_, &max_in_flight_, &wakeups_, &scoreboard_waits_, &barriers_, &barrier_wait_cycles_;
  Histogram& load_latency_;
  Probe<uint32_t> in_flight_probe_, ctas_probe_;
};

}  // namespace gms
