// WakeScheduler / Wakeup: the shared wake-up queue must behave as one sc_event per block with a method
// statically sensitive to it (earliest notification kept, delta over timed, re-run when notified while
// due), and run the blocks due at one instant in notification order. Each case elaborates once (its own
// process under ctest).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/common/wake_scheduler.h"

using namespace gms;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// Records "name@ns.delta" on each run and calls an optional hook.
struct Client {
  std::string name;
  std::vector<std::string>* log;
  Wakeup wake;
  std::function<void()> on_run;
  Client(std::string n, std::vector<std::string>* l, WakeScheduler* shared) : name(std::move(n)), log(l) {
    wake.bind(
        shared, [](void* o) { static_cast<Client*>(o)->run(); }, this);
  }
  void run() {
    log->push_back(name + "@" + std::to_string(uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5)) +
                   "." + std::to_string(sc_core::sc_delta_count()));
    if (on_run) on_run();
  }
};

// Starts notifications from a method at time 0 (a process must be running for delta counts to advance).
struct Driver : sc_core::sc_module {
  std::function<void()> body;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n) { SC_METHOD(go); }
  void go() { body(); }
};

std::vector<std::string> times_of(const std::vector<std::string>& log) {
  std::vector<std::string> out;
  for (const auto& s : log) out.push_back(s.substr(0, s.find('.')));
  return out;
}

}  // namespace

TEST(WakeScheduler, EarliestNotificationWinsAndSameInstantRunsInNotificationOrder) {
  WakeScheduler sched("wake");
  std::vector<std::string> log;
  Client a("a", &log, &sched), b("b", &log, &sched), c("c", &log, &sched);
  Driver d("d");
  d.body = [&] {
    a.wake.notify(sc_time(10, SC_NS));
    a.wake.notify(sc_time(5, SC_NS));   // earlier: replaces 10
    a.wake.notify(sc_time(20, SC_NS));  // later: dropped
    c.wake.notify(sc_time(5, SC_NS));
    b.wake.notify(sc_time(5, SC_NS));
    b.wake.notify_at_ps(30000);  // absolute 30 ns, later than the pending 5 ns: dropped
  };
  sc_core::sc_start();
  EXPECT_EQ(times_of(log), (std::vector<std::string>{"a@5", "c@5", "b@5"}));
  EXPECT_EQ(sched.wake_ups(), 3u);
}

TEST(WakeScheduler, DeltaNotificationCancelsTimedAndTimedCannotOverrideDelta) {
  WakeScheduler sched("wake");
  std::vector<std::string> log;
  Client a("a", &log, &sched);
  Driver d("d");
  d.body = [&] {
    a.wake.notify(sc_time(7, SC_NS));
    a.wake.notify(sc_core::SC_ZERO_TIME);  // cancels the 7 ns one
    a.wake.notify(sc_time(3, SC_NS));      // a delta one is pending: dropped
  };
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].substr(0, 3), "a@0");
}

TEST(WakeScheduler, BlockNotifiedWhileDueRunsAgainInTheNextDelta) {
  WakeScheduler sched("wake");
  std::vector<std::string> log;
  Client a("a", &log, &sched), b("b", &log, &sched);
  Driver d("d");
  d.body = [&] {
    a.wake.notify(sc_time(2, SC_NS));
    b.wake.notify(sc_time(2, SC_NS));
  };
  int runs_a = 0;
  a.on_run = [&] {
    if (runs_a++ == 0) b.wake.notify(sc_core::SC_ZERO_TIME);  // b is due in this delta already
  };
  sc_core::sc_start();
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(times_of(log), (std::vector<std::string>{"a@2", "b@2", "b@2"}));
  // The second run of b is one delta cycle later.
  const auto delta = [](const std::string& s) { return std::stoull(s.substr(s.find('.') + 1)); };
  EXPECT_EQ(delta(log[2]), delta(log[1]) + 1);
}

TEST(WakeScheduler, PrivateSchedulerBehavesTheSame) {
  std::vector<std::string> log;
  Client a("a", &log, nullptr), b("b", &log, nullptr);
  Driver d("d");
  d.body = [&] {
    b.wake.notify(sc_time(4, SC_NS));
    a.wake.notify(sc_time(8, SC_NS));
    a.wake.notify(sc_time(1, SC_NS));
  };
  int stop = 0;  // a re-notifies itself 1 ns later until b has run: 1, 2, 3, 4 ns
  b.on_run = [&] { stop = 1; };
  a.on_run = [&] {
    if (!stop) a.wake.notify(sc_time(1, SC_NS));
  };
  sc_core::sc_start();
  auto t = times_of(log);
  ASSERT_EQ(t.size(), 5u);
  std::sort(t.begin() + 3, t.end());  // two private schedulers at 4 ns: the kernel picks the order
  EXPECT_EQ(t, (std::vector<std::string>{"a@1", "a@2", "a@3", "a@4", "b@4"}));
}

// allow_waiting(): the blocks run from a thread and may wait delta cycles inside their run; the rest of
// the batch waits with them, so the order and the simulated times are those of the method.
TEST(WakeScheduler, WaitingBlockHoldsTheRestOfItsBatch) {
  WakeScheduler sched("wake");
  sched.allow_waiting();
  std::vector<std::string> log;
  Client a("a", &log, &sched), b("b", &log, &sched), c("c", &log, &sched);
  Driver d("d");
  d.body = [&] {
    a.wake.notify(sc_time(5, SC_NS));
    b.wake.notify(sc_time(5, SC_NS));
    c.wake.notify(sc_time(5, SC_NS));
  };
  uint64_t a_resumed = 0;
  a.on_run = [&] {
    sc_core::wait(sc_core::SC_ZERO_TIME);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    a_resumed = sc_core::sc_delta_count();
    b.wake.notify(sc_core::SC_ZERO_TIME);  // b is due in this batch already: it runs again after it
  };
  sc_core::sc_start();
  EXPECT_EQ(times_of(log), (std::vector<std::string>{"a@5", "b@5", "c@5", "b@5"}));
  const auto delta = [](const std::string& s) { return std::stoull(s.substr(s.find('.') + 1)); };
  EXPECT_EQ(delta(log[1]), a_resumed);  // b ran after a's waits, in the delta a resumed in
  EXPECT_EQ(delta(log[2]), a_resumed);
  EXPECT_EQ(delta(log[3]), a_resumed + 1);
}

// Background clocks: a free-running sc_clock keeps the kernel from starving, so the blocks' own activity is
// read from next_wake(), and pause_when_idle() stops the kernel at the instant the blocks go idle: an
// sc_start with a far limit ends there, as it would by starvation without the clock.
TEST(WakeScheduler, NextWakeAndPauseWhenIdleTellTheBlocksFromABackgroundClock) {
  WakeScheduler sched("wake");
  sched.add_background_clock();
  sc_core::sc_clock clk("clk", sc_time(1, SC_NS), 0.5, sc_time(500, sc_core::SC_PS));
  std::vector<std::string> log;
  Client a("a", &log, &sched), b("b", &log, &sched);
  EXPECT_EQ(sched.background_clocks(), 1u);
  EXPECT_EQ(sched.next_wake(), WakeScheduler::kNever);
  a.wake.notify(sc_time(30, SC_NS));
  b.wake.notify(sc_time(12, SC_NS));
  b.wake.notify(sc_time(7, SC_NS));  // earlier: the 12 ns entry is stale
  EXPECT_EQ(sched.next_wake(), sc_time(7, SC_NS).value());
  b.on_run = [&] {
    if (sc_core::sc_time_stamp() < sc_time(20, SC_NS)) b.wake.notify_at_ps(20000);  // absolute 20 ns
  };
  sched.pause_when_idle();
  sc_core::sc_start(sc_time(10, SC_NS));  // runs b at 7 ns; b's next is 20 ns, a's 30 ns
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(10, SC_NS));
  EXPECT_EQ(sched.next_wake(), sc_time(20, SC_NS).value());
  EXPECT_TRUE(sc_core::sc_pending_activity());  // the clock
  sc_core::sc_start(sc_time(1, sc_core::SC_MS));
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(30, SC_NS));  // paused where the blocks went idle
  EXPECT_EQ(sched.next_wake(), WakeScheduler::kNever);
  EXPECT_TRUE(sc_core::sc_pending_activity());
  EXPECT_EQ(times_of(log), (std::vector<std::string>{"b@7", "b@20", "a@30"}));
}

// A waiting block may wait delta cycles only: one that lets simulated time pass would leave the rest of its
// batch at a stale time, and the scheduler reports it.
TEST(WakeScheduler, WaitingBlockThatLetsTimePassIsALogicError) {
  WakeScheduler sched("wake");
  sched.allow_waiting();
  std::vector<std::string> log;
  Client a("a", &log, &sched);
  a.on_run = [] { sc_core::wait(sc_time(1, SC_NS)); };
  a.wake.notify(sc_time(5, SC_NS));
  std::string error;
  try {
    sc_core::sc_start();
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("a block let simulated time pass inside its run (at 6 ns)"), std::string::npos)
      << error;
}

// Prefetch hooks (Wakeup::set_prefetch): every hooked block of a batch gets its stages 0..3 in order,
// shortly before it runs (a few blocks ahead, not all at the start of the batch), blocks without a hook get
// nothing, and the run order stays the notification order.
namespace {
std::vector<std::string>* g_prefetch_log = nullptr;
struct Hooked {
  Client client;
  Hooked(std::string n, std::vector<std::string>* l, WakeScheduler* s) : client(std::move(n), l, s) {
    client.wake.set_prefetch([](void* o, unsigned stage) {
      g_prefetch_log->push_back("pre:" + static_cast<Client*>(o)->name + ":" + std::to_string(stage));
    });
  }
};
}  // namespace

TEST(WakeScheduler, PrefetchHooksRunInStageOrderShortlyBeforeTheirBlock) {
  WakeScheduler sched("wake");
  std::vector<std::string> log;
  g_prefetch_log = &log;
  std::vector<std::unique_ptr<Hooked>> hooked;
  std::vector<std::unique_ptr<Client>> plain;
  std::vector<Wakeup*> order;
  for (int i = 0; i < 40; ++i) {
    const std::string n = "b" + std::to_string(i);
    if (i % 3 == 2) {
      plain.push_back(std::make_unique<Client>(n, &log, &sched));
      order.push_back(&plain.back()->wake);
    } else {
      hooked.push_back(std::make_unique<Hooked>(n, &log, &sched));
      order.push_back(&hooked.back()->client.wake);
    }
  }
  Driver d("d");
  d.body = [&] {
    for (Wakeup* w : order) w->notify(sc_time(5, SC_NS));
  };
  sc_core::sc_start();
  // Runs in notification order.
  std::vector<std::string> runs;
  for (const auto& s : log)
    if (s.rfind("pre:", 0) != 0) runs.push_back(s.substr(0, s.find('@')));
  ASSERT_EQ(runs.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(runs[size_t(i)], "b" + std::to_string(i));
  for (int i = 0; i < 40; ++i) {
    const std::string n = "b" + std::to_string(i);
    const auto run_at = size_t(
        std::find_if(log.begin(), log.end(), [&](const std::string& s) { return s.rfind(n + "@", 0) == 0; }) -
        log.begin());
    std::vector<size_t> stage_at;
    for (unsigned s = 0; s < 4; ++s) {
      const std::string want = "pre:" + n + ":" + std::to_string(s);
      EXPECT_EQ(std::count(log.begin(), log.end(), want), i % 3 == 2 ? 0 : 1) << want;
      stage_at.push_back(size_t(std::find(log.begin(), log.end(), want) - log.begin()));
    }
    if (i % 3 == 2) continue;
    for (unsigned s = 1; s < 4; ++s) EXPECT_LT(stage_at[s - 1], stage_at[s]) << n;
    EXPECT_LT(stage_at[3], run_at) << n;
    // Shortly before: stage s comes exactly kPrefetchAhead[s] runs before the block's own (the first
    // blocks of the batch: before the batch starts).
    const auto runs_between = [&](size_t from, size_t to) {
      return size_t(std::count_if(log.begin() + long(from), log.begin() + long(to),
                                  [](const std::string& s) { return s.rfind("pre:", 0) != 0; }));
    };
    for (unsigned s = 0; s < 4; ++s)
      EXPECT_EQ(runs_between(stage_at[s], run_at),
                std::min<size_t>(size_t(i), WakeScheduler::kPrefetchAhead[s]))
          << n << " stage " << s;
  }
}

// A batch shorter than kPrefetchMinBatch runs its blocks without their hooks (few blocks: their state is
// warm, and no stage would get its lead); one of exactly that length runs every stage of every block.
TEST(WakeScheduler, ShortBatchesRunNoPrefetchHooks) {
  WakeScheduler sched("wake");
  std::vector<std::string> log;
  g_prefetch_log = &log;
  const size_t n_short = WakeScheduler::kPrefetchMinBatch - 1, n_full = WakeScheduler::kPrefetchMinBatch;
  std::vector<std::unique_ptr<Hooked>> hooked;
  for (size_t i = 0; i < n_short + n_full; ++i)
    hooked.push_back(std::make_unique<Hooked>("b" + std::to_string(i), &log, &sched));
  Driver d("d");
  d.body = [&] {
    for (size_t i = 0; i < n_short; ++i) hooked[i]->client.wake.notify(sc_time(5, SC_NS));
    for (size_t i = n_short; i < n_short + n_full; ++i) hooked[i]->client.wake.notify(sc_time(9, SC_NS));
  };
  sc_core::sc_start();
  const auto count = [&](const std::string& prefix) {
    return size_t(
        std::count_if(log.begin(), log.end(), [&](const std::string& s) { return s.rfind(prefix, 0) == 0; }));
  };
  size_t runs = 0;
  for (size_t i = 0; i < n_short + n_full; ++i) {
    const std::string n = "b" + std::to_string(i);
    runs += count(n + "@");
    EXPECT_EQ(count("pre:" + n + ":"), i < n_short ? 0u : size_t(WakeScheduler::kPrefetchStages)) << n;
  }
  EXPECT_EQ(runs, n_short + n_full);
}

// cancel() drops a pending notification, timed or delta: between kernel runs the kernel then has nothing
// pending for it (a run's end is not held open by a cancelled timer), and from inside a run the cancelled
// block does not run while the others still do.
TEST(WakeScheduler, CancelDropsTheNotificationAndTheKernelEvent) {
  WakeScheduler sched("wake");
  std::vector<std::string> log;
  Client a("a", &log, &sched), b("b", &log, &sched), c("c", &log, &sched);
  Driver d("d");
  d.body = [&] {
    a.wake.notify(sc_time(5, SC_NS));
    b.wake.notify(sc_time(1000000, SC_NS));  // a far timer, cancelled between kernel runs below
    c.wake.notify(sc_core::SC_ZERO_TIME);
    c.wake.cancel();  // a delta notification, cancelled inside the run
  };
  sc_core::sc_start(sc_time(10, SC_NS));
  EXPECT_EQ(times_of(log), (std::vector<std::string>{"a@5"}));
  EXPECT_TRUE(sc_core::sc_pending_activity());
  EXPECT_EQ(sched.next_wake(), sc_time(1000000, SC_NS).value());
  b.wake.cancel();
  EXPECT_EQ(sched.next_wake(), WakeScheduler::kNever);
  EXPECT_FALSE(sc_core::sc_pending_activity());
  b.wake.notify(sc_time(3, SC_NS));  // usable again after a cancel
  sc_core::sc_start();
  EXPECT_EQ(times_of(log), (std::vector<std::string>{"a@5", "b@13"}));
}
