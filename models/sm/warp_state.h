// Per-SM bookkeeping of resident CTAs, warps, instructions awaiting responses and line requests in flight.
// Flat arrays with free lists: nothing is allocated per instruction or per request.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/workload.h"

namespace gms {

// A warp's list of loads in flight that the observer has not been told of, oldest first
// (SmCore::announce_loads): at most kMax, then they are announced. 32 B: half a host cache line.
struct UnannouncedLoads {
  static constexpr uint32_t kMax = 7;
  uint32_t n = 0;
  uint32_t inst[kMax];  // InstRecord indices
};

// Laid out for the response path, which finds a warp cold in host caches with thousands of requests in
// flight (the H100 preset): what it reads and writes fills the first two host cache lines, which the
// request names for the L1 to prefetch (MemReq::origin_state); the rest is read at issue.
struct alignas(64) WarpSlot {
  // Line 1: counts, identity, scoreboard.
  uint32_t in_flight = 0;  // line requests sent, response not yet back
  uint32_t unsent = 0;     // line requests still in the memory pipeline
  uint64_t uid = 0;        // cta_id * warps_per_cta + index in the CTA (MemObserver's warp_uid)
  bool active = false;
  bool has_next = false;
  // The next instruction is unit-stride (every lane active, lane i at addr[0] + i * width): next.addr holds
  // lane 0's address only (SmCore::pull_next), so a waiting warp's instruction is two host cache lines.
  bool next_strided = false;
  // Its last issued instruction was a barrier the CTA's other running warps have not all reached
  // (SmCore::arrive): not eligible until they have.
  bool at_barrier = false;
  RegSet pending;  // registers in-flight loads of the warp are still writing (scoreboard)
  // Line 2: what the next instruction waits for (next.waits_on, copied by pull_next) and the loads the
  // observer has not heard of.
  alignas(64) RegSet next_waits_on;
  UnannouncedLoads unannounced;
  // Read at launch and issue.
  uint32_t cta_slot = 0;
  uint32_t cta_id = 0;  // the CTA's global id (MemReq::cta), kept here: its CtaWork is cold at issue
  uint64_t age = 0;     // launch order on this SM (GTO's "oldest")
  WarpStream* stream = nullptr;
  WarpInst next;  // the next instruction, pulled one ahead so its gap is known

  bool finished() const { return !has_next && in_flight == 0 && unsent == 0; }
};

struct CtaSlot {
  bool active = false;
  std::unique_ptr<CtaWork> work;  // owns the warp streams
  uint32_t warps_left = 0;
  // Barriers: warps whose stream has not ended, and how many of them wait at the current barrier.
  uint32_t running = 0, arrived = 0;
  // Resources held while resident.
  uint32_t warps = 0, threads = 0, regs = 0, shmem = 0;
};

// An issued instruction with line requests not yet answered. The first host cache line holds what its
// responses read (the request names it for the L1 to prefetch), the second what issue and sends read.
struct alignas(64) InstRecord {
  MemKind kind = MemKind::Load;
  uint8_t width = 4;  // bytes per lane
  // Loads with an observer: told to it (MemObserver::on_load_issue) yet? Until then first/last keep the
  // bytes its lines cover, for the announcement (SmCore::announce_loads).
  bool announced = false;
  uint32_t lines_left = 0;  // line requests not yet answered (sent or not)
  uint64_t order = 0;       // the SM's issue counter: program order within the warp (MemObserver's seq)
  uint64_t issue_cycle = 0;
  RegSet writes;  // a load's destination registers, released from the scoreboard when its last line is back
  uint64_t pc = 0;
  uint64_t store_seq = 0;  // the SM's store counter at issue (store data pattern)
  uint32_t warp_slot = 0;
  uint64_t first = 0, last = 0;
};

// Where each lane's access starts relative to a 128 B line: -15..127 (negative: the lane starts in the
// previous line and its tail is in this one). Only the lanes a line serves are set.
using LaneOffsets = std::array<int8_t, kWarpSize>;

// A line request in flight; its index travels in the low 16 bits of MemReq::id. Aligned: one host cache
// line, which the request names for the L1 to prefetch.
struct alignas(64) LineSlot {
  Payload* payload = nullptr;
  uint32_t inst = 0;                   // InstRecord index
  uint32_t lanes = 0;                  // lanes this line serves
  uint8_t span_lo = 0, span_hi = 128;  // the bytes of the 128 B line it carries (a small L1 line: part)
  // The instruction's warp slot (InstRecord::warp_slot, copied): a response loads the record and the warp
  // side by side instead of one after the other (both are cold with thousands of requests in flight).
  uint16_t warp_slot = 0;
  // For loads when an observer wants the returned bytes per lane: the lanes' offsets in this line, kept
  // here rather than 32 addresses in the InstRecord, so a response reads one host cache line, not five
  // (with thousands of requests in flight those lines are cold).
  LaneOffsets lane_off;
};
static_assert(sizeof(LineSlot) == 64, "a line slot is one host cache line");
static_assert(offsetof(InstRecord, writes) + sizeof(RegSet) <= 64, "a response reads one line of its record");
static_assert(offsetof(WarpSlot, pending) + sizeof(RegSet) <= 64 && offsetof(WarpSlot, next_waits_on) == 64 &&
                  offsetof(WarpSlot, unannounced) + sizeof(UnannouncedLoads) <= 128,
              "a response reads the first two host cache lines of its warp");

// Table of at most `capacity` T with a free list of indices. Entries are created on first use: a table
// filled up front for the configured limit (up to 65535 in-flight requests per SM) would cost memory and
// set-up time for slots that are never in flight at once. Indices come out exactly as from a table filled up
// front: the most recently released one first, else the lowest never used. alloc() may move the entries, so
// no reference into the table is held across it.
template <class T>
class SlotTable {
 public:
  void init(size_t capacity) {
    items_.clear();
    free_.clear();
    capacity_ = capacity;
  }
  bool full() const { return free_.empty() && items_.size() >= capacity_; }
  size_t in_use() const { return items_.size() - free_.size(); }
  size_t created() const { return items_.size(); }  // entries that exist (valid indices are below this)
  size_t capacity() const { return capacity_; }
  uint32_t alloc() {
    if (free_.empty()) {
      items_.emplace_back();
      return uint32_t(items_.size() - 1);
    }
    uint32_t i = free_.back();
    free_.pop_back();
    return i;
  }
  void release(uint32_t i) { free_.push_back(i); }
  T& operator[](uint32_t i) { return items_[i]; }
  const T& operator[](uint32_t i) const { return items_[i]; }

 private:
  std::vector<T> items_;
  std::vector<uint32_t> free_;
  size_t capacity_ = 0;
};

}  // namespace gms
