// One GPU core of the reuse-distance model: its resident CTAs' warps in a FIFO warp queue (paper 003 sec.
// 4.5), its L1 as per-set reuse stacks, and the time-stamp machinery of secs. 4.2 and 4.4. Every line
// request takes one time stamp; a load is looked up against the effects due strictly before its stamp
// (simultaneous effects apply in issue order after the lookups of that stamp), except that a fill of the
// same line due at that very stamp is seen (distance 0, paper Table 5). A warp issues one instruction's
// line requests back to back, then re-enters the queue after a delay proportional to the largest latency
// it saw (or at once without divergence); a request that finds no MSHR puts its warp at the back of the
// queue and is retried there. A finished warp takes no time stamp. With tracked sectors (RdParams::
// tracks_sectors) lines are allocated whole and loads hit per sector (sector_table.h): a load fetches only
// its missing sectors, into the line's MSHR entry when one is in flight, and write-allocate stores
// allocate lines.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/analytic/rd_classify.h"
#include "models/analytic/rd_params.h"
#include "models/analytic/rd_timing.h"
#include "models/analytic/sector_table.h"
#include "models/analytic/set_stacks.h"
#include "models/analytic/time_buckets.h"
#include "models/analytic/warp_lines.h"
#include "models/common/ring_queue.h"
#include "models/common/workload.h"

namespace gms {

// One line request as the model saw it (for tests and traces).
struct RdAccess {
  uint64_t time = 0;  // issue time stamp
  uint32_t core = 0;
  uint32_t cta = 0, warp = 0;  // CTA id and warp index in the CTA
  uint64_t line = 0;           // line byte address
  bool store = false;
  uint32_t set_distance = kInfDistance, global_distance = kInfDistance;
  RdOutcome outcome = RdOutcome::Hit;
  uint32_t latency = 0;                      // hit latency, memory latency, or time to the merged fill
  uint64_t effect_at = kNever;               // when it takes effect on the stack (kNever: none)
  uint32_t mshr_before = 0, mshr_after = 0;  // MSHR entries in use before and after
  // Tracked sectors: the sectors it touches (bit i = sector i of the line) and, for a load, those that hit
  // (valid or pending).
  uint8_t sectors = 0, sector_hits = 0;
};
using RdAccessObserver = std::function<void(const RdAccess&)>;

class CoreModel {
 public:
  CoreModel(const RdParams& p, uint32_t id);
  void set_observer(const RdAccessObserver* obs) { obs_ = obs && *obs ? obs : nullptr; }
  bool observed() const { return obs_ != nullptr; }

  uint32_t resident_ctas() const { return resident_; }
  bool busy() const { return resident_ > 0; }
  uint64_t time() const { return t_; }
  void launch(std::unique_ptr<CtaWork> cta);
  // One scheduling step (one warp instruction, a put-back, a finished warp or a jump over idle time);
  // returns the number of CTAs that finished in it.
  uint32_t step();
  // Steps until a step finishes CTAs; returns how many (0: the core went idle) with `key` = the core's
  // time when that step began. Cores interact only through CTA hand-out, so without an observer each core
  // runs alone up to its next CTA completion instead of taking turns step by step.
  uint32_t run_to_cta_end(uint64_t& key) {
    while (busy()) {
      key = t_;
      if (const uint32_t done = step()) return done;
    }
    return 0;
  }
  // Kernel boundary: applies the effects still pending; flush = cold cache for the next kernel.
  void end_kernel(bool flush);
  RdCounts take_counts();
  size_t bytes() const { return stacks_.bytes() + sectors_.bytes(); }

 private:
  struct Warp {
    std::unique_ptr<WarpStream> stream;
    WarpInst inst;  // its stream's instruction buffer, reused as the SystemC SM does
    uint32_t cta_slot = 0, cta_id = 0, index = 0;
    uint32_t mshr = 0;                // MSHR entries it holds
    std::vector<uint64_t> lines;      // line requests of the current instruction
    std::vector<SectorMask> sectors;  // their sectors (tracked sectors only)
    uint32_t next = 0;                // the next one to issue
    bool store = false;
    uint32_t max_latency = 0;            // largest latency of the instruction so far
    uint64_t first_try = kNever;         // when lines[next] was first put back for an MSHR
    uint32_t slot = SetStacks::kNoSlot;  // lines[next]'s slot once put back: its retries skip the lookup
  };
  enum class Issue { Done, PutBack };

  bool fetch(Warp& w);
  template <bool kTracked>
  Issue issue(uint32_t wi, Warp& w);
  void store(const Warp& w, uint64_t line, uint64_t t);
  Issue load(uint32_t wi, Warp& w, uint64_t line, uint64_t t);
  // Tracked sectors: the same with the request's sectors.
  void store_sectors(const Warp& w, uint64_t line, SectorMask m, uint64_t t);
  Issue load_sectors(uint32_t wi, Warp& w, uint64_t line, uint8_t requested, uint64_t t);
  uint32_t tracked_slot(uint64_t line) {
    const uint32_t s = stacks_.slot(line);
    sectors_.ensure(s);
    return s;
  }
  bool in_cache(uint32_t slot) const { return stacks_.lookup(slot).set_distance < ways_; }
  void report(const Warp& w, uint64_t line, uint64_t t, RdOutcome outcome, const StackLookup& d,
              uint32_t latency, uint64_t effect_at, uint32_t mshr_before, uint8_t sectors = 0,
              uint8_t sector_hits = 0) const;
  void apply_effect(const Effect& e);
  void apply_sector_effect(const Effect& e);  // tracked sectors
  void land_sectors(const Effect& e);         // its part on the sectors and stacks
  void apply_effects_before(uint64_t t);
  void apply_sector_effects_before(uint64_t t);
  void release_mshr(uint32_t slot, uint64_t fill_time);
  void release_mshrs_now();
  void schedule_effect(uint64_t time, uint64_t seq, uint32_t slot, bool release);
  void schedule_sector_effect(const Effect& e);
  void retire(Warp& w);

  RdParams p_;
  uint32_t id_;
  uint32_t ways_, lines_;
  bool track_;  // tracked sectors
  SetStacks stacks_;
  SectorTable sectors_;          // used with tracked sectors only
  TimeBuckets<Effect> effects_;  // by effect time, then issue order; misses' carry their MSHR release
  LatencySampler latency_;
  WarpLines coalesce_;
  RdCounts counts_;
  const RdAccessObserver* obs_ = nullptr;

  std::vector<Warp> warps_;         // this kernel's warps on the core, in launch order
  std::vector<uint32_t> cta_left_;  // warps not finished, per CTA slot
  RingQueue<uint32_t> ready_{64};   // the FIFO warp queue (paper 003 sec. 4.5)
  TimeBuckets<uint32_t> delayed_;   // warps waiting out their latency, by return time then in order
  uint32_t resident_ = 0, finished_now_ = 0;
  uint32_t mshr_used_ = 0;
  uint64_t t_ = 0;
};

// A miss's MSHR entry is freed at its fill time, the time of the miss's effect, which carries the release:
// at the lookups of that very stamp (release_mshrs_now), or with the effect when no request took that
// stamp. (Here: core_model_sectors.cpp uses it too.)
inline void CoreModel::release_mshr(uint32_t slot, uint64_t fill_time) {
  LineState& st = stacks_.state(slot);
  if (st.fill_time != fill_time) return;
  st.fill_time = kNever;
  --mshr_used_;
  --warps_[st.mshr_warp].mshr;
}

}  // namespace gms
