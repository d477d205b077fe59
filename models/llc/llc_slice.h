// One memory-side LLC slice (MECHANISMS.md "Baselines": write-back, write-allocate, non-inclusive L2
// bank with 128 B lines and 32 B sectors), built on the shared cache core (TagArray, replacement policy,
// MshrFile of models/l1). Sits between the NoC (tsock) and its DRAM channel (isock).
//
// Pipeline, one SC_METHOD woken only for cycles with work:
//   accept   requests enter the input queue (END_REQ at once while it has room, else held);
//   access   one tag/data access per cycle: a pending DRAM fill first, else the input-queue head, in
//            arrival order; a head that lacks a resource stays (reservation fail) and is retried;
//   respond  one response per cycle: hits and write acks `latency` cycles after their access, fill
//            waiters the cycle after their last sector arrived;
//   dram     one DRAM request (fetch or write-back) per cycle while the channel accepts.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <memory>
#include <systemc>
#include <vector>

#include "models/cache/mshr_file.h"
#include "models/cache/tag_array.h"
#include "models/common/at_port.h"
#include "models/common/block_env.h"
#include "models/common/clock.h"
#include "models/common/ring_queue.h"
#include "models/common/rng.h"
#include "models/common/trace.h"
#include "models/common/wake_scheduler.h"
#include "models/llc/byte_mask.h"
#include "models/llc/last_level_cache.h"
#include "models/llc/llc_data_path.h"
#include "models/llc/llc_params.h"
#include "models/llc/llc_set_hash.h"
#include "models/llc/llc_stats.h"
#include "models/llc/llc_victim_bits.h"

namespace gms {

class LlcSlice : public LastLevelCache {
 public:
  LlcSlice(sc_core::sc_module_name name, const LlcParams& p, unsigned slice_id, const BlockEnv& env);
  ~LlcSlice() override;

  // The bytes a slice with these parameters allocates when built, beside its fixed cost (module, sockets,
  // statistics): tag, data, sector and replacement state per line, G-Cache victim bits (victim_bit_l1s),
  // the MSHR file and its waiters (mshr_entries x mshr_max_merge, the most they can grow to) and the
  // queues. For the memory budget (models/system/memory_budget.h), before anything is built.
  static uint64_t footprint(const LlcParams& p);

  // Mode-switch support (adaptive LLC). Both act at once on the array and queue timed DRAM writes that
  // drain one per cycle (past the miss_queue limit; new misses wait until it has room again).
  // write_back_all: every line with dirty bytes is written back and becomes clean (stays valid), lines
  //   with a fill in flight included (their dirty bytes are the stores applied so far).
  // invalidate_all: dirty lines are written back, then every line without a fill in flight is dropped;
  //   a line with a fill in flight stays until its last fill has answered its waiters, and is then
  //   written back if dirty and dropped.
  // Both return the number of lines they wrote back / dropped now.
  uint32_t write_back_all() override;
  uint32_t invalidate_all() override;
  // Nothing accepted, queued or in flight (downstream write-backs acknowledged).
  bool quiescent() const override;
  // Write-through (a private LLC, paper 004 section 4.1: several clusters' slices may hold a line, so no
  // slice may keep the only up-to-date copy): every write also goes to DRAM at once and leaves the line
  // clean. Switch it while quiescent, after write_back_all.
  void set_write_through(bool on) override { write_through_ = on; }
  // An observer of this slice's tag accesses (the adaptive LLC's ATD on its sampled slice): called once per
  // request whose access went through, with its line, its set in this slice and the requesting SM.
  void set_access_observer(AccessObserver fn, void* ctx) override {
    observer_ = fn;
    observer_ctx_ = ctx;
  }
  bool write_through() const { return write_through_; }

  const LlcParams& params() const override { return p_; }
  const Clock& clock() const { return clock_; }
  const StatGroup& stats() const override { return stats_; }
  // Valid / dirty bytes of a line (false when it has no tag here). For tests and controllers.
  bool line_state(uint64_t line, ByteMask* valid, ByteMask* dirty) const;
  size_t mshr_in_use() const { return mshr_.size(); }
  // G-Cache: the victim bit of `sm` on the line (false when the line has no tag here or bits are off).
  bool victim_bit(uint64_t line, uint32_t sm) const;

 private:
  struct Timed {
    Payload* t = nullptr;
    uint64_t cycle = 0;  // input: first cycle it may be accessed; responses: cycle it is due
  };
  struct MissSlot {  // the LLC's side of one MSHR entry (MshrFile::Entry::cookie = slot index)
    uint32_t set = 0, way = 0;
    uint8_t filled = 0;  // sectors whose fill has arrived
  };
  struct Waiter {  // per waiting read or atomic, parallel to MshrFile::Entry::waiters
    ByteMask need = 0, have = 0;
    uint8_t offset = 0, sectors = 0;
    uint16_t words = 0;
    uint8_t atomic_width = 0;  // an atomic: applied to the line when `need` is valid (its payload: operands)
  };
  struct Allocation {  // a victim chosen for a new line, before anything is changed
    int way = -1;
    bool evict = false, writeback = false;
  };
  struct WritebackInFlight {
    uint64_t line;
    Payload* t;
    ByteMask bytes = 0;  // the bytes it writes
    bool sent = false;   // left the miss queue for the DRAM channel
  };

  // Sockets and ports (llc_slice.cpp).
  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override;
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override;
  bool on_request(Payload& t, const sc_core::sc_time& delay);
  bool on_dram_response(Payload& t);
  void wake();  // from a callback: run at the next cycle edge not yet processed

  // The cycle (llc_slice.cpp).
  void run();
  void prefetch(unsigned stage) const;  // Wakeup prefetch hook
  void access_stage(uint64_t c);
  void respond_stage(uint64_t c);
  void dram_stage();
  void schedule_next(uint64_t c);
  void admit_held(uint64_t c);

  // Accesses (llc_access.cpp): false = reservation fail, nothing changed, `why` set.
  bool try_access(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why);
  // `atomic_width`: an atomic that missed, waiting like a read (llc_atomic.cpp).
  bool try_read(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why, uint8_t atomic_width = 0);
  // Atomics (llc_atomic.cpp): applied at once when the line holds their bytes, else after the fill.
  bool try_atomic(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why);
  void apply_atomic(Payload& t, const Waiter& w, uint32_t set, uint32_t way);
  bool forward_atomic(Payload& t, const LlcAccess& a, LlcStall& why);  // write-through: DRAM performs it
  void answer_forwarded_atomics(uint64_t c);
  // Counts a read's sectors: those in `fetched` are fetched for it, the others hit (Nsight's sector counts).
  void count_read_sectors(uint8_t asked, uint8_t fetched);
  bool try_write(Payload& t, const LlcAccess& a, uint64_t c, LlcStall& why);
  bool plan_allocation(uint64_t key, Allocation& al, unsigned& dram_slots, LlcStall& why);
  void commit_allocation(uint64_t key, uint32_t set, const Allocation& al, bool reserved);
  void add_waiter(MshrFile::Entry& e, Payload& t, const LlcAccess& a, uint32_t set, uint32_t way,
                  uint8_t atomic_width = 0);
  // A DRAM read of the line's sectors for MSHR entry `slot` (the line at set/way): its fill will read
  // those records, cold with 80 slices; the request carries their addresses for prefetch() to fetch ahead.
  void queue_fetch(uint64_t line, uint8_t sectors, Payload& origin, uint32_t set, uint32_t way,
                   uint64_t slot);
  void queue_writeback(uint32_t set, uint32_t way);
  bool writeback_in_flight(uint64_t line) const;
  // A write-back of `line` still waiting in the miss queue (a write-through may merge into it), or null.
  WritebackInFlight* unsent_writeback(uint64_t line);
  bool miss_queue_blocks_allocation(uint32_t set) const;
  void respond_after_latency(Payload& t, uint64_t c);

  // Fills (llc_fill.cpp).
  void process_fill(Payload& f, uint64_t c);
  void close_miss(MshrFile::Entry& e);

  // Functional and debug paths, maintenance (llc_functional.cpp).
  void b_transport(Payload& t, sc_core::sc_time& delay) override;
  unsigned int transport_dbg(Payload& t) override;
  void functional_read(Payload& t, const LlcAccess& a, sc_core::sc_time& delay);
  void functional_write(Payload& t, const LlcAccess& a, sc_core::sc_time& delay);
  int functional_allocate(uint64_t key, sc_core::sc_time& delay);
  void drop_line(uint32_t set, uint32_t way);
  // G-Cache: the reply to a read of (set, way) carries the requester's victim bit, which is then set.
  void serve_victim_bit(Payload& t, uint32_t set, uint32_t way);

  LlcLineState& state(uint32_t set, uint32_t way) { return lines_[size_t(set) * p_.ways + way]; }
  const LlcLineState& state(uint32_t set, uint32_t way) const { return lines_[size_t(set) * p_.ways + way]; }
  void sync_sectors(uint32_t set, uint32_t way);  // TagEntry sector bits mirror the byte masks
  Waiter& waiter(uint64_t slot, size_t i) { return waiters_[size_t(slot) * p_.mshr_max_merge + i]; }
  void update_probes();
  // What a blocked head's retry depends on changed, so it may now succeed. changed(): anything (lines of
  // its set, maintenance); freed(r): one more of resource r. More of a resource that did not fail changes
  // nothing: the checks before the failing one still pass, the ones after it were not reached.
  void changed() { retry_futile_ = false; }
  void freed(LlcStall r) {
    if (r == stall_cause_) retry_futile_ = false;
  }

  LlcParams p_;
  bool write_through_ = false;
  AccessObserver observer_ = nullptr;
  void* observer_ctx_ = nullptr;
  BlockEnv env_;
  Clock clock_;
  Rng rng_;
  StatGroup stats_;
  LlcStats st_;
  LlcLineKey keys_;
  TagArray tags_;
  MshrFile mshr_;
  std::vector<LlcLineState> lines_;
  LlcVictimBits victim_bits_;  // per tag entry; empty unless G-Cache asked for them
  std::vector<MissSlot> miss_;
  std::vector<Waiter> waiters_;
  std::vector<uint32_t> free_miss_;

  AtTargetPort up_;
  AtInitiatorPort down_;
  Wakeup wake_;
  bool ran_ = false;
  uint64_t last_cycle_ = 0;  // the cycle run() last did its work
  bool freed_ = false;       // this cycle sent a response or a DRAM request (a blocked head may go)

  RingQueue<Timed> input_;
  LlcAccess head_;  // decoded input_.front() (valid while head_decoded_)
  bool head_decoded_ = false;
  Payload* held_ = nullptr;  // request whose END_REQ is withheld (input queue full)
  uint64_t held_cycle_ = 0;
  RingQueue<Timed> hit_pipe_;            // hit responses and write acks, due in access order
  RingQueue<Timed> answers_;             // fill waiters, due in fill order
  RingQueue<Payload*> fills_;            // DRAM read responses waiting for the access stage
  RingQueue<Payload*> out_;              // DRAM requests waiting for the channel
  RingQueue<Payload*> done_;             // acknowledged write-backs, released at the next run
  std::deque<Payload*> atomic_replies_;  // DRAM's answers to forwarded atomics, at most mshr_entries
  uint32_t atomics_forwarded_ = 0;       // forwarded atomics not yet answered
  std::vector<WritebackInFlight> wb_in_flight_;

  // Reservation-fail accounting: a blocked head is retried at the next cycle the block runs; the
  // cycles in between (nothing changed, so the retry would have failed the same way) are added then.
  bool stalled_ = false;
  LlcStall stall_cause_ = LlcStall::MshrFull;
  uint64_t stall_cycle_ = 0;
  // Nothing the blocked head depends on has changed since it failed, so a retry would fail the same way
  // (only trusted when the replacement policy's victim choice is repeatable: no random draws).
  bool retry_futile_ = false;
  uint32_t stall_set_ = UINT32_MAX;  // the blocked head's set
  bool victim_repeatable_ = false;
  bool victim_pure_ = false;  // choosing a victim changes nothing (LRU, NRU)

  Probe<uint32_t> probe_mshr_;

  Probe<uint32_t> probe_queue_;  // requests in the input queue
  Probe<uint64_t> probe_hits_, probe_misses_;
};

}  // namespace gms
