#include "models/dram/command_scheduler.h"

#include <algorithm>
#include <stdexcept>

#include "models/common/prefetch.h"

namespace gms {

CommandScheduler::CommandScheduler(const DramParams& p, DramTiming& timing)
    : policy_(p.scheduler),
      timing_(timing),
      slots_(p.queue_size),
      bank_queue_(p.banks),
      cand_(p.banks),
      cand_slot_(p.banks, kNoSlots),
      kinds_(p.banks, {0, 0}),
      active_at_(p.banks, 0),
      active_bits_((p.banks + 63) / 64, 0) {
  free_.reserve(p.queue_size);
  for (auto& o : ordered_) o.reserve(2 * size_t(p.queue_size));
  for (size_t i = p.queue_size; i-- > 0;) free_.push_back(int16_t(i));
  for (auto& q : bank_queue_) q.reserve(p.queue_size);
  active_.reserve(p.banks);
  if (policy_ == SchedulerPolicy::FrFcfs)
    for (auto& t : ready_min_) t = MinTree(p.banks);
}

static bool conflicts(const DramRequest& a, const DramRequest& b) {
  return a.line == b.line && (a.write || b.write);
}

void CommandScheduler::push(const DramRequest& r) {
  int16_t s = free_.back();
  free_.pop_back();
  Slot& n = slots_[size_t(s)];
  n.r = r;
  if (next_seq_ == kMaxSeq)
    throw std::logic_error("DRAM command scheduler: request sequence numbers exhausted");
  n.seq = next_seq_++;
  n.r.bursts_total = r.bursts;
  n.r.deps = 0;
  n.r.row_class = RowClass::Hit;
  auto& q = bank_queue_[r.bank];
  // A line lives in one bank, so only this bank's requests can be same-line hazards.
  for (int16_t o : q)
    if (conflicts(slots_[size_t(o)].r, n.r)) ++n.r.deps;
  if (q.empty()) {
    active_at_[r.bank] = uint32_t(active_.size());
    active_.push_back(r.bank);
    active_bits_[r.bank >> 6] |= uint64_t(1) << (r.bank & 63);
  }
  q.push_back(s);
  ++kinds_[r.bank][r.write ? kWrite : kRead];
  ++count_;
  refresh(r.bank);
  if (cache_valid_) {  // only this bank's candidates changed; a stale earlier value is a safe lower bound
    uint64_t ch[kKinds];
    channel_ready(ch);
    cached_next_ = std::min(cached_next_, bank_ready(r.bank, ch));
  }
}

void CommandScheduler::remove(int16_t s) {
  const DramRequest& gone = slots_[size_t(s)].r;
  const uint32_t b = gone.bank;
  auto& q = bank_queue_[b];
  auto it = std::find(q.begin(), q.end(), s);
  // Every queued request that counted `gone` is younger (an older conflicting one would have blocked it).
  for (auto j = it + 1; j != q.end(); ++j) {
    DramRequest& o = slots_[size_t(*j)].r;
    if (conflicts(o, gone)) --o.deps;
  }
  --kinds_[b][gone.write ? kWrite : kRead];
  q.erase(it);
  if (q.empty()) {
    uint32_t pos = active_at_[b], last = active_.back();
    active_[pos] = last;
    active_at_[last] = pos;
    active_.pop_back();
    active_bits_[b >> 6] &= ~(uint64_t(1) << (b & 63));
  }
  free_.push_back(s);
  --count_;
}

void CommandScheduler::refresh(uint32_t b) {
  Candidates k;
  Slots ks = kNoSlots;
  const auto& q = bank_queue_[b];
  if (!q.empty()) {
    const bool open = timing_.is_open(b);
    const uint64_t open_row = timing_.open_row(b);
    const uint64_t col = timing_.bank_col_ready(b);
    auto set = [&](int16_t s, Kind kind, uint64_t bank_part) {
      const Slot& sl = slots_[size_t(s)];
      ks[kind] = s;
      k.seq[kind] = sl.seq;
      k.ready[kind] = std::max(bank_part, sl.r.arrival);
    };
    bool any_hit = false;
    if (policy_ == SchedulerPolicy::FrFcfs) {
      for (int16_t s : q) {
        const DramRequest& r = slots_[size_t(s)].r;
        if (!open || r.row != open_row) continue;
        any_hit = true;
        if (r.deps) continue;
        const Kind kind = r.write ? kWrite : kRead;
        if (ks[kind] == kNone) set(s, kind, col);
        // Stop once every kind the bank holds has its candidate: the rest are younger.
        if ((ks[kRead] != kNone || !kinds_[b][kRead]) && (ks[kWrite] != kNone || !kinds_[b][kWrite])) break;
      }
    } else {  // FCFS: only the bank's oldest request; its column command waits to be the oldest overall
      const DramRequest& r = slots_[size_t(q.front())].r;
      if (open && r.row == open_row) {
        any_hit = true;
        set(q.front(), r.write ? kWrite : kRead, col);
      }
    }
    if (!any_hit)  // FR-FCFS never closes a row that queued requests still hit
      set(q.front(), open ? kPre : kAct, open ? timing_.bank_pre_ready(b) : timing_.bank_act_ready(b));
  }
  commit(b, k, ks);
}

void CommandScheduler::commit(uint32_t b, const Candidates& k, const Slots& ks) {
  // Keep the minima exact: FR-FCFS through the trees; FCFS's oldest request may have changed, so its
  // minima wait for a pass.
  Candidates& old = cand_[b];
  if (policy_ == SchedulerPolicy::FrFcfs) {
    for (unsigned i = 0; i < kKinds; ++i)
      if (k.ready[i] != old.ready[i]) {
        ready_min_[i].set(b, k.ready[i]);
        min_[i] = ready_min_[i].min();
      }
    reorder(old, k, ks);
  } else {
    mins_valid_ = false;
  }
  old = k;
  cand_slot_[b] = ks;
}

void CommandScheduler::retime(uint32_t b, Kind first, Kind last) {
  Candidates k = cand_[b];
  for (unsigned i = first; i <= last; ++i) {
    if (k.seq[i] == kNoSeq) continue;
    const uint64_t share = i == kAct ? timing_.bank_act_ready(b) : timing_.bank_col_ready(b);
    k.ready[i] = std::max(share, k.ready[i]);
  }
  commit(b, k, cand_slot_[b]);
}

void CommandScheduler::reorder(const Candidates& old, const Candidates& now, const Slots& slots) {
  const auto by_seq = [](const Ordered& o, uint64_t seq) { return seq_of(o) < seq; };
  for (unsigned i = 0; i < kKinds; ++i) {
    if (old.seq[i] == now.seq[i] && old.ready[i] == now.ready[i]) continue;
    auto& list = ordered_[i >= kPre];
    if (old.seq[i] == now.seq[i]) {  // the same request, ready at another cycle
      std::lower_bound(list.begin(), list.end(), now.seq[i], by_seq)->ready = now.ready[i];
      continue;
    }
    if (old.seq[i] != kNoSeq) list.erase(std::lower_bound(list.begin(), list.end(), old.seq[i], by_seq));
    if (now.seq[i] != kNoSeq)
      list.insert(std::lower_bound(list.begin(), list.end(), now.seq[i], by_seq),
                  ordered(now.seq[i], now.ready[i], slots[i], Kind(i)));
  }
}

void CommandScheduler::recompute_mins() {
  // FCFS only: FR-FCFS keeps its minima exact in ready_min_ and never marks them stale.
  oldest_ = kNoSeq;
  for (uint32_t b : active_) oldest_ = std::min(oldest_, slots_[size_t(bank_queue_[b].front())].seq);
  for (uint64_t& m : min_) m = kNever;
  for (uint32_t b : active_) {
    const Candidates& k = cand_[b];
    for (unsigned i = 0; i < kKinds; ++i)
      if (i >= kPre || k.seq[i] == oldest_) min_[i] = std::min(min_[i], k.ready[i]);
  }
  mins_valid_ = true;
}

int16_t CommandScheduler::pick(Kind a, Kind b, uint64_t c, const uint64_t ch[kKinds]) const {
  const bool ok_a = std::max(min_[a], ch[a]) <= c, ok_b = std::max(min_[b], ch[b]) <= c;
  if (!ok_a && !ok_b) return kNone;
  if (policy_ == SchedulerPolicy::FrFcfs) {  // the oldest candidate of the pair ready at c
    for (const Ordered& o : ordered_[a >= kPre])
      if ((kind_of(o) == a ? ok_a : ok_b) && o.ready <= c) return slot_of(o);
    return kNone;
  }
  const bool oldest_only = policy_ == SchedulerPolicy::Fcfs && a == kRead;  // column commands
  uint64_t seq = kNoSeq;
  uint32_t best_bank = 0;
  Kind best_kind = a;
  auto consider = [&](const Candidates& k, uint32_t bank, Kind i) {
    if (k.ready[i] <= c && k.seq[i] < seq && (!oldest_only || k.seq[i] == oldest_)) {
      seq = k.seq[i];
      best_bank = bank;
      best_kind = i;
    }
  };
  for (uint32_t bank : active_) {
    const Candidates& k = cand_[bank];
    if (ok_a) consider(k, bank, a);
    if (ok_b) consider(k, bank, b);
  }
  return seq == kNoSeq ? kNone : cand_slot_[best_bank][best_kind];
}

IssueResult CommandScheduler::step(uint64_t c) {
  IssueResult res;
  if (!count_) return res;
  uint64_t ch[kKinds];
  channel_ready(ch);
  const uint64_t best = earliest(ch);
  if (best > c) {  // nothing ready: the answer holds until something changes
    cached_next_ = best;
    cache_valid_ = true;
    return res;
  }
  // Row hits first (oldest first), then row commands (oldest first).
  const int16_t col = pick(kRead, kWrite, c, ch);
  res = col != kNone ? issue_column(col, c) : issue_row(pick(kPre, kAct, c, ch), c);
  if (policy_ == SchedulerPolicy::Fcfs) {  // the oldest request may have changed: recompute when asked
    cache_valid_ = false;
    return res;
  }
  channel_ready(ch);
  cached_next_ = earliest(ch);
  cache_valid_ = true;
  return res;
}

uint64_t CommandScheduler::next_ready(uint64_t c) {
  if (!cache_valid_) {
    uint64_t ch[kKinds];
    channel_ready(ch);
    cached_next_ = count_ ? earliest(ch) : kNever;
    cache_valid_ = true;
  }
  return cached_next_ == kNever ? kNever : std::max(cached_next_, c);
}

IssueResult CommandScheduler::issue_column(int16_t s, uint64_t c) {
  DramRequest& r = slots_[size_t(s)].r;
  const uint32_t b = r.bank;
  IssueResult res;
  res.cmd = r.write ? DramCommand::Write : DramCommand::Read;
  res.first_burst = (r.bursts == r.bursts_total);
  res.data_end = r.write ? timing_.issue_write(b, c) : timing_.issue_read(b, c);
  --r.bursts;
  res.req = r;
  if (r.bursts == 0) {
    res.finished = true;
    remove(s);
    if (!timing_.groups()) refresh(b);
  }
  // Without bank groups the bank's candidates otherwise stand: the request stays its oldest row hit, a
  // read or write changes no column readiness of its bank, and it keeps any PRE from being a candidate.
  // With groups, tCCDL moved the column readiness of every bank of the group.
  if (timing_.groups()) refresh_group(b, kRead, kWrite);
  return res;
}

IssueResult CommandScheduler::issue_row(int16_t s, uint64_t c) {
  DramRequest& r = slots_[size_t(s)].r;
  const uint32_t b = r.bank;
  IssueResult res;
  if (timing_.is_open(b)) {
    timing_.issue_pre(b, c);
    r.row_class = RowClass::Conflict;
    res.cmd = DramCommand::Pre;
  } else {
    timing_.issue_act(b, r.row, c);
    if (r.row_class == RowClass::Hit) r.row_class = RowClass::Miss;
    res.cmd = DramCommand::Act;
  }
  res.req = r;
  if (res.cmd == DramCommand::Act && timing_.groups())
    refresh_group(b, kAct, kAct);  // tRRDL moved the ACT readiness of the whole group
  else
    refresh(b);
  return res;
}

void CommandScheduler::refresh_group(uint32_t bank, Kind first, Kind last) {
  const uint32_t step = timing_.group_count();
  for (uint32_t b = timing_.group_of(bank); b < bank_queue_.size(); b += step) {
    if (b == bank)
      refresh(b);
    else if (active(b))  // an empty bank has no candidates to move
      retime(b, first, last);
  }
}

void CommandScheduler::prefetch(unsigned stage) const {
  if (stage == 0) {
    prefetch_hint(&count_);
    prefetch_object(ordered_);
    prefetch_hint(&slots_);
    return;
  }
  if (!count_) return;
  for (const auto& list : ordered_) {  // the oldest candidate: pick() and the issue read it
    if (list.empty()) continue;
    if (stage == 1) {
      prefetch_hint(list.data());
    } else {
      const DramRequest& r = slots_[size_t(slot_of(list.front()))].r;
      if (stage == 2)
        prefetch_hint(&r);
      else
        timing_.prefetch_bank(r.bank);
    }
  }
}

}  // namespace gms
