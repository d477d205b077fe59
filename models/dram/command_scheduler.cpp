#include "models/dram/command_scheduler.h"

#include <algorithm>

namespace gms {

CommandScheduler::CommandScheduler(const DramParams& p, DramTiming& timing)
    : policy_(p.scheduler),
      timing_(timing),
      slots_(p.queue_size),
      bank_queue_(p.banks),
      cand_(p.banks),
      active_at_(p.banks, 0) {
  free_.reserve(p.queue_size);
  for (size_t i = p.queue_size; i-- > 0;) free_.push_back(int16_t(i));
  for (auto& q : bank_queue_) q.reserve(p.queue_size);
  active_.reserve(p.banks);
}

static bool conflicts(const DramRequest& a, const DramRequest& b) {
  return a.line == b.line && (a.write || b.write);
}

void CommandScheduler::push(const DramRequest& r) {
  int16_t s = free_.back();
  free_.pop_back();
  Slot& n = slots_[size_t(s)];
  n.r = r;
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
  }
  q.push_back(s);
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
  q.erase(it);
  if (q.empty()) {
    uint32_t pos = active_at_[b], last = active_.back();
    active_[pos] = last;
    active_at_[last] = pos;
    active_.pop_back();
  }
  free_.push_back(s);
  --count_;
}

void CommandScheduler::refresh(uint32_t b) {
  Candidates& k = cand_[b];
  k = Candidates();
  const auto& q = bank_queue_[b];
  if (q.empty()) return;
  const bool open = timing_.is_open(b);
  const uint64_t open_row = timing_.open_row(b);
  const uint64_t col = timing_.bank_col_ready(b);
  auto set = [&](Candidate& x, int16_t s, Kind kind, uint64_t bank_part) {
    const Slot& sl = slots_[size_t(s)];
    x.slot = s;
    x.kind = kind;
    x.seq = sl.seq;
    x.ready = std::max(bank_part, sl.r.arrival);
  };
  bool any_hit = false;
  if (policy_ == SchedulerPolicy::FrFcfs) {
    for (int16_t s : q) {
      const DramRequest& r = slots_[size_t(s)].r;
      if (!open || r.row != open_row) continue;
      any_hit = true;
      if (r.deps) continue;
      Candidate& x = k.c[r.write ? 1 : 0];
      if (x.slot == kNone) set(x, s, r.write ? kWrite : kRead, col);
    }
  } else {  // FCFS: only the bank's oldest request; its column command waits to be the oldest overall
    const DramRequest& r = slots_[size_t(q.front())].r;
    if (open && r.row == open_row) {
      any_hit = true;
      set(k.c[r.write ? 1 : 0], q.front(), r.write ? kWrite : kRead, col);
    }
  }
  if (!any_hit)  // FR-FCFS never closes a row that queued requests still hit
    set(k.c[2], q.front(), open ? kPre : kAct, open ? timing_.bank_pre_ready(b) : timing_.bank_act_ready(b));
}

void CommandScheduler::channel_ready(uint64_t ch[kKinds]) const {
  ch[kRead] = timing_.channel_read_ready();
  ch[kWrite] = timing_.channel_write_ready();
  ch[kPre] = timing_.channel_pre_ready();
  ch[kAct] = timing_.channel_act_ready();
}

uint64_t CommandScheduler::bank_ready(uint32_t b, const uint64_t ch[kKinds]) const {
  uint64_t t = kNever;
  for (const Candidate& x : cand_[b].c)
    if (x.slot != kNone) t = std::min(t, std::max(x.ready, ch[x.kind]));
  return t;
}

IssueResult CommandScheduler::step(uint64_t c) {
  IssueResult res;
  scan(c, true, &res);
  return res;
}

uint64_t CommandScheduler::next_ready(uint64_t c) {
  if (!cache_valid_) {
    cached_next_ = scan(c, false, nullptr);
    cache_valid_ = true;
  }
  return cached_next_ == kNever ? kNever : std::max(cached_next_, c);
}

uint64_t CommandScheduler::scan(uint64_t c, bool issue, IssueResult* out) {
  if (!count_) return kNever;
  uint64_t ch[kKinds];
  channel_ready(ch);
  const bool fcfs = policy_ == SchedulerPolicy::Fcfs;
  uint64_t oldest = kNoSeq;  // FCFS: only the oldest request overall may use the data bus
  if (fcfs)
    for (uint32_t b : active_) oldest = std::min(oldest, slots_[size_t(bank_queue_[b].front())].seq);
  uint64_t best = kNever;
  KindMin mins[kKinds];
  const Candidate *col = nullptr, *row = nullptr;
  for (uint32_t b : active_) {
    const Candidates& k = cand_[b];
    for (unsigned i = 0; i < 3; ++i) {
      const Candidate& x = k.c[i];
      if (x.slot == kNone || (fcfs && i < 2 && x.seq != oldest)) continue;
      const uint64_t t = std::max(x.ready, ch[x.kind]);
      best = std::min(best, t);
      mins[x.kind].add(x.ready, b);
      const Candidate*& pick = (i < 2) ? col : row;
      if (t <= c && (!pick || x.seq < pick->seq)) pick = &x;
    }
  }
  if (!issue) return best;
  // Row hits first (oldest first), then row commands (oldest first).
  const Candidate* chosen = col ? col : row;
  if (!chosen) {  // nothing ready: the answer holds until something changes
    cached_next_ = best;
    cache_valid_ = true;
    return best;
  }
  const uint32_t b = slots_[size_t(chosen->slot)].r.bank;
  *out = col ? issue_column(chosen->slot, c) : issue_row(chosen->slot, c);
  if (fcfs) {  // the oldest request may have changed: rescan when asked
    cache_valid_ = false;
    return best;
  }
  // Only bank b's candidates and the channel's shares changed.
  channel_ready(ch);
  uint64_t next = bank_ready(b, ch);
  for (unsigned kind = 0; kind < kKinds; ++kind) {
    uint64_t v = mins[kind].without(b);
    if (v != kNever) next = std::min(next, std::max(v, ch[kind]));
  }
  cached_next_ = next;
  cache_valid_ = true;
  return best;
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
  }
  refresh(b);
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
  refresh(b);
  return res;
}

}  // namespace gms
