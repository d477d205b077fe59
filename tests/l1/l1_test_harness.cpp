#include "l1_test_harness.h"

#include <cstring>

#include "models/common/memory_image.h"
#include "models/common/payload_pool.h"

namespace gms::test {

Line& ByteMemory::line(uint64_t line_addr) {
  auto it = lines.find(line_addr);
  if (it != lines.end()) return it->second;
  Line l;
  for (unsigned i = 0; i < 128; ++i) l[i] = initial_byte(line_addr + i);
  return lines.emplace(line_addr, l).first->second;
}

FakeSm::FakeSm(sc_core::sc_module_name n, PayloadPool& pool, std::function<bool(uint64_t, SmOp&)> next,
               std::function<void()> on_flush, bool record, uint64_t hold_resp_cycles)
    : sc_core::sc_module(n),
      isock("isock"),
      pool_(pool),
      next_(std::move(next)),
      on_flush_(std::move(on_flush)),
      record_(record),
      hold_resp_(hold_resp_cycles),
      port_([this](Payload& t, tlm::tlm_phase& ph,
                   sc_core::sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
            [this] {
              if (record_) results[req_of(*in_flight_).id].accept_cycle = clk_.cycle();
              in_flight_ = nullptr;
              ev_.notify(clk_.until(clk_.cycle() + 1));
            },
            [this](Payload& t) { return on_response(t); }) {
  isock.register_nb_transport_bw(this, &FakeSm::bw);
  SC_METHOD(process);
  sensitive << ev_;
}

void FakeSm::process() {
  uint64_t now = clk_.cycle();
  if (!held_resps_.empty() && held_resps_.front().second <= now) {
    Payload* t = held_resps_.front().first;
    held_resps_.erase(held_resps_.begin());
    port_.release_response(*t);
    t->release();
  }
  if (!have_op_ && !done_) {
    have_op_ = next_(issued, op_);
    done_ = !have_op_;
  }
  bool waiting = op_.wait_prev && (outstanding_ > 0 || (any_resp_ && last_resp_cycle_ >= now));
  if (have_op_ && port_.can_send() && now >= op_.not_before && !waiting) {
    have_op_ = false;
    uint64_t i = issued++;
    if (record_) results.emplace_back().issue_cycle = now;
    if (op_.kind == SmOp::Flush) {
      on_flush_();
      if (record_) results[i].responses = 1;
    } else {
      Payload& t = pool_.allocate();
      MemReq& r = req_of(t);
      r.id = i;
      r.kind = op_.kind == SmOp::Store ? MemKind::Store : MemKind::Load;
      r.line_addr = op_.addr;
      r.chunk_mask = op_.mask;
      r.word_mask = op_.words;
      t.set_address(op_.addr);
      std::memset(t.get_data_ptr(), 0xEE, 128);
      Line& g = golden.line(op_.addr);
      if (op_.kind == SmOp::Store) {
        t.set_command(tlm::TLM_WRITE_COMMAND);
        unsigned char* be = PayloadPool::enable_bytes(t);
        for (unsigned b = 0; b < 128; ++b) {
          t.get_data_ptr()[b] = uint8_t(op_.fill + b);
          // A store with `words` writes only those 8 B words of its chunks (a partly written sector).
          be[b] = 0;
          if ((op_.mask & (1u << (b / 32))) && (!op_.words || (op_.words >> (b / 8) & 1u))) {
            be[b] = TLM_BYTE_ENABLED;
            g[b] = uint8_t(op_.fill + b);
          }
        }
      } else {
        t.set_command(tlm::TLM_READ_COMMAND);
        if (record_) results[i].data = g;  // expected bytes, compared on response
      }
      ++outstanding_;
      in_flight_ = &t;
      if (port_.send(t)) {
        if (record_) results[i].accept_cycle = now;
        in_flight_ = nullptr;
      }
    }
  }
  if (!done_ || have_op_ || !held_resps_.empty()) ev_.notify(clk_.until(now + 1));
}

bool FakeSm::on_response(Payload& t) {
  MemReq& r = req_of(t);
  ++responses;
  --outstanding_;
  any_resp_ = true;
  last_resp_cycle_ = clk_.cycle();
  bool ok = true;
  if (record_ && t.is_read() && t.is_response_ok()) {
    for (unsigned b = 0; b < 128; ++b) {
      // A load naming 8 B words gets exactly those words of its returned chunks.
      bool returned =
          (r.chunks_returned & (1u << (b / 32))) && (!r.word_mask || (r.word_mask >> (b / 8) & 1u));
      if (returned && t.get_data_ptr()[b] != results[r.id].data[b]) ok = false;
      if (!returned && t.get_data_ptr()[b] != 0xEE) ok = false;  // untouched outside returned chunks
    }
  }
  if (!ok) ++bad_data;
  if (record_) {
    SmResult& res = results[r.id];
    ++res.responses;
    res.resp_cycle = clk_.cycle();
    res.chunks_returned = r.chunks_returned;
    res.status = t.get_response_status();
    res.data_ok = ok;
    std::memcpy(res.data.data(), t.get_data_ptr(), 128);
  }
  ev_.notify(clk_.until(clk_.cycle() + 1));
  if (hold_resp_) {
    held_resps_.emplace_back(&t, clk_.cycle() + hold_resp_);
    return false;
  }
  t.release();
  return true;
}

FakeMem::FakeMem(sc_core::sc_module_name n, uint64_t latency_cycles, uint64_t accept_delay_cycles)
    : sc_core::sc_module(n),
      tsock("tsock"),
      latency_(latency_cycles),
      accept_delay_(accept_delay_cycles),
      port_([this](Payload& t, tlm::tlm_phase& ph,
                   sc_core::sc_time& d) { return tsock->nb_transport_bw(t, ph, d); },
            [this](Payload& t, const sc_core::sc_time& d) { return on_request(t, d); },
            [this] { ev_.notify(clk_.until(clk_.cycle() + 1)); }) {
  tsock.register_nb_transport_fw(this, &FakeMem::fw);
  tsock.register_b_transport(this, &FakeMem::b_transport);
  tsock.register_transport_dbg(this, &FakeMem::transport_dbg);
  SC_METHOD(process);
  sensitive << ev_;
  dont_initialize();
}

void FakeMem::apply(Payload& t) {
  Line& l = mem.line(t.get_address() & ~uint64_t(127));
  unsigned off = unsigned(t.get_address() & 127), len = t.get_data_length();
  const unsigned char* be = t.get_byte_enable_ptr();
  for (unsigned i = 0; i < len; ++i) {
    if (t.is_write() && (!be || be[i % t.get_byte_enable_length()] == TLM_BYTE_ENABLED))
      l[off + i] = t.get_data_ptr()[i];
    if (t.is_read()) t.get_data_ptr()[i] = l[off + i];
  }
  if (MemReq* r = find_req(t)) {
    r->chunks_returned = t.is_read() ? r->chunk_mask : 0;
    r->words_returned = t.is_read() ? r->word_mask : 0;
  }
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool FakeMem::on_request(Payload& t, const sc_core::sc_time&) {
  log.emplace_back(t.is_write() ? 'W' : 'R', t.get_address());
  const MemReq* r = find_req(t);
  log_chunks.push_back(r ? r->chunk_mask : 0);
  log_words.push_back(r ? r->word_mask : 0);
  apply(t);  // data as of arrival order
  if (victim_bits && t.is_read())
    if (MemReq* q = find_req(t)) q->victim_bit = !served.insert(t.get_address() & ~uint64_t(127)).second;
  queue_.emplace_back(&t, clk_.cycle() + latency_);
  ev_.notify(clk_.until(queue_[head_].second));
  if (!accept_delay_) return true;
  pending_accept_ = &t;
  accept_cycle_ = clk_.cycle() + accept_delay_;
  ev_.notify(clk_.until(accept_cycle_));
  return false;
}

void FakeMem::process() {
  uint64_t now = clk_.cycle();
  if (pending_accept_ && accept_cycle_ <= now) {
    Payload* t = pending_accept_;
    pending_accept_ = nullptr;
    port_.accept(*t);
  }
  if (head_ < queue_.size() && queue_[head_].second <= now && port_.can_respond()) {
    Payload* t = queue_[head_++].first;
    port_.respond(*t);
  }
  if (head_ < queue_.size() && port_.can_respond())
    ev_.notify(clk_.until(std::max(queue_[head_].second, now + 1)));
  if (pending_accept_) ev_.notify(clk_.until(std::max(accept_cycle_, now + 1)));
}

void FakeMem::b_transport(Payload& t, sc_core::sc_time&) {
  ++b_calls;
  apply(t);
}

unsigned FakeMem::transport_dbg(Payload& t) {
  apply(t);
  return t.get_data_length();
}

L1Params test_params(const std::string& replacement, SetIndexFn index) {
  L1Params p;
  p.clock_mhz = 1000.0;
  p.replacement = replacement;
  p.set_index = index;
  return p;
}

Bench::Bench(const L1Params& p, std::vector<SmOp> ops, BenchOptions o) : Bench(p, nullptr, o) {
  ops_ = std::move(ops);
}

Bench::Bench(const L1Params& p, std::function<bool(uint64_t, SmOp&)> gen, BenchOptions o) {
  env.stats = &root;
  env.pool = &pool;
  env.seed = 7;
  env.trace = o.trace;
  l1 = make_l1(p, "l1", 0, env);
  if (!gen)
    gen = [this](uint64_t i, SmOp& op) {
      if (i >= ops_.size()) return false;
      op = ops_[i];
      return true;
    };
  sm = std::make_unique<FakeSm>(
      "sm", pool, gen, [this] { l1->kernel_end(); }, o.record, o.sm_hold_resp);
  mem = std::make_unique<FakeMem>("mem", o.mem_latency, o.mem_accept_delay);
  mem->victim_bits = o.victim_bits;
  sm->isock.bind(l1->tsock);
  l1->isock.bind(mem->tsock);
}

}  // namespace gms::test
