// LlcSlice: construction, socket plumbing and the per-cycle schedule.
#include "models/llc/llc_slice.h"

#include <algorithm>
#include <stdexcept>

#include "models/cache/lru_policy.h"
#include "models/cache/nru_policy.h"
#include "models/cache/replacement.h"
#include "models/cache/srrip_policy.h"
#include "models/common/payload_pool.h"
#include "models/common/prefetch.h"

namespace gms {

namespace {

const LlcParams& checked(const LlcParams& p) {
  p.check();
  return p;
}

StatGroup& parent_stats(const BlockEnv& env) {
  if (!env.stats || !env.pool)
    throw std::invalid_argument("LlcSlice: BlockEnv needs stats and a payload pool");
  return *env.stats;
}

uint64_t ps_of(const sc_core::sc_time& t) {
  return uint64_t(t / sc_core::sc_time(1, sc_core::SC_PS));
}

}  // namespace

uint64_t LlcSlice::footprint(const LlcParams& p) {
  auto pow2 = [](uint64_t n) {  // a RingQueue's capacity
    uint64_t c = 1;
    while (c < n) c <<= 1;
    return c;
  };
  const uint64_t sets = p.sets(), lines = sets * p.ways, slots = uint64_t(p.mshr_entries) * p.mshr_max_merge;
  // Per line: data, tag, tag hint, sector state, replacement state (an LRU stamp, the largest); per set
  // the way masks.
  uint64_t b =
      lines * (kLineBytes + sizeof(TagEntry) + sizeof(uint16_t) + sizeof(LlcLineState) + sizeof(uint64_t)) +
      sets * 2 * sizeof(uint64_t);
  if (p.victim_bit_l1s && p.sms_per_victim_bit) {  // G-Cache: a bit per group of L1s per line
    const uint64_t groups = (uint64_t(p.victim_bit_l1s) + p.sms_per_victim_bit - 1) / p.sms_per_victim_bit;
    b += lines * ((groups + 63) / 64) * sizeof(uint64_t);
  }
  // MSHR file: entries with waiter lists grown to max_merge, its index, free and spare lists; the slice's
  // miss slots and a waiter record and an answer per merge slot.
  b += uint64_t(p.mshr_entries) * (sizeof(MshrFile::Entry) + sizeof(MissSlot) + 2 * sizeof(uint32_t) +
                                   sizeof(std::vector<Payload*>)) +
       pow2(std::max<uint64_t>(8, 2 * uint64_t(p.mshr_entries))) * sizeof(uint32_t);
  b += slots * (sizeof(Payload*) + sizeof(Waiter)) + pow2(slots) * sizeof(Timed);
  b += (pow2(p.input_queue) + pow2(p.response_queue)) * sizeof(Timed) +
       pow2(uint64_t(p.mshr_entries) * kChunksPerLine) * sizeof(Payload*) +
       2 * pow2(p.miss_queue) * sizeof(Payload*) + 2 * uint64_t(p.miss_queue) * sizeof(WritebackInFlight);
  return b;
}

LlcSlice::LlcSlice(sc_core::sc_module_name name, const LlcParams& p, unsigned slice_id, const BlockEnv& env)
    : LastLevelCache(name, slice_id),
      p_(checked(p)),
      env_(env),
      clock_(p.clock_mhz),
      rng_(env.seed, basename()),
      stats_(parent_stats(env), basename(), "memory-side LLC slice"),
      st_(stats_),
      keys_(p.set_index, p.sets(), p.map_slices, p.map_chunk_lines),
      tags_(p.sets(), p.ways, kLineBytes, keys_.indexer(),
            make_replacement(p.replacement, p.sets(), p.ways, rng_)),
      mshr_(p.mshr_entries, p.mshr_max_merge),
      lines_(size_t(p.sets()) * p.ways),
      victim_bits_(size_t(p.sets()) * p.ways, p.victim_bit_l1s, p.sms_per_victim_bit),
      miss_(p.mshr_entries),
      waiters_(size_t(p.mshr_entries) * p.mshr_max_merge),
      input_(p.input_queue),
      hit_pipe_(p.response_queue),
      answers_(size_t(p.mshr_entries) * p.mshr_max_merge),
      fills_(size_t(p.mshr_entries) * kChunksPerLine),  // at most one fetch per sector per entry
      out_(p.miss_queue),
      done_(p.miss_queue) {
  for (uint32_t i = p.mshr_entries; i-- > 0;) free_miss_.push_back(i);
  wb_in_flight_.reserve(p.miss_queue * 2);
  // These policies pick the same victim when asked again with nothing changed (SRRIP ages only once).
  const ReplacementPolicy* pol = &tags_.policy();
  victim_pure_ = dynamic_cast<const LruPolicy*>(pol) || dynamic_cast<const NruPolicy*>(pol);
  victim_repeatable_ = victim_pure_ || dynamic_cast<const SrripPolicy*>(pol);
  up_ = AtTargetPort([this](Payload& t, tlm::tlm_phase& ph,
                            sc_core::sc_time& d) { return tsock->nb_transport_bw(t, ph, d); },
                     [this](Payload& t, const sc_core::sc_time& d) { return on_request(t, d); },
                     [this] { wake(); });
  down_ = AtInitiatorPort([this](Payload& t, tlm::tlm_phase& ph,
                                 sc_core::sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
                          [this] { wake(); }, [this](Payload& t) { return on_dram_response(t); });

  wake_.bind(
      env.wake, [](void* o) { static_cast<LlcSlice*>(o)->run(); }, this);
  wake_.set_prefetch([](void* o, unsigned stage) { static_cast<const LlcSlice*>(o)->prefetch(stage); });

  if (auto* tf = env.trace_file(basename())) {
    probe_mshr_.attach(tf, basename(), "mshr_occupancy");
    probe_hits_.attach(tf, basename(), "hits");
    probe_misses_.attach(tf, basename(), "misses");
    probe_queue_.attach(tf, basename(), "request_queue");
  }
}

LlcSlice::~LlcSlice() = default;

tlm::tlm_sync_enum LlcSlice::nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  return up_.nb_transport_fw(t, ph, d);
}

tlm::tlm_sync_enum LlcSlice::nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
  return down_.nb_transport_bw(t, ph, d);
}

bool LlcSlice::on_request(Payload& t, const sc_core::sc_time& delay) {
  ++st_.requests;
  const uint64_t arrival_ps = Clock::now_ps() + ps_of(delay);
  const uint64_t cycle = (arrival_ps + clock_.period_ps() - 1) / clock_.period_ps();
  if (input_.size() < p_.input_queue) {
    input_.push({&t, cycle});
    wake();
    return true;
  }
  held_ = &t;  // back-pressure: END_REQ when the input queue has room again
  held_cycle_ = cycle;
  ++st_.input_holds;
  return false;
}

bool LlcSlice::on_dram_response(Payload& t) {
  if (t.get_command() == tlm::TLM_WRITE_COMMAND && req_of(t).kind == MemKind::Atomic) {
    atomic_replies_.push_back(&t);  // a forwarded atomic (llc_atomic.cpp)
  } else if (t.get_command() == tlm::TLM_WRITE_COMMAND) {
    for (size_t i = 0; i < wb_in_flight_.size(); ++i)
      if (wb_in_flight_[i].t == &t) {
        wb_in_flight_[i] = wb_in_flight_.back();
        wb_in_flight_.pop_back();
        break;
      }
    freed(LlcStall::WritebackPending);
    done_.push(&t);  // released at the next run, after the port is done with it
  } else {
    fills_.push(&t);
  }
  wake();
  return true;
}

void LlcSlice::wake() {
  uint64_t c = clock_.next_edge_cycle();
  if (ran_ && c <= last_cycle_) c = last_cycle_ + 1;
  wake_.notify_at_ps(clock_.edge_ps(c));
}

void LlcSlice::run() {
  const uint64_t c = clock_.cycle();
  if (ran_ && c <= last_cycle_) {  // a callback's trigger in a cycle already done: only reschedule
    schedule_next(last_cycle_);
    return;
  }
  ran_ = true;
  last_cycle_ = c;
  freed_ = false;
  while (!done_.empty()) done_.pop()->release();
  if (!atomic_replies_.empty()) answer_forwarded_atomics(c);
  access_stage(c);
  respond_stage(c);
  dram_stage();
  update_probes();
  schedule_next(c);
}

// With 80 slices (H100 preset) a slice's queues and the requests in them are cold in host caches
// whenever it runs: fetch what run() reads first, the heads of its queues, and the tag set and MSHR bucket
// of the request the access stage will take.
void LlcSlice::prefetch(unsigned stage) const {
  if (stage == 0) {  // reads nothing: the fields the later stages and run() read first
    prefetch_object(fills_);
    prefetch_object(input_);
    prefetch_object(answers_);
    prefetch_object(hit_pipe_);
    prefetch_object(keys_);
    prefetch_lines(&tags_, 64);
    prefetch_lines(&mshr_, 64);
    return;
  }
  const bool fill = !fills_.empty();  // the access stage takes a fill first, else the input head
  switch (stage) {
    case 1:
      if (fill)
        prefetch_hint(fills_.front_address());
      else if (!input_.empty())
        prefetch_hint(input_.front_address());
      if (!answers_.empty()) prefetch_hint(answers_.front_address());
      if (!hit_pipe_.empty()) prefetch_hint(hit_pipe_.front_address());
      break;
    case 2:
      if (fill)
        PayloadPool::prefetch_header(fills_.front());
      else if (!input_.empty())
        PayloadPool::prefetch_header(input_.front().t);
      if (!answers_.empty()) prefetch_hint(answers_.front().t);
      if (!hit_pipe_.empty()) prefetch_hint(hit_pipe_.front().t);
      break;
    default: {
      const Payload* t = fill ? fills_.front() : !input_.empty() ? input_.front().t : nullptr;
      if (!t) break;
      const uint64_t key = keys_.key(line_of(t->get_address()));
      mshr_.prefetch(key);
      tags_.prefetch_set(tags_.set_of(key));  // a fill writes the set's masks and entries too
      if (fill)  // the line state, miss slot and waiters its fetch named (queue_fetch)
        if (const MemReq* r = PayloadPool::pooled_req(*t))
          for (const void* p : r->origin_state)
            if (p) prefetch_hint(p);
      break;
    }
  }
}

void LlcSlice::access_stage(uint64_t c) {
  if (stalled_) {  // the skipped cycles would have retried and failed the same way
    st_.fail(stall_cause_, c - stall_cycle_ - 1);
    stall_cycle_ = c;
  }
  if (!fills_.empty()) {  // fills take the array before new requests
    process_fill(*fills_.pop(), c);
    return;
  }
  if (input_.empty() || input_.front().cycle > c) return;
  if (stalled_ && retry_futile_) {
    st_.fail(stall_cause_);
    return;
  }
  if (!head_decoded_) {
    head_ = decode_access(*input_.front().t);
    head_decoded_ = true;
  }
  LlcStall why = LlcStall::MshrFull;
  if (try_access(*input_.front().t, head_, c, why)) {
    if (observer_ && head_.ok) {
      const MemReq* r = find_req(*input_.front().t);
      observer_(observer_ctx_, head_.line, tags_.set_of(keys_.key(head_.line)), r ? r->sm : 0);
    }
    input_.pop();
    head_decoded_ = false;
    stalled_ = false;
    admit_held(c);
  } else {
    st_.fail(why);
    stalled_ = true;
    stall_cause_ = why;
    stall_cycle_ = c;
    retry_futile_ = victim_repeatable_;
    stall_set_ = head_.ok ? tags_.set_of(keys_.key(head_.line)) : UINT32_MAX;
  }
}

void LlcSlice::admit_held(uint64_t c) {
  if (!held_ || input_.size() >= p_.input_queue) return;
  Payload* t = held_;
  held_ = nullptr;
  input_.push({t, std::max(held_cycle_, c + 1)});
  up_.accept(*t);  // END_REQ; the NoC may send its next request re-entrantly
}

void LlcSlice::respond_stage(uint64_t c) {
  if (!up_.can_respond()) return;
  RingQueue<Timed>* q = nullptr;
  if (!hit_pipe_.empty() && hit_pipe_.front().cycle <= c) q = &hit_pipe_;
  if (!answers_.empty() && answers_.front().cycle <= c && (!q || answers_.front().cycle < q->front().cycle))
    q = &answers_;
  if (!q) return;
  if (q == &hit_pipe_) freed(LlcStall::ResponseQueueFull);
  Payload* t = q->pop().t;
  freed_ = true;
  ++st_.responses;
  up_.respond(*t);
}

void LlcSlice::dram_stage() {
  if (out_.empty() || !down_.can_send()) return;
  freed_ = true;
  freed(LlcStall::MissQueueFull);
  Payload* t = out_.pop();
  for (WritebackInFlight& w : wb_in_flight_)  // a sent write-back takes no more merged bytes
    if (w.t == t) w.sent = true;
  down_.send(*t);
}

void LlcSlice::schedule_next(uint64_t c) {
  uint64_t next = UINT64_MAX;
  auto at = [&](uint64_t cycle) { next = std::min(next, std::max(cycle, c + 1)); };
  if (!fills_.empty() || !done_.empty() || !atomic_replies_.empty()) at(c + 1);
  // A blocked head waits for the event that frees its resource (a fill, a sent DRAM request, a sent
  // response, a write-back ack); all of those run this method.
  if (!input_.empty() && (!stalled_ || freed_)) at(input_.front().cycle);
  if (up_.can_respond()) {
    if (!hit_pipe_.empty()) at(hit_pipe_.front().cycle);
    if (!answers_.empty()) at(answers_.front().cycle);
  }
  if (!out_.empty() && down_.can_send()) at(c + 1);
  if (next != UINT64_MAX) wake_.notify_at_ps(clock_.edge_ps(next));
}

void LlcSlice::respond_after_latency(Payload& t, uint64_t c) {
  hit_pipe_.push({&t, c + p_.latency});
}

void LlcSlice::sync_sectors(uint32_t set, uint32_t way) {
  TagEntry& e = tags_.entry(set, way);
  const LlcLineState& s = state(set, way);
  e.sector_valid = full_sectors(s.valid);
  e.sector_dirty = touched_sectors(s.dirty);
}

void LlcSlice::update_probes() {
  if (!probe_mshr_.on()) return;
  probe_mshr_.set(uint32_t(mshr_.size()));
  probe_hits_.set(st_.hits.value);
  probe_misses_.set(st_.misses.value);
  probe_queue_.set(uint32_t(input_.size()));
}

bool LlcSlice::line_state(uint64_t line, ByteMask* valid, ByteMask* dirty) const {
  const uint64_t key = keys_.key(line_of(line));
  const int way = tags_.find(key);
  if (way < 0) return false;
  const LlcLineState& s = state(tags_.set_of(key), uint32_t(way));
  if (valid) *valid = s.valid;
  if (dirty) *dirty = s.dirty;
  return true;
}

bool LlcSlice::quiescent() const {
  return input_.empty() && !held_ && hit_pipe_.empty() && answers_.empty() && fills_.empty() &&
         out_.empty() && wb_in_flight_.empty() && mshr_.size() == 0 && up_.can_respond() && down_.can_send();
}

}  // namespace gms

namespace gms {

bool LlcSlice::victim_bit(uint64_t line, uint32_t sm) const {
  const uint64_t key = keys_.key(line_of(line));
  const int way = tags_.find(key);
  return way >= 0 && victim_bits_.test(size_t(tags_.set_of(key)) * p_.ways + uint32_t(way), sm);
}

}  // namespace gms
