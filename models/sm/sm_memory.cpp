// SmCore's memory side: instruction issue and coalescing, the one-line-per-cycle memory pipeline to the
// L1, and responses.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/common/atomic_add.h"
#include "models/common/lane_stride.h"
#include "models/common/rng.h"
#include "models/sm/sm_core.h"

namespace gms {

// Low bits of MemReq::id: the LineSlot index (max_outstanding_per_sm <= 65535, see sm_params.cpp).
constexpr unsigned kSlotBits = 16;

// The store data of the 8-byte word at addr8 (8-aligned): byte k of the word is byte k of this value.
uint64_t SmCore::store_word(unsigned sm_id, uint64_t store_seq, uint64_t addr8) {
  return mix64(addr8 ^ (store_seq << 40) ^ (uint64_t(sm_id) << 56));
}

uint8_t SmCore::store_byte(unsigned sm_id, uint64_t store_seq, uint64_t addr) {
  return uint8_t(store_word(sm_id, store_seq, addr & ~uint64_t(7)) >> (8 * (addr & 7)));
}

// With hundreds of warps waiting per SM (thousands of requests in flight), a waiting warp's instruction is
// cold in host caches when it issues: a unit-stride one is kept as its first address.
void SmCore::pull_next(WarpSlot& w) {
  // Fields a stream may leave alone (synthetic streams set no pc or registers) start empty, not as the
  // scratch's last instruction (another warp's).
  pull_.pc = 0;
  pull_.waits_on.clear();
  pull_.writes.clear();
  pull_.wait_gap = 0;
  w.has_next = w.stream->next(pull_);
  if (!w.has_next) return;
  WarpInst& n = w.next;
  copy_all_but_addresses(n, pull_);
  w.next_waits_on = pull_.waits_on;
  uint64_t stride = 0;
  w.next_strided = uniform_stride(pull_.active_mask, pull_.addr, stride) && stride == pull_.width;
  if (w.next_strided)
    n.addr[0] = pull_.addr[0];
  else
    n.addr = pull_.addr;
}

const WarpInst& SmCore::next_inst(const WarpSlot& w) {
  if (!w.next_strided) return w.next;
  copy_all_but_addresses(issue_inst_, w.next);
  expand_stride(issue_inst_.addr, w.next.addr[0], w.next.width);
  return issue_inst_;
}

bool SmCore::try_issue(uint64_t cycle) {
  // One issue per cycle, and not in the cycle the previous instruction's last line went out.
  if (paused_ || last_issue_cycle_ == cycle || last_send_cycle_ == cycle) return false;
  // Waiting warps whose gap has passed become ready; ages are kept current by launch().
  waiting_.for_each([&](uint32_t s) {
    if (ready_cycle_[s] <= cycle) {
      waiting_.reset(s);
      issue_.set_ready(s);
    }
  });
  if (!issue_.any_ready()) return false;
  const int slot = issue_.pick();
  if (slot < 0) return false;
  issue(uint32_t(slot), cycle);
  return true;
}

void SmCore::issue(uint32_t slot, uint64_t cycle) {
  WarpSlot& w = warps_[slot];
  if (w.next.kind == MemKind::Barrier) {
    arrive(slot, cycle);
    return;
  }
  const WarpInst& inst = next_inst(w);
  const bool load = inst.kind == MemKind::Load, atomic = inst.kind == MemKind::Atomic;
  if (!load && !atomic && inst.kind != MemKind::Store)
    throw std::runtime_error(std::string(name()) + ": pc " + std::to_string(inst.pc) + ": " +
                             to_string(inst.kind) +
                             " instructions are not modelled by the SM front end (loads, stores, atomics and "
                             "barriers only)");
  if (atomic) check_atomic(inst);
  Coalescer::coalesce(inst, pipe_lines_);
  if (p_.line_bytes < kLineBytes) split_to_lines(inst, p_.line_bytes, pipe_lines_, split_scratch_);
  pipe_next_ = 0;
  const uint32_t n = uint32_t(pipe_lines_.size());
  uint64_t sectors = 0;
  for (const LineRequest& l : pipe_lines_) sectors += unsigned(popcount8(l.chunk_mask));
  if (load && observer_ && n > 0) {  // the lines' span: the bytes the load may read; each lane's offsets
    lines_first_ = UINT64_MAX;
    lines_last_ = 0;
    if (pipe_offsets_.size() < n) pipe_offsets_.resize(n);
    for (uint32_t k = 0; k < n; ++k) {
      const LineRequest& l = pipe_lines_[k];
      lines_first_ = std::min(lines_first_, l.line_addr);
      lines_last_ = std::max(lines_last_, l.line_addr + (kLineBytes - 1));
      // Modulo 2^64: a lane of the line starts at most 15 bytes before it (width <= 16), even at address 0.
      for (uint32_t m = l.lanes; m; m &= m - 1) {
        const unsigned lane = unsigned(__builtin_ctz(m));
        pipe_offsets_[k][lane] = int8_t(int64_t(inst.addr[lane] - l.line_addr));
      }
    }
  }
  ++warp_insts_;
  line_requests_ += n;
  if (load) {
    ++load_insts_;
    load_line_requests_ += n;
    load_sectors_ += sectors;
  } else if (atomic) {
    ++atomic_insts_;
    atomic_line_requests_ += n;
    atomic_sectors_ += sectors;
  } else {
    ++store_insts_;
    store_line_requests_ += n;
    store_sectors_ += sectors;
  }
  last_issue_cycle_ = cycle;
  const uint64_t seq = load ? 0 : store_seq_++;
  const uint64_t order = issue_order_++;
  if (n > 0) {
    if (insts_.full()) throw std::logic_error(std::string(name()) + ": instruction table overflow");
    pipe_inst_ = insts_.alloc();
    InstRecord& rec = insts_[pipe_inst_];
    rec.width = inst.width;
    rec.kind = inst.kind;
    rec.pc = inst.pc;
    rec.store_seq = seq;
    rec.order = order;
    rec.warp_slot = slot;
    rec.lines_left = n;
    rec.issue_cycle = cycle;
    rec.writes.clear();
    if (inst.kind != MemKind::Store && p_.scoreboard) {  // a load's or an atomic's old value
      rec.writes = inst.writes;
      w.pending |= inst.writes;
    }
    w.unsent = n;
    if (atomic) make_operands(inst, seq);
  }
  if (observer_) {
    if (!load) {
      if (w.unannounced.n) announce_loads(slot);  // the store or atomic may change what they read
      if (atomic)
        notify_atomics(inst, w.uid, seq, order);
      else
        notify_stores(inst, w.uid, seq, order);
    } else if (n > 0) {  // its bytes come back later, maybe after later stores of the warp
      InstRecord& rec = insts_[pipe_inst_];
      rec.announced = false;
      rec.first = lines_first_;
      rec.last = lines_last_;
      UnannouncedLoads& u = w.unannounced;
      if (u.n == UnannouncedLoads::kMax) announce_loads(slot);
      u.inst[u.n++] = pipe_inst_;
    }
  }
  // Pull the warp's next instruction now: its gap counts from this issue.
  pull_next(w);
  if (w.has_next) ready_cycle_[slot] = cycle + w.next.gap;
  issue_.reset_ready(slot);  // waits for its next gap
  if (!w.has_next) stream_ended(w.cta_slot, cycle);
  warp_progress(slot);
  update_eligible(slot);
}

void SmCore::arrive(uint32_t slot, uint64_t cycle) {
  WarpSlot& w = warps_[slot];
  ++barriers_;
  last_issue_cycle_ = cycle;  // the barrier takes its cycle's issue slot
  // What follows the barrier is pulled at the release, not now: a kernel port runs a warp past its k-th
  // __syncthreads only once every other warp of its CTA has reached its own k-th, which the release
  // guarantees; pulled earlier, the port would have to run the other warps ahead on the host and buffer
  // their instructions (a long barrier interval would then take memory). A warp whose stream ends right
  // after the barrier waits like the others and exits at the release.
  issue_.reset_ready(slot);
  w.at_barrier = true;
  ready_cycle_[slot] = cycle;  // the arrival, until the release sets the next instruction's ready cycle
  update_eligible(slot);
  CtaSlot& c = ctas_[w.cta_slot];
  if (++c.arrived == c.running) release_barrier(w.cta_slot, cycle);
}

void SmCore::stream_ended(uint32_t cta_slot, uint64_t cycle) {
  CtaSlot& c = ctas_[cta_slot];
  --c.running;
  if (c.arrived > 0 && c.arrived == c.running) release_barrier(cta_slot, cycle);
}

void SmCore::release_barrier(uint32_t cta_slot, uint64_t cycle) {
  ctas_[cta_slot].arrived = 0;  // first: a stream that ends below calls stream_ended
  for (uint32_t s = 0; s < warps_.size(); ++s) {
    WarpSlot& w = warps_[s];
    if (!w.active || !w.at_barrier || w.cta_slot != cta_slot) continue;
    w.at_barrier = false;
    barrier_wait_cycles_ += cycle - ready_cycle_[s];
    pull_next(w);  // what follows the barrier; its gap counts from the release
    if (!w.has_next) {
      stream_ended(cta_slot, cycle);
      warp_progress(s);
      update_eligible(s);
      continue;
    }
    ready_cycle_[s] = cycle + w.next.gap;
    update_eligible(s);
  }
}

void SmCore::notify_stores(const WarpInst& inst, uint64_t uid, uint64_t store_seq, uint64_t order) {
  uint8_t bytes[16];
  for (uint32_t m = inst.active_mask; m; m &= m - 1) {
    const uint64_t a = inst.addr[unsigned(__builtin_ctz(m))];
    // One store_word per 8-byte word the access touches (one or two).
    uint64_t word = a & ~uint64_t(7), v = store_word(sm_id_, store_seq, word);
    for (unsigned b = 0; b < inst.width; ++b) {
      if (((a + b) & ~uint64_t(7)) != word) v = store_word(sm_id_, store_seq, word = (a + b) & ~uint64_t(7));
      bytes[b] = uint8_t(v >> (8 * ((a + b) & 7)));
    }
    observer_->on_store(uid, order, a, bytes, inst.width);
  }
}

void SmCore::check_atomic(const WarpInst& inst) const {
  if (inst.width != 4 && inst.width != 8)
    throw std::runtime_error(std::string(name()) + ": pc " + std::to_string(inst.pc) + ": an atomic of " +
                             std::to_string(inst.width) + " bytes per lane (atomics are 4 or 8 bytes)");
  if (const std::string e = address_error(inst); !e.empty())  // a lane not aligned to its width
    throw std::runtime_error(std::string(name()) + ": pc " + std::to_string(inst.pc) + ": " + e);
}

// What lane l of an atomic adds at addr: `width` bytes of the store data of its instruction there.
static void atomic_operand(uint64_t word, uint64_t addr, unsigned width, uint8_t* out) {
  const uint64_t v = word >> (8 * (addr & 7));
  for (unsigned b = 0; b < width; ++b) out[b] = uint8_t(v >> (8 * b));
}

void SmCore::make_operands(const WarpInst& inst, uint64_t seq) {
  if (pipe_operands_.size() < pipe_lines_.size()) pipe_operands_.resize(pipe_lines_.size());
  uint8_t op[8];
  for (size_t k = 0; k < pipe_lines_.size(); ++k) {
    const LineRequest& l = pipe_lines_[k];
    std::array<uint8_t, kLineBytes>& d = pipe_operands_[k];
    d.fill(0);
    for (uint32_t m = l.lanes; m; m &= m - 1) {
      const uint64_t a = inst.addr[unsigned(__builtin_ctz(m))], off = a - l.line_addr;
      if (off >= kLineBytes) continue;  // aligned: a lane lies in one line
      atomic_operand(store_word(sm_id_, seq, a & ~uint64_t(7)), a, inst.width, op);
      atomic_add_elements(d.data() + off, op, inst.width, inst.width, [](unsigned) { return true; });
    }
  }
}

void SmCore::notify_atomics(const WarpInst& inst, uint64_t uid, uint64_t seq, uint64_t order) {
  uint8_t op[8];
  for (uint32_t m = inst.active_mask; m; m &= m - 1) {
    const uint64_t a = inst.addr[unsigned(__builtin_ctz(m))];
    atomic_operand(store_word(sm_id_, seq, a & ~uint64_t(7)), a, inst.width, op);
    observer_->on_atomic(uid, order, a, op, inst.width);
  }
}

// Byte enables and data of a store line: one store_word per touched 8-byte word, whole words copied at once
// (the line address is 128 B aligned, so byte i of the line is byte i % 8 of word i / 8).
void SmCore::fill_store(Payload& t, const LineRequest& l, uint64_t store_seq) const {
  unsigned char* be = PayloadPool::enable_bytes(t);
  unsigned char* data = t.get_data_ptr();
  for (unsigned half = 0; half < 2; ++half) {
    const uint64_t mask = l.byte_mask[half];
    for (unsigned k = 0; k < 8; ++k) {
      const unsigned touched = unsigned(mask >> (8 * k)) & 0xff;
      if (!touched) continue;
      const unsigned first = 64 * half + 8 * k;
      const uint64_t v = store_word(sm_id_, store_seq, l.line_addr + first);
      if (touched == 0xff && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
        std::memcpy(data + first, &v, 8);
        std::memset(be + first, TLM_BYTE_ENABLED, 8);
        continue;
      }
      for (unsigned b = 0; b < 8; ++b)
        if (touched >> b & 1) {
          be[first + b] = TLM_BYTE_ENABLED;
          data[first + b] = uint8_t(v >> (8 * b));
        }
    }
  }
}

// A load's data is back: its registers are written. A next instruction that waited for them may issue
// once no other in-flight load holds one of its registers, and then after the compute instructions between
// the first reader and it (WarpInst::wait_gap).
void SmCore::release_registers(WarpSlot& w, const RegSet& writes) {
  const bool waited = w.has_next && w.next_waits_on.intersects(writes);
  w.pending.remove(writes);
  if (waited && !w.pending.intersects(w.next_waits_on)) {
    ++scoreboard_waits_;
    uint64_t& ready = ready_cycle_[size_t(&w - warps_.data())];
    ready = std::max(ready, clock_.next_edge_cycle() + w.next.wait_gap);
  }
}

void SmCore::announce_loads(uint32_t slot) {
  UnannouncedLoads& u = warps_[slot].unannounced;
  const uint64_t uid = warps_[slot].uid;
  for (uint32_t i = 0; i < u.n; ++i) {
    InstRecord& rec = insts_[u.inst[i]];
    rec.announced = true;
    observer_->on_load_issue(uid, rec.order, rec.first, rec.last);
  }
  u.n = 0;
}

bool SmCore::limits_allow_head() const {
  if (in_flight_ >= p_.max_outstanding_per_sm) return false;
  return warps_[insts_[pipe_inst_].warp_slot].in_flight < p_.max_outstanding_per_warp;
}

void SmCore::send_head(uint64_t cycle) {
  const LineRequest& l = pipe_lines_[pipe_next_++];
  const InstRecord& rec = insts_[pipe_inst_];
  WarpSlot& w = warps_[rec.warp_slot];
  Payload& t = env_.pool->allocate();
  const uint32_t ls = lines_.alloc();
  LineSlot& slot = lines_[ls];
  slot.payload = &t;
  slot.inst = pipe_inst_;
  slot.warp_slot = uint16_t(rec.warp_slot);
  slot.lanes = l.lanes;
  slot.span_lo = l.span_lo;
  slot.span_hi = l.span_hi;
  if (rec.kind == MemKind::Load && observer_) slot.lane_off = pipe_offsets_[pipe_next_ - 1];
  t.set_address(l.line_addr);
  std::memset(t.get_data_ptr(), 0, kLineBytes);
  if (rec.kind == MemKind::Load) {
    t.set_command(tlm::TLM_READ_COMMAND);
  } else {
    t.set_command(tlm::TLM_WRITE_COMMAND);
    fill_store(t, l, rec.store_seq);
    if (rec.kind == MemKind::Atomic)  // the enables are the lanes' bytes; the data their summed operands
      std::memcpy(t.get_data_ptr(), pipe_operands_[pipe_next_ - 1].data(), kLineBytes);
  }
  MemReq& r = req_of(t);
  r.sm = sm_id_;
  r.warp = rec.warp_slot;
  r.cta = w.cta_id;
  r.pc = rec.pc;
  r.inst = rec.order + 1;
  r.kind = rec.kind;
  r.atomic_width = rec.kind == MemKind::Atomic ? rec.width : 0;
  r.line_addr = l.line_addr;
  r.chunk_mask = l.chunk_mask;
  r.word_mask = words_of_bytes(l.byte_mask);
  r.id = (request_seq_++ << kSlotBits) | ls;
  r.origin_state[0] = &slot;  // what on_response reads first, for the L1 to prefetch
  r.origin_state[1] = &rec;
  r.origin_state[2] = &w;  // the warp slot's first line, then its second
  r.origin_state[3] = &w.next_waits_on;
  r.issue_ps = Clock::now_ps();
  --w.unsent;
  ++w.in_flight;
  update_eligible(rec.warp_slot);
  if (in_flight_++ == 0) in_flight_since_ps_ = r.issue_ps;
  if (in_flight_ > max_in_flight_.value) max_in_flight_.value = in_flight_;
  ++requests_;
  in_flight_probe_.set(in_flight_);
  last_send_cycle_ = cycle;
  // All bookkeeping is done: the response may come back inside send().
  if (!port_.send(t)) {
    held_ = true;
    held_since_ = cycle;
  }
}

void SmCore::on_request_accepted() {
  if (!held_) return;  // END_REQ inside send(): no stall
  held_ = false;
  mem_stall_cycles_ += clock_.next_edge_cycle() - held_since_;
  schedule_next();
}

bool SmCore::on_response(Payload& t) {
  MemReq& r = req_of(t);
  const uint32_t ls = uint32_t(r.id & ((1u << kSlotBits) - 1));
  if (ls >= lines_.created() || lines_[ls].payload != &t)
    throw std::logic_error(std::string(name()) + ": response for a request this SM does not have in flight");
  if (t.is_response_error())
    throw std::runtime_error(std::string(name()) + ": error response (" + t.get_response_string() +
                             ") for line " + std::to_string(r.line_addr));
  // Read in place (the lane offsets are half a host cache line); free from here on, nothing below sends.
  LineSlot& line = lines_[ls];
  line.payload = nullptr;
  lines_.release(ls);
  InstRecord& rec = insts_[line.inst];
  const uint32_t slot = line.warp_slot;
  WarpSlot& w = warps_[slot];
  ++responses_;
  last_response_ps_ = Clock::now_ps();
  --w.in_flight;
  --in_flight_;
  in_flight_probe_.set(in_flight_);
  if (rec.kind == MemKind::Load && observer_) {
    // Offsets in the line, modulo 2^64: line_addr + kLineBytes is 0 for the last line, 0xffffffffffffff80.
    const uint64_t line_addr = r.line_addr;
    for (uint32_t m = line.lanes; m; m &= m - 1) {
      const int off = line.lane_off[unsigned(__builtin_ctz(m))];
      // A lane from the previous line starts at 0; a request for a small L1 line carries only its span.
      const int lo = std::max<int>(std::max(off, 0), line.span_lo);
      const int hi = std::min<int>(off + rec.width, line.span_hi);
      if (hi <= lo) continue;
      observer_->on_load(w.uid, rec.order, line_addr + unsigned(lo), t.get_data_ptr() + lo,
                         unsigned(hi - lo));
    }
  }
  if (--rec.lines_left == 0) {
    if (rec.kind == MemKind::Load) {
      load_latency_.add(clock_.next_edge_cycle() - rec.issue_cycle);
      if (observer_) {
        if (rec.announced) {
          observer_->on_load_done(w.uid, rec.order);
        } else {  // never announced: no later store of the warp came while it was in flight
          UnannouncedLoads& u = w.unannounced;
          uint32_t i = 0;
          while (i < u.n && u.inst[i] != line.inst) ++i;
          if (i == u.n) throw std::logic_error(std::string(name()) + ": an unannounced load is not listed");
          for (--u.n; i < u.n; ++i) u.inst[i] = u.inst[i + 1];
        }
      }
      if (rec.writes.any()) release_registers(w, rec.writes);
    } else if (rec.kind == MemKind::Atomic && rec.writes.any()) {  // the old values are back
      release_registers(w, rec.writes);
    }
    insts_.release(line.inst);
  }
  t.release();
  warp_progress(slot);
  update_eligible(slot);
  schedule_next();
  return true;
}

}  // namespace gms
