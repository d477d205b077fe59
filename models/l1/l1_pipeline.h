// The L1 pipeline every design shares: the SM-side and L2-side ports, one access per cycle, the miss
// queue, the response queue, the fill/acknowledgement port, reservation-fail holding (the SM request
// keeps END_REQ and sleeps until something it lacks could have freed), the MSHR file, write-through
// stores, bypassed loads and the functional paths. A design is what this class leaves open: what a
// load does on a hit, partial hit or miss, what a store changes in the tags, what a fill installs.
//
// Determinism: every input that arrives from another process (fills, store acks, late END_REQ/END_RESP)
// takes effect in the cycle after the one in progress, and an SM request is probed inline only when
// this block has no work pending for the same cycle; so the order in which SystemC runs processes
// sharing a time stamp never changes a result.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cache/mshr_file.h"
#include "models/common/at_port.h"
#include "models/common/ring_queue.h"
#include "models/common/trace.h"
#include "models/l1/l1_cache.h"
#include "models/l1/l1_stats.h"

namespace gms {

class L1Pipeline : public L1Cache {
 public:
  SC_HAS_PROCESS(L1Pipeline);
  L1Pipeline(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~L1Pipeline() override;

  const MshrFile& mshrs() const { return mshr_; }
  const L1Stats& counters() const { return st_; }

 protected:
  // ---- What a design decides ------------------------------------------------------------------------
  // A well-formed load of `line` (the request's chunk_mask says which chunks) in cycle c: answer it
  // (queue_response), merge it into an MSHR entry, send a miss (queue_downstream) or bypass it
  // (bypass_load). Returns false on a reservation fail (call reservation_fail(cause) to say why).
  virtual bool access_load(Payload& t, uint64_t line, uint64_t c) = 0;
  // A store to `line` (chunks written: `chunks`) is written through; first the design updates what it
  // holds of the line (write-evict, cancel a pending fill). `functional`: from b_transport, count nothing.
  virtual void on_store(uint64_t line, uint8_t chunks, bool functional) = 0;
  // The same under l1.store_policy write_allocate (timed stores only): the design may install what the
  // store t writes. Only the sectored designs accept that policy (l1_params.cpp).
  virtual void on_store_allocate(Payload& t, uint64_t line, uint8_t chunks) {
    (void)t;
    on_store(line, chunks, /*functional=*/false);
  }
  // A read reply for an MSHR entry (req_of(down).line_addr) arrived in cycle c: install what the design
  // keeps, then answer the waiters (answer_waiters). Owns `down` (release it).
  virtual void on_fill(Payload& down, uint64_t c) = 0;
  // Functional paths (b_transport / transport_dbg), 128 B-framed like every request: copy `chunks` of
  // `line` into dst (false if the design does not hold them all); a line read from memory (keep it or
  // not); one byte written to memory (keep a cached copy equal to it).
  virtual bool functional_read(uint64_t line, uint8_t chunks, unsigned char* dst) = 0;
  virtual void functional_install(uint64_t line, const unsigned char* data) = 0;
  virtual void functional_write(uint64_t addr, unsigned char byte) = 0;
  // The prefetch hook's last stage for a fill of `line` on its way in: start loading what the design's
  // lookup of the line reads first (its tag set). A hint, changes nothing; designs without one skip it.
  virtual void prefetch_lookup(uint64_t line) const { (void)line; }

  // ---- What the pipeline offers a design -------------------------------------------------------------
  void queue_response(Payload& t, uint64_t cycle) { resp_q_.push_back({&t, cycle}); }
  void queue_downstream(Payload& t, uint64_t cycle) { miss_q_.push_back({&t, cycle}); }
  // Miss-queue slots in use in cycle c: queued requests plus the one sent this cycle or awaiting END_REQ.
  uint32_t miss_queue_used(uint64_t c) const {
    return uint32_t(miss_q_.size()) + (c < send_free_cycle_ ? 1 : 0);
  }
  bool miss_queue_full(uint64_t c) const { return miss_queue_used(c) >= params_.miss_queue_entries; }
  // Counts a load request served, and its sectors: those in `missed` were fetched for it, the others hit.
  void count_load(const MemReq& r, uint8_t missed) {
    const uint8_t asked = r.chunk_mask ? r.chunk_mask : kFullChunkMask;
    const unsigned sectors = unsigned(__builtin_popcount(asked));
    ++st_.loads;
    st_.load_sectors += sectors;
    st_.load_sector_hits += sectors - unsigned(__builtin_popcount(asked & missed));
  }
  // Counts a reservation fail of the given cause and returns false (for `return reservation_fail(..)`).
  bool reservation_fail(Counter& cause);
  // A new downstream request for `line` carrying (or asking for) `chunks`, attributed to `from`.
  Payload& new_downstream(const MemReq* from, tlm::tlm_command cmd, uint64_t line, uint8_t chunks);
  // Sends the load to L2 without touching the cache or an MSHR; the reply goes straight to the SM.
  // Returns false (reservation fail) when the miss queue is full.
  bool bypass_load(Payload& t, uint64_t line, uint64_t c);
  // A load hit whose data the design has copied into t: chunks_returned, OK, the response at `ready`,
  // counted as a hit.
  void answer_hit(Payload& t, uint8_t returned, uint64_t ready) {
    req_of(t).chunks_returned = returned;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    queue_response(t, ready);
    count_load(req_of(t), 0);
    ++st_.hits;
    update_probes();
  }
  // Releases the MSHR entry of `line` and answers its waiters from `down` (chunks `got` valid).
  void answer_waiters(uint64_t line, Payload& down, uint8_t got, uint64_t c);
  static void copy_chunks(unsigned char* dst, const unsigned char* src, uint8_t mask);
  // The 32 B chunks of the design's line (l1.line_bytes) that holds the lowest chunk of `chunks`: all four
  // for 128 B lines, the chunks of one small line otherwise.
  uint8_t line_part(uint8_t chunks) const {
    const unsigned per = params_.line_bytes / kChunkBytes;
    const unsigned first = chunks ? unsigned(__builtin_ctz(chunks)) / per * per : 0;
    return uint8_t(((1u << per) - 1) << first);
  }
  // After a change the VCD shows: an untraced L1 pays one test here, not a virtual call per access.
  void update_probes() {
    if (probe_mshr_.on()) write_probes();
  }
  virtual void write_probes();  // a design adds its own signals (G-Cache: bypass_switches)

  MshrFile mshr_;
  L1Stats st_;

 private:
  static constexpr uint64_t kNever = UINT64_MAX;
  struct Timed {
    Payload* t = nullptr;
    uint64_t cycle = 0;  // the cycle it may go (or takes effect)
  };

  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
    return up_.nb_transport_fw(t, ph, d);
  }
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
    return down_.nb_transport_bw(t, ph, d);
  }
  void b_transport(Payload& t, sc_core::sc_time& d) override;
  unsigned transport_dbg(Payload& t) override;

  // Protocol and timing (l1_pipeline.cpp).
  bool on_request(Payload& t, const sc_core::sc_time& delay);
  bool on_down_response(Payload& t);
  void on_down_ready();
  void on_sm_free();
  void process();
  void prefetch(unsigned stage) const;  // Wakeup prefetch hook
  void wake_at(uint64_t cycle);
  void schedule_next(uint64_t now);
  void send_one(uint64_t now);
  void respond_one(uint64_t now);
  // Access dispatch, stores and arrivals (l1_pipeline_access.cpp).
  bool try_access(Payload& t, uint64_t c);
  bool try_load(Payload& t, uint64_t line, uint64_t c);
  bool try_store(Payload& t, uint64_t line, uint64_t c);
  bool try_atomic(Payload& t, uint64_t line, uint64_t c);
  // The SM's write request t, downstream: same data and byte enables, answered to t.
  Payload& forward_write(Payload& t, uint64_t line, uint8_t mask, uint64_t c);
  void handle_arrival(Payload& down, uint64_t c);

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
  uint64_t last_inst_ = 0;  // MemReq::inst of the last load served (per-instruction miss rate)
  bool last_inst_missed_ = false;

 protected:
  Probe<uint32_t> probe_mshr_;
  Probe<uint64_t> probe_hits_, probe_misses_, probe_partial_hits_, probe_bypasses_;
  // One-cycle pulses per served load: hit (or hit-pending), miss (or partial hit), bypass.
  Probe<bool> pulse_hit_, pulse_miss_, pulse_bypass_;
};

}  // namespace gms
