// Timed wake-ups for event-driven blocks, shared by all blocks of a system: one sc_event and one
// SC_METHOD run every block that asked to run at that instant, instead of one kernel timed event per
// block and wake-up. The SystemC kernel's timed queue (an allocated event per notification, a heap with
// an indirect compare, a trigger and a process activation each) cost about 450 instructions per wake-up,
// and a GPU memory request needs a dozen wake-ups on its way; here a wake-up is an append to the list of
// its instant and a direct call. Blocks due at the same instant run in the order they were notified.
//
// A Wakeup behaves exactly like an sc_event with one SC_METHOD statically sensitive to it (and
// dont_initialize): notify(SC_ZERO_TIME) runs the block in the next delta cycle, notify(d) at now + d;
// one notification at a time, the earlier kept; a block notified while it is due in the current delta
// runs again in the next one. Blocks made without a shared scheduler (unit tests, foreign platforms) get
// a private one: same semantics, one kernel event per block as before.
//
// A block that must wait inside its run (sc_core::wait: an RTL co-simulation transactor waiting delta
// cycles for its Verilated model, docs/cosim.md) asks for allow_waiting() during elaboration: the
// scheduler then runs its batches from an SC_THREAD instead of an SC_METHOD. The rest of the batch waits
// with it, so every block still runs in the same order and at the same simulated time.
//
// Background clocks (add_background_clock(): the free-running sc_clock of an RTL block, docs/cosim.md) keep
// the kernel busy whether or not a block has work: sc_pending_activity() is then always true. Whoever runs
// the simulation asks next_wake() for the blocks' own activity instead, and pause_when_idle() makes the
// kernel stop (sc_pause) at the instant the blocks go idle, where it would have stopped for starvation.
#pragma once
#include <systemc>

#include <cstdint>
#include <vector>

namespace gms {

class WakeScheduler;

class Wakeup {
 public:
  using Fn = void (*)(void*);
  // Optional, for blocks whose state is cold in host caches between runs (large presets): called for a
  // block a few places ahead of it in its batch, once per stage (0 to 3, four blocks apart), so that it can
  // issue software prefetches for what its run will read, one pointer hop per stage: stage 0 the block's
  // own hot fields, stage 1 what they point to (queue storage), stage 2 the head requests, stage 3 their
  // state (tag set, MSHR bucket). Each stage reads only what the stage before fetched. It must change
  // nothing: a prefetch is only a hint, and the block may not even run with the state it saw. Batches
  // shorter than WakeScheduler::kPrefetchMinBatch call no hooks. Prefetch with prefetch_hint().
  using PrefetchFn = void (*)(void*, unsigned stage);
  Wakeup() = default;
  ~Wakeup();
  // In the owning block's constructor (elaboration): fn(obj) runs on each notification; through
  // `shared` when given, else through a private scheduler made a child of the block.
  void bind(WakeScheduler* shared, Fn fn, void* obj);
  void set_prefetch(PrefetchFn pre) { pre_ = pre; }
  // The scheduler that runs the block (after bind).
  WakeScheduler& scheduler() const { return *sched_; }
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;

  // Run at now + delay (SC_ZERO_TIME: the next delta cycle).
  inline void notify(const sc_core::sc_time& delay);
  // Run at the absolute time of `ps` picoseconds (not in the future: the next delta cycle); blocks that
  // count cycles know the edge's absolute time, which saves building an sc_time.
  inline void notify_at_ps(uint64_t ps);
  // Drops the pending notification, timed or delta, if any (a timer whose purpose is gone: the run ended).
  void cancel();
  // Calls fn(obj) once, as a method activation (a kernel process is running: the scheduler's).
  void fire() { fn_(obj_); }

 private:
  friend class WakeScheduler;
  static uint64_t ps_ticks() {  // kernel ticks per picosecond (1 at the default resolution)
    static const uint64_t t = sc_core::sc_time(1, sc_core::SC_PS).value();
    return t ? t : 1;
  }
  static constexpr uint64_t kNone = ~uint64_t(0);
  WakeScheduler* sched_ = nullptr;
  WakeScheduler* own_ = nullptr;  // private scheduler when none is shared
  Fn fn_ = nullptr;
  PrefetchFn pre_ = nullptr;
  void* obj_ = nullptr;
  uint64_t pending_ = kNone;  // time (kernel ticks) of the pending timed notification; entries of this
                              // block for other times are stale
  uint64_t delta_at_ = 0;     // delta cycle in which the pending delta notification was made
  uint32_t id_ = 0;           // index in the scheduler
  bool delta_ = false;        // a delta notification is pending
};

class WakeScheduler : public sc_core::sc_module {
 public:
  explicit WakeScheduler(sc_core::sc_module_name name);

  uint32_t add(Wakeup& w);
  // At absolute time t (kernel ticks); t <= now: the next delta cycle.
  void notify_at(Wakeup& w, uint64_t t);
  // Wakeup::cancel: w is no longer due; the kernel event follows the earliest block still due.
  void cancel(Wakeup& w);
  // Elaboration only: run the blocks from a thread process, so that they may call sc_core::wait.
  void allow_waiting() { waiting_allowed_ = true; }
  bool waiting_allowed() const { return waiting_allowed_; }
  // Elaboration: a free-running clock ticks beside the blocks (its kernel activity is not theirs).
  void add_background_clock() { ++background_clocks_; }
  unsigned background_clocks() const { return background_clocks_; }
  // The earliest instant a block is due, in kernel ticks (now when one is due in a delta cycle); kNever when
  // none is: the blocks are idle. Between kernel runs (not from a block).
  static constexpr uint64_t kNever = ~uint64_t(0);
  uint64_t next_wake() const;
  // From now on, a batch that leaves no block due calls sc_core::sc_pause(): the kernel returns from
  // sc_start at that instant (after its delta cycle) instead of running its background clocks on.
  void pause_when_idle() { pause_when_idle_ = true; }
  // The current time in kernel ticks (cached while the scheduler runs blocks).
  uint64_t now() const { return in_run_ ? now_ : sc_core::sc_get_curr_simcontext()->time_stamp().value(); }
  uint64_t wake_ups() const { return wake_ups_; }  // blocks run so far (for profiling)
  // Prefetch hooks: stage s of a block runs kPrefetchAhead[s] blocks before it in its batch (the first
  // blocks of a batch get theirs before the batch starts). Far enough for the lines to arrive (a block's
  // run takes a few hundred ns), near enough that they are still cached.
  static constexpr unsigned kPrefetchStages = 4;
  static constexpr size_t kPrefetchAhead[kPrefetchStages] = {16, 12, 8, 4};
  // A shorter batch runs no hooks: it gives no stage its full lead, and few blocks running means their
  // state stays in host caches, where the hooks are pure cost (the fermi preset on the vecadd sample runs
  // 99.9 % of its wake-ups in batches under 16, the H100 preset 98.5 % in batches of 16 or more).
  static constexpr size_t kPrefetchMinBatch = kPrefetchAhead[0];

 private:
  // The blocks due at one instant, in notification order. A system has a handful of distinct instants
  // pending (the next edge of each clock, a few DRAM timings), so a linear scan over them is cheaper than
  // a heap of one entry per wake-up.
  struct Bucket {
    uint64_t time;              // kernel ticks
    std::vector<uint32_t> ids;  // Wakeup ids; an id whose pending_ is no longer `time` is stale
  };
  // The process is made when elaboration ends, once the blocks have said whether they wait.
  void before_end_of_elaboration() override;
  void run();
  void run_thread();                // allow_waiting(): run() from a thread, once per notification of ev_
  void arm(bool may_pause = true);  // (re)notify the kernel event for the earliest pending instant
  void add_to_bucket(uint64_t t, uint32_t id);
  bool live(const Bucket& b) const;  // holds an id still due at b.time
  void drop(size_t k);               // bucket k leaves the live set
  void fire_batch();                 // runs batch_ in order, prefetching ahead (Wakeup::set_prefetch)

  sc_core::sc_event ev_;
  std::vector<Wakeup*> clients_;  // by id
  std::vector<Bucket> buckets_;   // [0, live_): pending instants, unordered; the rest are spares
  size_t live_ = 0;
  std::vector<Wakeup*> delta_;  // to run in a later delta cycle (Wakeup::delta_at_ says which)
  std::vector<Wakeup*> batch_;  // running now
  uint64_t wake_ups_ = 0;
  bool in_run_ = false;
  bool waiting_allowed_ = false;
  bool pause_when_idle_ = false;
  unsigned background_clocks_ = 0;
  uint64_t now_ = 0;  // time of the current run (saves the kernel call in notifications made in it)
  uint64_t armed_ = ~uint64_t(0);  // time of the kernel event's pending timed notification (~0: none)
  bool delta_armed_ = false;       // the kernel event has a delta notification pending
};

void Wakeup::notify(const sc_core::sc_time& delay) {
  sched_->notify_at(*this, delay == sc_core::SC_ZERO_TIME ? 0 : sched_->now() + delay.value());
}

void Wakeup::notify_at_ps(uint64_t ps) {
  sched_->notify_at(*this, ps * ps_ticks());
}

}  // namespace gms
