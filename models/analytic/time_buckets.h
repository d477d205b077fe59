// Calendar (bucket) queue over time stamps, replacing the model's binary heaps: the times pending at once
// span a few hundred stamps (a memory latency), so a ring of per-time buckets gives O(1) push and pop.
// Items due at the same time come out in push order; every queue of the model pushes in issue order, so
// this is exactly the (time, issue sequence) order of the heaps it replaces. All pending times lie in
// [base_, base_ + ring size), one time per bucket, and a bit per bucket says which are not empty, so that
// idle stretches are skipped a word at a time. The ring doubles when a push lies further ahead, up to
// kMaxRing buckets. Items further ahead (huge configured latencies) wait in a heap and move into the ring
// when their time comes within its reach, before any later push can reach that bucket: order is kept.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace gms {

template <class T>
class TimeBuckets {
 public:
  TimeBuckets() : ring_(256), bits_(4), mask_(255) {}
  bool empty() const { return count_ == 0 && far_.empty(); }
  size_t size() const { return count_ + far_.size(); }

  // An item due at `time`. A time already drained (before base_) is due at once: it goes to the
  // earliest bucket and comes out with the next drain.
  void push(uint64_t time, const T& x) {
    if (time < base_) time = base_;
    if (time - base_ > mask_) {
      if (time - base_ >= kMaxRing) {
        far_.push({time, far_seq_++, x});
        return;
      }
      grow(time - base_);
    }
    put(time, x);
  }
  // True if an item is due at the earliest time not drained yet.
  // (next_ == base_ would do only after a drain; the bit is exact at any time.)
  bool any_at_base() const { return (bits_[(base_ & mask_) >> 6] >> (base_ & 63)) & 1; }
  // Calls f on each item due at the earliest time not drained yet, in push order; f may modify them.
  template <class F>
  void visit_base(F&& f) {
    if (any_at_base())
      for (T& x : ring_[base_ & mask_]) f(x);
  }
  // Earliest pending time (not empty).
  uint64_t min_time() const { return count_ ? first_time() : far_.top().time; }
  // Hands every item due before `limit` to f in (time, push) order; f must not push. Later pushes
  // before `limit` count as due at once (see push).
  template <class F>
  void drain_before(uint64_t limit, F&& f) {
    if (next_ >= limit && far_.empty()) {  // nothing due (most calls): inlined, no call
      if (base_ < limit) base_ = limit;
      return;
    }
    drain_some_before(limit, f);
  }
  // Hands every item to f in (time, push) order, leaving base_ where it is.
  template <class F>
  void drain_all(F&& f) {
    for (uint64_t t = base_; count_; ++t) take(t, f);
    for (; !far_.empty(); far_.pop()) f(far_.top().x);
    next_ = kNone;
  }
  void clear() {
    for (auto& b : ring_) b.clear();
    std::fill(bits_.begin(), bits_.end(), 0);
    count_ = 0;
    next_ = kNone;
    far_ = {};
  }

 private:
  static constexpr uint64_t kMaxRing = uint64_t(1) << 16;
  static constexpr uint64_t kNone = ~uint64_t(0);
  struct Far {
    uint64_t time, seq;
    T x;
    bool operator>(const Far& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  // drain_before's work, out of line so that the common nothing-due check inlines at every caller.
  template <class F>
  __attribute__((noinline)) void drain_some_before(uint64_t limit, F& f) {
    if (!far_.empty()) return drain_far_before(limit, f);
    while (next_ < limit) {
      const uint64_t t = next_;
      take(t, f);
      base_ = t + 1;
      next_ = count_ ? first_time() : kNone;
    }
    if (base_ < limit) base_ = limit;
  }
  void put(uint64_t time, const T& x) {
    const uint64_t i = time & mask_;
    ring_[i].push_back(x);
    bits_[i >> 6] |= uint64_t(1) << (i & 63);
    ++count_;
    if (time < next_) next_ = time;
  }
  // Hands the items due at `time` to f.
  template <class F>
  void take(uint64_t time, F& f) {
    const uint64_t i = time & mask_;
    std::vector<T>& b = ring_[i];
    count_ -= b.size();
    for (const T& x : b) f(x);
    b.clear();
    bits_[i >> 6] &= ~(uint64_t(1) << (i & 63));
  }
  // Earliest time in the ring (count_ > 0): the first non-empty bucket from base_, circularly.
  uint64_t first_time() const {
    const uint64_t start = base_ & mask_, last_word = mask_ >> 6;  // ring size: a multiple of 64
    uint64_t w = start >> 6, b = bits_[w] & (~uint64_t(0) << (start & 63));
    while (!b) b = bits_[w = (w + 1) & last_word];  // back at the start word: its low bits are later
    return base_ + (((w << 6) + uint64_t(__builtin_ctzll(b)) - start) & mask_);
  }
  // Moves the far items that the ring now reaches into it (in (time, push) order).
  void admit_far() {
    while (!far_.empty() && far_.top().time - base_ < kMaxRing) {
      const Far& f = far_.top();
      if (f.time - base_ > mask_) grow(f.time - base_);
      put(f.time, f.x);
      far_.pop();
    }
  }
  // drain_before with far items: one time at a time, jumping over empty stretches.
  template <class F>
  void drain_far_before(uint64_t limit, F& f) {
    while (base_ < limit && (count_ || !far_.empty())) {
      if (!count_ && far_.top().time - base_ >= kMaxRing) {
        base_ = std::min(limit, far_.top().time - (kMaxRing - 1));
        admit_far();
        continue;
      }
      admit_far();
      take(base_, f);
      ++base_;
    }
    if (base_ < limit) base_ = limit;
    admit_far();
    next_ = count_ ? first_time() : kNone;
  }
  void grow(uint64_t span) {
    size_t n = ring_.size();
    while (n - 1 < span) n *= 2;
    std::vector<std::vector<T>> r(n);
    std::vector<uint64_t> bits(n / 64);
    for (uint64_t t = base_; t < base_ + ring_.size(); ++t) {
      const uint64_t i = t & (n - 1);
      r[i] = std::move(ring_[t & mask_]);
      if (!r[i].empty()) bits[i >> 6] |= uint64_t(1) << (i & 63);
    }
    ring_ = std::move(r);
    bits_ = std::move(bits);
    mask_ = n - 1;
  }

  std::vector<std::vector<T>> ring_;
  std::vector<uint64_t> bits_;  // bit i: ring_[i] not empty
  uint64_t mask_;
  uint64_t base_ = 0;      // earliest time not drained yet
  size_t count_ = 0;       // items in the ring
  uint64_t next_ = kNone;  // earliest time in the ring (kNone: empty), so that most drains cost a compare
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
  uint64_t far_seq_ = 0;
};

}  // namespace gms
