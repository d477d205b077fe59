// The calendar queue of the model's timing (models/analytic/time_buckets.h) hands items out exactly as the
// binary heaps it replaced: by time, then in push order; with drains interleaved as the model does them,
// pushes of already drained times, ring growth and far-future items.
#include <gtest/gtest.h>

#include <queue>
#include <tuple>
#include <vector>

#include "models/analytic/time_buckets.h"
#include "models/common/rng.h"

using namespace gms;

namespace {

TEST(TimeBuckets, SameOrderAsATimeThenSequenceHeap) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    TimeBuckets<uint64_t> q;
    using Item = std::tuple<uint64_t, uint64_t>;  // (due time, sequence)
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> ref;
    uint64_t now = 0, seq = 0;
    const uint64_t spread = seed % 4 == 0 ? 200000 : seed % 2 ? 300 : 3000;  // far items, ring growth
    for (int step = 0; step < 20000; ++step) {
      for (uint64_t k = rng.below(3); k; --k) {
        const uint64_t t = now + rng.below(spread);
        q.push(t, seq);
        ref.push({t, seq++});
      }
      now += rng.chance(0.05) ? rng.below(5000) : rng.below(3);
      std::vector<uint64_t> got, want;
      q.drain_before(now, [&](uint64_t x) { got.push_back(x); });
      for (; !ref.empty() && std::get<0>(ref.top()) < now; ref.pop()) want.push_back(std::get<1>(ref.top()));
      ASSERT_EQ(got, want) << "seed " << seed << " step " << step;
      ASSERT_EQ(q.size(), ref.size());
      if (!ref.empty()) {
        ASSERT_EQ(q.min_time(), std::get<0>(ref.top()));
      }
    }
    std::vector<uint64_t> got, want;
    q.drain_all([&](uint64_t x) { got.push_back(x); });
    for (; !ref.empty(); ref.pop()) want.push_back(std::get<1>(ref.top()));
    EXPECT_EQ(got, want);
    EXPECT_TRUE(q.empty());
  }
}

// A push for a time already drained is due at once (the MSHR releases of zero-latency misses).
TEST(TimeBuckets, PastTimesAreDueAtTheNextDrain) {
  TimeBuckets<int> q;
  q.drain_before(100, [](int) {});
  q.push(50, 1);
  q.push(100, 2);
  std::vector<int> got;
  q.drain_before(101, [&](int x) { got.push_back(x); });
  EXPECT_EQ(got, (std::vector<int>{1, 2}));
}

}  // namespace
