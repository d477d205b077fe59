// The channel's bounded request queue and its command scheduler. Each call of step() issues at most one
// DRAM command (PRE, ACT, RD or WR) in the given cycle:
//  - column commands (RD/WR) of requests whose row is open: FR-FCFS takes the oldest such row hit,
//    FCFS only the oldest request of the whole queue (column commands strictly in arrival order);
//  - otherwise a row command (PRE/ACT) for the oldest request of some bank, oldest first, so other
//    banks open their rows while a request waits (bank parallelism). FR-FCFS does not close a row
//    that queued requests still hit.
// Requests to the same line keep their order when either is a write (read-after-write safety).
// Candidates are cached per bank and refreshed only for the banks a change touches (the bank; with bank
// groups, after a RD/WR or ACT, the other banks of its group are retimed); per-kind minima over the banks
// make a cycle with nothing ready O(1). FR-FCFS keeps them in tournament trees (O(log banks) a refresh) and
// picks from arrival-ordered candidate lists; FCFS recomputes them over the banks with requests after a
// command. Nothing allocates after construction.
#pragma once
#include <tlm.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "models/common/min_tree.h"
#include "models/dram/dram_params.h"
#include "models/dram/dram_timing.h"

namespace gms {

enum class RowClass : uint8_t { Hit, Miss, Conflict };

struct DramRequest {
  tlm::tlm_generic_payload* t = nullptr;
  uint64_t addr = 0;  // global address of t's data[0]
  uint64_t line = 0;
  uint64_t row = 0;
  uint64_t arrival = 0;  // first cycle a command may issue for it
  uint32_t bank = 0;
  uint32_t len = 0;
  uint16_t port = 0;
  uint8_t chunks = 0;  // 32 B chunks of the line to transfer
  uint8_t bursts = 0;  // bursts still to issue
  bool write = false;
  // Scheduler bookkeeping.
  uint8_t bursts_total = 0;
  uint16_t deps = 0;  // older same-line requests it must not overtake
  RowClass row_class = RowClass::Hit;
};

enum class DramCommand : uint8_t { None, Pre, Act, Read, Write };

struct IssueResult {
  DramCommand cmd = DramCommand::None;
  bool first_burst = false;  // a column command opened this request's data transfer
  bool finished = false;     // its last burst issued: `req` left the queue
  uint64_t data_end = 0;     // cycle the burst's last beat completes (column commands)
  DramRequest req;           // the request the command served
};

class CommandScheduler {
 public:
  static constexpr uint64_t kNever = ~uint64_t(0);

  CommandScheduler(const DramParams& p, DramTiming& timing);

  bool full() const { return count_ == slots_.size(); }
  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  void push(const DramRequest& r);

  // Issues the best command ready in cycle c, if any.
  IssueResult step(uint64_t c);
  // Earliest cycle >= c at which some command could issue (kNever when the queue is empty).
  uint64_t next_ready(uint64_t c);
  // Wakeup prefetch hook stages (models/common/wake_scheduler.h): 0 this object, 1 the heads of the
  // candidate lists, 2 the requests they name. Reads, never writes.
  void prefetch(unsigned stage) const;

 private:
  static constexpr int16_t kNone = -1;
  static constexpr uint64_t kNoSeq = ~uint64_t(0);
  struct Slot {
    DramRequest r;
    uint64_t seq = 0;  // arrival order
  };
  // The channel-wide constraint a candidate waits for; also the candidate's index in a bank.
  enum Kind : uint8_t { kRead, kWrite, kPre, kAct, kKinds };
  // What a bank would do next, per kind: its oldest issuable row-hit read and write, or the request a
  // PRE or ACT is for, with the bank's share of its ready time (kNever: no such candidate). The
  // channel's share is the same for every bank, so max(bank share, channel share) is minimised by the
  // smallest bank share: the per-kind minima below give the next ready cycle in O(1).
  // Recomputed only when the bank's requests or state change.
  // One host cache line per bank: pick() reads the candidates of every bank with requests (HBM3 has 128
  // banks a channel); the slots, needed only for the winner, live apart in cand_slot_.
  struct alignas(64) Candidates {
    uint64_t ready[kKinds] = {kNever, kNever, kNever, kNever};
    uint64_t seq[kKinds] = {kNoSeq, kNoSeq, kNoSeq, kNoSeq};
  };
  using Slots = std::array<int16_t, kKinds>;
  static constexpr Slots kNoSlots = {kNone, kNone, kNone, kNone};

  // Inline: asked twice in every cycle a command issues.
  void channel_ready(uint64_t ch[kKinds]) const {
    ch[kRead] = timing_.channel_read_ready();
    ch[kWrite] = timing_.channel_write_ready();
    ch[kPre] = timing_.channel_pre_ready();
    ch[kAct] = timing_.channel_act_ready();
  }
  // Earliest cycle bank b's candidates can issue, given the channel's shares.
  uint64_t bank_ready(uint32_t b, const uint64_t ch[kKinds]) const {
    uint64_t t = kNever;
    for (unsigned i = 0; i < kKinds; ++i) t = std::min(t, std::max(cand_[b].ready[i], ch[i]));
    return t;
  }
  // Earliest cycle any candidate can issue, from the per-kind minima (recomputed first if stale).
  uint64_t earliest(const uint64_t ch[kKinds]) {
    if (!mins_valid_) recompute_mins();
    uint64_t t = kNever;
    for (unsigned i = 0; i < kKinds; ++i) t = std::min(t, std::max(min_[i], ch[i]));
    return t;
  }
  void recompute_mins();  // FCFS: a pass over the banks with requests
  // FR-FCFS: every bank's candidates of the column kinds (RD, WR) and of the row kinds (PRE, ACT), each
  // list ordered by arrival, with their ready cycles: pick() takes the first one ready instead of reading
  // the candidates of every bank with requests (HBM3 has 128 banks a channel, 40 channels: cold lines).
  // 16 B an entry (pick() scans them): the candidate's seq, slot and kind packed in one key, ordered by seq.
  struct Ordered {
    uint64_t ready;
    uint64_t key;  // seq << 18 | slot << 2 | kind
  };
  static constexpr unsigned kSeqShift = 18;
  static constexpr uint64_t kMaxSeq = uint64_t(1) << (64 - kSeqShift);
  static Ordered ordered(uint64_t seq, uint64_t ready, int16_t slot, Kind kind) {
    return {ready, seq << kSeqShift | uint64_t(uint16_t(slot)) << 2 | kind};
  }
  static uint64_t seq_of(const Ordered& o) { return o.key >> kSeqShift; }
  static int16_t slot_of(const Ordered& o) { return int16_t(uint16_t(o.key >> 2)); }
  static Kind kind_of(const Ordered& o) { return Kind(o.key & 3); }
  void reorder(const Candidates& old, const Candidates& now, const Slots& slots);
  // The oldest candidate of the given kinds ready at c (kNone if none).
  int16_t pick(Kind a, Kind b, uint64_t c, const uint64_t ch[kKinds]) const;
  void refresh(uint32_t bank);
  // refresh() for the bank; for every other bank of its group that holds requests, retime() of the kinds
  // whose group constraint the command moved (bank groups in force).
  void refresh_group(uint32_t bank, Kind first, Kind last);
  // A command to another bank of b's group raised the group's share of kinds [first, last] and changed
  // nothing else of b: its candidates stay (they depend on its queue and open row only) and each one's
  // ready cycle becomes max(new bank share, old ready cycle), which equals max(new bank share, arrival)
  // because bank shares never decrease. Saves refresh()'s walk over b's queue (cold requests).
  void retime(uint32_t b, Kind first, Kind last);
  void commit(uint32_t b, const Candidates& k, const Slots& ks);  // refresh()'s bookkeeping
  IssueResult issue_column(int16_t slot, uint64_t c);
  IssueResult issue_row(int16_t slot, uint64_t c);
  void remove(int16_t slot);

  const SchedulerPolicy policy_;
  DramTiming& timing_;
  std::vector<Slot> slots_;
  std::vector<int16_t> free_;
  size_t count_ = 0;
  uint64_t next_seq_ = 0;
  std::vector<std::vector<int16_t>> bank_queue_;  // per bank: its requests, oldest first
  std::vector<Candidates> cand_;
  std::vector<Slots> cand_slot_;                // per bank and kind: the candidate's slot (kNone: none)
  std::vector<std::array<uint16_t, 2>> kinds_;  // per bank: queued reads and writes
  std::vector<uint32_t> active_;                // banks with queued requests
  std::vector<uint32_t> active_at_;             // bank -> index in active_
  // The same set as bits: refresh_group() tests the group's banks in one host cache line instead of
  // reading each bank's queue header (HBM3: four banks 32 apart).
  std::vector<uint64_t> active_bits_;
  bool active(uint32_t b) const { return active_bits_[b >> 6] >> (b & 63) & 1; }
  std::vector<Ordered> ordered_[2];  // [0]: RD and WR candidates, [1]: PRE and ACT; by seq
  // Per kind: the smallest bank share over the candidates that may issue (FCFS: column commands only
  // for the oldest request). FR-FCFS: always exact, from ready_min_; FCFS: a pass over the banks when
  // a command or arrival made them stale.
  uint64_t min_[kKinds] = {kNever, kNever, kNever, kNever};
  MinTree ready_min_[kKinds];  // FR-FCFS: per kind, every bank's candidate ready cycle (cand_[b].ready)
  bool mins_valid_ = true;
  uint64_t oldest_ = kNoSeq;  // FCFS: seq of the oldest queued request (valid with the minima)
  // next_ready() without work while no request arrived and no command issued since the last one.
  uint64_t cached_next_ = kNever;
  bool cache_valid_ = false;
};

}  // namespace gms
