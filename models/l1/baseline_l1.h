// The baseline GPU L1 data cache (papers 000/002 baseline, GPGPU-Sim-like): allocate-on-miss with
// reserved lines and MSHR merging; write-through, write-no-allocate, write-evict on a store hit.
// One access per cycle; a request that cannot reserve what it needs (reservation fail) keeps END_REQ
// and is retried every cycle, which stalls the SM's memory pipeline.
#pragma once
#include <cstdint>

#include "models/cache/mshr_file.h"
#include "models/cache/tag_array.h"
#include "models/common/at_port.h"
#include "models/common/ring_queue.h"
#include "models/common/trace.h"
#include "models/l1/l1_cache.h"
#include "models/l1/l1_stats.h"

namespace gms {

class BaselineL1 : public L1Cache {
 public:
  SC_HAS_PROCESS(BaselineL1);
  BaselineL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~BaselineL1() override;

  void invalidate_all() override;

  TagArray& tags() { return tags_; }
  const MshrFile& mshrs() const { return mshr_; }
  const L1Stats& counters() const { return st_; }

 protected:
  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
    return up_.nb_transport_fw(t, ph, d);
  }
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
    return down_.nb_transport_bw(t, ph, d);
  }
  void b_transport(Payload& t, sc_core::sc_time& d) override;
  unsigned transport_dbg(Payload& t) override;

 private:
  static constexpr uint64_t kNever = UINT64_MAX;
  struct Timed {
    Payload* t = nullptr;
    uint64_t cycle = 0;  // the cycle it may go (or takes effect)
  };

  // Protocol and timing (baseline_l1.cpp).
  bool on_request(Payload& t, const sc_core::sc_time& delay);
  bool on_down_response(Payload& t);
  void on_down_ready();
  void on_sm_free();
  void process();
  void wake_at(uint64_t cycle);
  void schedule_next(uint64_t now);
  void send_one(uint64_t now);
  void respond_one(uint64_t now);
  void queue_response(Payload& t, uint64_t cycle) { resp_q_.push_back({&t, cycle}); }
  void queue_downstream(Payload& t, uint64_t cycle) { miss_q_.push_back({&t, cycle}); }
  // Miss-queue slots in use in cycle c: queued requests plus the one sent this cycle or awaiting END_REQ.
  uint32_t miss_queue_used(uint64_t c) const {
    return uint32_t(miss_q_.size()) + (c < send_free_cycle_ ? 1 : 0);
  }

  // Access, fill and store paths (baseline_l1_access.cpp). try_access returns false on a reservation fail.
  bool try_access(Payload& t, uint64_t c);
  bool try_load(Payload& t, uint64_t line, uint64_t c);
  bool try_store(Payload& t, uint64_t line, uint64_t c);
  bool reservation_fail(Counter& cause);
  void handle_arrival(Payload& down, uint64_t c);
  void fill(Payload& down, uint64_t c);
  Payload& new_downstream(const MemReq* from, tlm::tlm_command cmd, uint64_t line);
  void update_probes();

  TagArray tags_;
  MshrFile mshr_;
  L1Stats st_;
  AtTargetPort up_;
  AtInitiatorPort down_;
  Wakeup ev_;

  RingQueue<Timed> miss_q_;    // downstream requests waiting to be sent, in order
  RingQueue<Timed> resp_q_;    // responses to the SM, sent in order
  RingQueue<Timed> arrivals_;  // fills and store acknowledgements, handled one per cycle
  Payload* held_ = nullptr;    // SM request whose END_REQ is withheld
  uint64_t held_cycle_ = 0;    // next cycle to try it
  // A reservation-failed request is not retried every cycle: it sleeps until a fill, an acknowledgement
  // or a miss-queue departure could free what it lacks, and the cycles skipped are then counted as the
  // failed retries they stand for, so the statistics equal a per-cycle retry at a fraction of the events.
  bool held_blocked_ = false;
  bool held_failed_ = false;
  uint64_t held_fail_cycle_ = 0;
  Counter* held_cause_ = nullptr;
  void block_held(uint64_t fail_cycle);
  void unblock_held(uint64_t cycle);
  void count_skipped_retries(uint64_t now);
  uint64_t last_access_cycle_ = kNever;
  uint64_t send_free_cycle_ = 0;     // first cycle the downstream request channel may be used again
  uint64_t resp_free_cycle_ = 0;     // first cycle the response channel to the SM may be used again
  uint64_t arrival_free_cycle_ = 0;  // first cycle the fill port is free again
  uint64_t scheduled_ = kNever;      // cycle of the pending notification of ev_
  uint64_t next_id_ = 0;

  Probe<uint32_t> probe_mshr_;
  Probe<uint64_t> probe_hits_, probe_misses_;
};

}  // namespace gms
