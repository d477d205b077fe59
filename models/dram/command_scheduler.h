// The channel's bounded request queue and its command scheduler. Each call of step() issues at most one
// DRAM command (PRE, ACT, RD or WR) in the given cycle:
//  - column commands (RD/WR) of requests whose row is open: FR-FCFS takes the oldest such row hit,
//    FCFS only the oldest request of the whole queue (column commands strictly in arrival order);
//  - otherwise a row command (PRE/ACT) for the oldest request of some bank, oldest first, so other
//    banks open their rows while a request waits (bank parallelism). FR-FCFS does not close a row
//    that queued requests still hit.
// Requests to the same line keep their order when either is a write (read-after-write safety).
// Candidates are cached per bank and refreshed only for the bank a change touches, so choosing a command
// costs O(banks with requests); nothing allocates after construction.
#pragma once
#include <tlm.h>

#include <cstdint>
#include <vector>

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

 private:
  static constexpr int16_t kNone = -1;
  static constexpr uint64_t kNoSeq = ~uint64_t(0);
  struct Slot {
    DramRequest r;
    uint64_t seq = 0;  // arrival order
  };
  // The channel-wide constraint a candidate waits for.
  enum Kind : uint8_t { kRead, kWrite, kPre, kAct, kKinds };
  // What a bank would do next: its oldest issuable row-hit read and write, or the request a PRE/ACT is
  // for, each with the bank's share of its ready time (the channel's share is added per scan).
  // Recomputed only when the bank's requests or state change.
  struct Candidate {
    int16_t slot = kNone;
    Kind kind = kRead;
    uint64_t seq = kNoSeq;
    uint64_t ready = 0;
  };
  struct Candidates {
    Candidate c[3];  // read, write, row command
  };
  // Minimum over banks of one kind's bank share, with its bank and the runner-up, so the next ready
  // cycle after issuing on a bank needs no rescan.
  struct KindMin {
    uint64_t first = kNever, second = kNever;
    uint32_t bank = 0;
    void add(uint64_t v, uint32_t b) {
      if (v < first) {
        second = first;
        first = v;
        bank = b;
      } else if (v < second) {
        second = v;
      }
    }
    uint64_t without(uint32_t b) const { return b == bank ? second : first; }
  };

  // With issue=true issues the best command ready at c into *out. Returns the earliest cycle any
  // candidate command becomes ready.
  uint64_t scan(uint64_t c, bool issue, IssueResult* out);
  void channel_ready(uint64_t ch[kKinds]) const;
  // Earliest cycle bank b's candidates can issue, given the channel's shares.
  uint64_t bank_ready(uint32_t b, const uint64_t ch[kKinds]) const;
  void refresh(uint32_t bank);
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
  std::vector<uint32_t> active_;     // banks with queued requests
  std::vector<uint32_t> active_at_;  // bank -> index in active_
  // next_ready() without a scan while no request arrived and no command issued since the last one.
  uint64_t cached_next_ = kNever;
  bool cache_valid_ = false;
};

}  // namespace gms
