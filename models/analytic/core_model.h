// One GPU core of the reuse-distance model: its resident CTAs' warps in a FIFO warp queue (paper 003 sec.
// 4.5), its L1 as per-set reuse stacks, and the time-stamp machinery of secs. 4.2 and 4.4. Every line
// request takes one time stamp; a load is looked up against the effects due strictly before its stamp
// (simultaneous effects apply in issue order after the lookups of that stamp), except that a fill of the
// same line due at that very stamp is seen (distance 0, paper Table 5). A warp issues one instruction's
// line requests back to back, then re-enters the queue after a delay proportional to the largest latency
// it saw (or at once without divergence); a request that finds no MSHR puts its warp at the back of the
// queue and is retried there. A finished warp takes no time stamp.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "models/analytic/rd_classify.h"
#include "models/analytic/rd_params.h"
#include "models/analytic/rd_timing.h"
#include "models/analytic/set_stacks.h"
#include "models/analytic/warp_lines.h"
#include "models/sm/workload.h"

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
};
using RdAccessObserver = std::function<void(const RdAccess&)>;

class CoreModel {
 public:
  CoreModel(const RdParams& p, uint32_t id);
  void set_observer(const RdAccessObserver* obs) { obs_ = obs; }

  uint32_t resident_ctas() const { return resident_; }
  bool busy() const { return resident_ > 0; }
  uint64_t time() const { return t_; }
  void launch(std::unique_ptr<CtaWork> cta);
  // One scheduling step (one warp instruction, a put-back, a finished warp or a jump over idle time);
  // returns the number of CTAs that finished in it.
  uint32_t step();
  // Kernel boundary: applies the effects still pending; flush = cold cache for the next kernel.
  void end_kernel(bool flush);
  RdCounts take_counts();
  size_t bytes() const { return stacks_.bytes(); }

 private:
  struct Warp {
    std::unique_ptr<WarpStream> stream;
    uint32_t cta_slot = 0, cta_id = 0, index = 0;
    uint32_t mshr = 0;            // MSHR entries it holds
    std::vector<uint64_t> lines;  // line requests of the current instruction
    uint32_t next = 0;            // the next one to issue
    bool store = false;
    uint32_t max_latency = 0;     // largest latency of the instruction so far
    uint64_t first_try = kNever;  // when lines[next] was first put back for an MSHR
  };
  enum class Issue { Done, PutBack };

  bool fetch(Warp& w);
  Issue issue(uint32_t wi, uint64_t line, uint64_t t);
  Issue load(uint32_t wi, Warp& w, uint32_t slot, uint64_t t, RdAccess& a);
  void apply_effects_before(uint64_t t);
  void release_mshrs(uint64_t t);
  void schedule_effect(uint64_t time, uint64_t seq, uint32_t slot);
  void retire(Warp& w);

  RdParams p_;
  uint32_t id_;
  uint32_t ways_, lines_;
  SetStacks stacks_;
  EffectQueue effects_;
  MshrReleaseQueue releases_;
  LatencySampler latency_;
  WarpLines coalesce_;
  RdCounts counts_;
  const RdAccessObserver* obs_ = nullptr;

  std::vector<Warp> warps_;         // this kernel's warps on the core, in launch order
  std::vector<uint32_t> cta_left_;  // warps not finished, per CTA slot
  std::deque<uint32_t> ready_;      // the FIFO warp queue
  struct Delayed {
    uint64_t time, seq;
    uint32_t warp;
    bool operator>(const Delayed& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  std::priority_queue<Delayed, std::vector<Delayed>, std::greater<Delayed>> delayed_;
  uint64_t delay_seq_ = 0;
  uint32_t resident_ = 0, finished_now_ = 0;
  uint32_t mshr_used_ = 0;
  uint64_t t_ = 0;
};

}  // namespace gms
