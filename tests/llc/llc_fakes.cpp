#include "tests/llc/llc_fakes.h"

#include <cstring>

#include "models/common/memory_image.h"
#include "models/common/payload_pool.h"

namespace llc_test {

using namespace sc_core;

namespace {
uint64_t now_ps() {
  return uint64_t(sc_time_stamp() / sc_time(1, SC_PS));
}
}  // namespace

FakeUpstream::FakeUpstream(sc_module_name n, gms::PayloadPool& pool)
    : sc_module(n), isock("isock"), pool_(pool) {
  port_ = gms::AtInitiatorPort(
      [this](Payload& t, tlm::tlm_phase& ph, sc_time& d) { return isock->nb_transport_fw(t, ph, d); },
      [this] {
        if (pending_end_req_ != SIZE_MAX) end_req_ps[pending_end_req_] = now_ps();
        pending_end_req_ = SIZE_MAX;
        ready_.notify(SC_ZERO_TIME);
      },
      [this](Payload& t) { return on_response(t); });
  isock.register_nb_transport_bw(this, &FakeUpstream::nb_transport_bw);
  SC_HAS_PROCESS(FakeUpstream);
  SC_THREAD(main);
}

void FakeUpstream::main() {
  responses.assign(script.size(), Response{});
  send_ps.assign(script.size(), 0);
  end_req_ps.assign(script.size(), 0);
  if (at_start) at_start();
  size_t h = 0;
  auto run_hooks = [&](uint64_t until_ps) {
    for (; h < hooks.size() && hooks[h].first <= until_ps; ++h) {
      if (hooks[h].first > now_ps()) wait(sc_time(double(hooks[h].first - now_ps()), SC_PS));
      hooks[h].second();
    }
  };
  for (size_t i = 0; i < script.size(); ++i) {
    const Request& r = script[i];
    run_hooks(r.at_ps);
    if (r.at_ps > now_ps()) wait(sc_time(double(r.at_ps - now_ps()), SC_PS));
    while (!port_.can_send()) wait(ready_);
    Payload& t = pool_.allocate();
    t.set_address(r.line);
    gms::MemReq& q = gms::req_of(t);
    q.id = i;
    q.line_addr = r.line;
    q.sm = r.sm;
    if (r.write) {
      t.set_command(tlm::TLM_WRITE_COMMAND);
      std::memcpy(t.get_data_ptr(), r.data.data(), gms::kLineBytes);
      unsigned char* be = gms::PayloadPool::enable_bytes(t);
      for (unsigned b = 0; b < gms::kLineBytes; ++b)
        if ((r.enables >> b) & 1) be[b] = TLM_BYTE_ENABLED;
      q.kind = gms::MemKind::Store;
      q.chunk_mask = gms::touched_sectors(r.enables);
    } else {
      t.set_command(tlm::TLM_READ_COMMAND);
      std::memset(t.get_data_ptr(), 0x5A, gms::kLineBytes);  // stale bytes the LLC must overwrite
      q.kind = gms::MemKind::Load;
      q.chunk_mask = r.chunk_mask;
    }
    send_ps[i] = now_ps();
    pending_end_req_ = i;
    if (port_.send(t)) {
      end_req_ps[i] = now_ps();
      pending_end_req_ = SIZE_MAX;
    }
  }
  run_hooks(UINT64_MAX);
}

bool FakeUpstream::on_response(Payload& t) {
  Response& r = responses.at(gms::req_of(t).id);
  ++r.count;
  r.time_ps = now_ps();
  std::memcpy(r.data.data(), t.get_data_ptr(), gms::kLineBytes);
  r.chunks_returned = gms::req_of(t).chunks_returned;
  r.llc_hit = gms::req_of(t).llc_hit;
  r.victim_bit = gms::req_of(t).victim_bit;
  r.status = t.get_response_status();
  t.release();
  return true;
}

void FakeDram::take(Payload& t) {
  serve(t, true);
  pending_.push_back({sc_time_stamp() + latency_, &t});
  ev_.notify(latency_);
}

void FakeDram::accept_held() {
  if (!held_) return;
  Payload* t = held_;
  held_ = nullptr;
  take(*t);
  port_.accept(*t);
}

FakeDram::FakeDram(sc_module_name n, sc_time latency) : sc_module(n), tsock("tsock"), latency_(latency) {
  port_ = gms::AtTargetPort(
      [this](Payload& t, tlm::tlm_phase& ph, sc_time& d) { return tsock->nb_transport_bw(t, ph, d); },
      [this](Payload& t, const sc_time&) {
        if (sc_time_stamp() < accept_from) {
          held_ = &t;
          held_ev_.notify(accept_from - sc_time_stamp());
          return false;
        }
        take(t);
        return true;
      },
      [this] { ev_.notify(SC_ZERO_TIME); });
  tsock.register_nb_transport_fw(this, &FakeDram::nb_transport_fw);
  tsock.register_b_transport(this, &FakeDram::b_transport);
  tsock.register_transport_dbg(this, &FakeDram::transport_dbg);
  SC_HAS_PROCESS(FakeDram);
  SC_METHOD(respond);
  sensitive << ev_;
  dont_initialize();
  SC_METHOD(accept_held);
  sensitive << held_ev_;
  dont_initialize();
}

uint8_t FakeDram::byte(uint64_t addr) const {
  auto it = written.find(addr);
  return it == written.end() ? dram_byte(addr) : it->second;
}

size_t FakeDram::count(tlm::tlm_command cmd) const {
  size_t n = 0;
  for (const Record& r : log) n += r.timed && r.cmd == cmd;
  return n;
}

// Reads fill only the requested sectors (the rest kNotFetched, so an LLC using them is caught); writes
// honour byte enables. Data moves when the request is accepted (the fake is in order).
void FakeDram::serve(Payload& t, bool timed, bool apply_writes) {
  Record rec{now_ps(), timed, t.get_command(), t.get_address(), 0, 0, {}};
  const gms::MemReq* q = gms::find_req(t);
  rec.chunk_mask = q ? q->chunk_mask : gms::kFullChunkMask;
  unsigned char* d = t.get_data_ptr();
  const unsigned char* be = t.get_byte_enable_ptr();
  for (unsigned i = 0; i < t.get_data_length(); ++i) {
    const uint64_t a = t.get_address() + i;
    if (t.is_write()) {
      if (!be || be[i % t.get_byte_enable_length()] == TLM_BYTE_ENABLED) {
        if (apply_writes) written[a] = d[i];
        rec.enables |= ByteMask(1) << (i % gms::kLineBytes);
      }
    } else {
      d[i] = (rec.chunk_mask >> gms::chunk_of(a)) & 1 ? byte(a) : kNotFetched;
    }
  }
  std::memcpy(rec.data.data(), d, std::min<unsigned>(t.get_data_length(), gms::kLineBytes));
  log.push_back(rec);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

void FakeDram::respond() {
  while (!pending_.empty() && pending_.front().first <= sc_time_stamp() && port_.can_respond()) {
    Payload* t = pending_.front().second;
    pending_.pop_front();
    if (late_writes && t->is_write()) apply_write(*t);
    port_.respond(*t);
  }
  if (!pending_.empty() && port_.can_respond()) ev_.notify(pending_.front().first - sc_time_stamp());
}

void FakeDram::apply_write(Payload& t) {
  const unsigned char* be = t.get_byte_enable_ptr();
  for (unsigned i = 0; i < t.get_data_length(); ++i)
    if (!be || be[i % t.get_byte_enable_length()] == TLM_BYTE_ENABLED)
      written[t.get_address() + i] = t.get_data_ptr()[i];
}

tlm::tlm_sync_enum FakeDram::nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_time& d) {
  return port_.nb_transport_fw(t, ph, d);
}

void FakeDram::b_transport(Payload& t, sc_time& d) {
  serve(t, false);
  d += latency_;
}

unsigned FakeDram::transport_dbg(Payload& t) {
  for (unsigned i = 0; i < t.get_data_length(); ++i) {
    const uint64_t a = t.get_address() + i;
    if (t.is_write())
      written[a] = t.get_data_ptr()[i];
    else
      t.get_data_ptr()[i] = byte(a);
  }
  return t.get_data_length();
}

gms::LlcParams small_params() {
  gms::LlcParams p;
  p.size_bytes = 2048;
  p.ways = 2;
  p.set_index = gms::LlcSetIndex::Linear;
  return p;
}

Bench::Bench(const gms::LlcParams& p, sc_time dram_latency, const gms::TraceSelector* trace) {
  env.stats = &root;
  env.trace = trace;
  env.pool = &pool;
  env.seed = 1;
  llc = std::make_unique<gms::LlcSlice>("llc", p, 0, env);
  up = std::make_unique<FakeUpstream>("up", pool);
  dram = std::make_unique<FakeDram>("dram", dram_latency);
  up->isock.bind(llc->tsock);
  llc->isock.bind(dram->tsock);
}

Request read(uint64_t at_ps, uint64_t line, uint8_t mask) {
  Request r;
  r.at_ps = at_ps;
  r.line = line;
  r.chunk_mask = mask;
  return r;
}

Request write(uint64_t at_ps, uint64_t line, ByteMask enables, uint8_t base) {
  Request r;
  r.at_ps = at_ps;
  r.write = true;
  r.line = line;
  r.enables = enables;
  for (unsigned i = 0; i < gms::kLineBytes; ++i) r.data[i] = uint8_t(base + i);
  return r;
}

}  // namespace llc_test
