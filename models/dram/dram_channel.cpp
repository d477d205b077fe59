#include "models/dram/dram_channel.h"

#include <stdexcept>

#include "models/common/prefetch.h"

namespace gms {

namespace {
DramParams resolved(DramParams p) {
  p.resolve_mapping();
  return p;
}
// Params built in code skip DramParams::from's checks: the fields must at least fit the geometry.
const DramParams& checked(const DramParams& p) {
  if (p.bank_bits.size() != log2_exact(p.banks) || (1u << p.bank_bits.size()) != p.banks)
    throw std::invalid_argument("DramParams: banks must be a power of two matching bank_bits");
  if (p.bank_groups == 0 || (p.bank_groups & (p.bank_groups - 1)) || p.bank_groups > p.banks)
    throw std::invalid_argument("DramParams: bank_groups must be a power of two, at most banks");
  if (p.burst_length % p.data_rate || p.burst_bytes() < kChunkBytes || p.burst_bytes() > kLineBytes ||
      p.queue_size == 0 || p.queue_size > 1024)
    throw std::invalid_argument("DramParams: burst geometry or queue_size out of range");
  return p;
}
StatGroup& parent_of(const BlockEnv& env) {
  if (!env.stats) throw std::invalid_argument("DramChannel needs BlockEnv::stats");
  return *env.stats;
}
}  // namespace

DramChannel::DramChannel(sc_core::sc_module_name name, const DramParams& p, unsigned channel_id,
                         const AddressMap& map, BackingStore& store, const BlockEnv& env)
    : MemoryChannel(name, channel_id),
      p_(checked(resolved(p))),
      map_(map),
      store_(store),
      clk_(p_.clock_mhz),
      // pae hashes the bank with the row; the other mappings only order the bits (p_'s lists).
      mapping_(p_.column_bits, p_.bank_bits, p_.row_bits, map.params().mapping == AddressMapping::Pae),
      timing_(p_),
      sched_(p_, timing_),
      in_flight_(64),
      held_(16),
      stats_(parent_of(env), basename(), "DRAM channel"),
      requests_(stats_.counter("requests", "requests received (timed)", "requests")),
      responses_(stats_.counter("responses", "responses sent (timed)", "responses")),
      reads_(stats_.counter("reads", "read requests queued", "requests")),
      writes_(stats_.counter("writes", "write requests queued", "requests")),
      bytes_read_(stats_.counter("bytes_read", "bytes read over the data bus (whole bursts)", "bytes")),
      bytes_written_(
          stats_.counter("bytes_written", "bytes written over the data bus (whole bursts)", "bytes")),
      row_hits_(stats_.counter("row_hits", "requests served from an already open row", "requests")),
      row_misses_(stats_.counter("row_misses", "requests that had to activate a closed bank", "requests")),
      row_conflicts_(
          stats_.counter("row_conflicts", "requests that had to precharge another open row", "requests")),
      activates_(stats_.counter("activates", "ACT commands issued", "commands")),
      precharges_(stats_.counter("precharges", "PRE commands issued", "commands")),
      held_requests_(
          stats_.counter("held_requests", "requests whose END_REQ was withheld (queue full)", "requests")),
      errors_(stats_.counter("error_responses", "requests answered with a TLM error status", "requests")),
      read_latency_(stats_.histogram("read_latency", "read acceptance to BEGIN_RESP", "cycles", 8, 64)),
      bank_requests_(stats_.histogram("bank_requests", "requests queued per bank (bucket = bank index)",
                                      "requests", 1, p_.banks)) {
  stats_.formula("avg_read_latency", "mean read latency (acceptance to response)", "cycles",
                 [this] { return read_latency_.mean(); });
  stats_.formula("row_hit_rate", "row_hits / (row_hits + row_misses + row_conflicts)", "ratio", [this] {
    double n = double(row_hits_.value + row_misses_.value + row_conflicts_.value);
    return n ? double(row_hits_.value) / n : 0.0;
  });
  stats_.formula("bandwidth_gbps", "data bus bytes / simulated time", "GB/s", [this] {
    double s = sc_core::sc_time_stamp().to_seconds();
    return s > 0 ? double(bytes_read_.value + bytes_written_.value) / s / 1e9 : 0.0;
  });
  stats_.formula("peak_gbps", "bus_bytes * data_rate * clock", "GB/s", [this] { return p_.peak_gbps(); });
  stats_.formula("bus_utilization", "cycles the data bus carried data / elapsed cycles", "ratio", [this] {
    uint64_t c = clk_.cycle();
    return c ? double(timing_.data_busy_cycles()) / double(c) : 0.0;
  });
  stats_.formula("queue_full_cycles", "cycles the request queue was full", "cycles", [this] {
    return double(full_cycles_ + (full_since_ == CommandScheduler::kNever ? 0 : clk_.cycle() - full_since_));
  });
  probes_.attach(env.trace_file(basename()), basename(), p_.banks);
  wake_.bind(
      env.wake, [](void* o) { static_cast<DramChannel*>(o)->run(); }, this);
  wake_.set_prefetch([](void* o, unsigned stage) { static_cast<const DramChannel*>(o)->prefetch(stage); });
}

sc_core::sc_time DramChannel::functional_latency() const {
  return clk_.cycles(p_.tRCD + p_.tCL + p_.burst_cycles());
}

void DramChannel::end_of_elaboration() {
  make_ports(tsock.size());
}

void DramChannel::make_ports(size_t n) {
  while (ports_.size() < n) {
    unsigned i = unsigned(ports_.size());
    auto port = std::make_unique<Port>();
    port->at = AtTargetPort([this, i](Payload& t, tlm::tlm_phase& ph,
                                      sc_core::sc_time& d) { return tsock[i]->nb_transport_bw(t, ph, d); },
                            [this, i](Payload& t, const sc_core::sc_time& d) { return on_request(i, t, d); },
                            // END_RESP: only a port with responses waiting has work to do now.
                            [this, i] {
                              if (!ports_[i]->responses.empty()) wake_at(clk_.cycle());
                            });
    ports_.push_back(std::move(port));
  }
}

tlm::tlm_sync_enum DramChannel::nb_transport_fw(int id, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                                sc_core::sc_time& d) {
  if (size_t(id) >= ports_.size()) make_ports(size_t(id) + 1);
  return ports_[size_t(id)]->at.nb_transport_fw(t, ph, d);
}

bool DramChannel::on_request(unsigned port, tlm::tlm_generic_payload& t, const sc_core::sc_time& delay) {
  ++requests_;
  static const uint64_t ticks_per_ps = sc_core::sc_time(1, sc_core::SC_PS).value();
  uint64_t at_ps = Clock::now_ps() + delay.value() / ticks_per_ps;
  uint64_t arrival = (at_ps + clk_.period_ps() - 1) / clk_.period_ps();
  DramRequest r;
  if (!describe(t, r)) {
    answer_error(port, t, arrival);
    return true;
  }
  if (sched_.full() || !held_.empty()) {  // back-pressure; earlier held requests keep their turn
    ports_[port]->held = &t;
    ports_[port]->held_req = r;
    held_.push(uint16_t(port));
    ++held_requests_;
    return false;
  }
  r.port = uint16_t(port);
  r.arrival = arrival;
  enqueue(r);
  return true;
}

void DramChannel::enqueue(const DramRequest& r) {
  ++(r.write ? writes_ : reads_);
  bank_requests_.add(r.bank);
  sched_.push(r);
  note_queue_change(clk_.cycle());
  wake_at(r.arrival);
}

void DramChannel::answer_error(unsigned port, tlm::tlm_generic_payload& t, uint64_t arrival) {
  ++errors_;
  ports_[port]->responses.push(Pending{&t, arrival, false});
  ++pending_responses_;
  wake_at(arrival);
}

void DramChannel::note_queue_change(uint64_t c) {
  if (sched_.full() && full_since_ == CommandScheduler::kNever) full_since_ = c;
  if (!sched_.full() && full_since_ != CommandScheduler::kNever) {
    full_cycles_ += c - full_since_;
    full_since_ = CommandScheduler::kNever;
  }
  probes_.queue(unsigned(sched_.size()));
}

void DramChannel::wake_at(uint64_t cycle) {
  if (in_run_) {
    if (cycle < run_want_) run_want_ = cycle;
    return;
  }
  if (cycle < planned_) {
    planned_ = cycle;
    wake_.notify_at_ps(clk_.edge_ps(cycle));
  }
}

void DramChannel::run() {
  in_run_ = true;
  planned_ = run_want_ = CommandScheduler::kNever;
  const uint64_t now = Clock::now_ps(), c = now / clk_.period_ps();
  retire(c);
  // Commands issue on clock edges; a mid-cycle wake-up (END_RESP) only sends responses.
  if (now % clk_.period_ps() == 0 && !sched_.empty()) {
    IssueResult res = sched_.step(c);
    if (res.cmd != DramCommand::None) record(res, c);
  }
  accept_held(c);
  send_responses(c);
  in_run_ = false;
  uint64_t next = std::min(run_want_, sched_.next_ready(c + 1));
  if (!in_flight_.empty()) next = std::min(next, in_flight_.front().done);
  if (next != CommandScheduler::kNever) wake_at(std::max(next, c + 1));
}

// With 40 channels (H100 preset) a channel's state is cold in host caches whenever it runs.
void DramChannel::prefetch(unsigned stage) const {
  switch (stage) {
    case 0:
      prefetch_object(in_flight_);
      prefetch_hint(&pending_responses_);
      timing_.prefetch_channel();
      break;
    case 1:
      if (!in_flight_.empty()) prefetch_hint(in_flight_.front_address());
      break;
    case 2:
      if (!in_flight_.empty()) prefetch_hint(in_flight_.front().req.t);
      break;
    default:
      break;
  }
  sched_.prefetch(stage);
}

void DramChannel::record(const IssueResult& res, uint64_t c) {
  if (probes_.on()) probes_.command(res, clk_.period());
  switch (res.cmd) {
    case DramCommand::Pre:
      ++precharges_;
      return;
    case DramCommand::Act:
      ++activates_;
      return;
    default:
      break;
  }
  if (res.first_burst) {
    switch (res.req.row_class) {
      case RowClass::Hit:
        ++row_hits_;
        break;
      case RowClass::Miss:
        ++row_misses_;
        break;
      case RowClass::Conflict:
        ++row_conflicts_;
        break;
    }
    if (probes_.on()) probes_.rows(row_hits_.value, row_misses_.value, row_conflicts_.value);
  }
  (res.cmd == DramCommand::Write ? bytes_written_ : bytes_read_) += p_.burst_bytes();
  if (res.finished) {
    in_flight_.push(InFlight{res.req, res.data_end + p_.controller_latency});
    note_queue_change(c);
  }
}

void DramChannel::retire(uint64_t c) {
  while (!in_flight_.empty() && in_flight_.front().done <= c) {
    InFlight f = in_flight_.pop();
    transfer(f.req);
    tlm::tlm_generic_payload& t = *f.req.t;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (!f.req.write)
      if (MemReq* m = find_req(t)) m->chunks_returned = f.req.chunks;
    ports_[f.req.port]->responses.push(Pending{&t, f.req.arrival, !f.req.write});
    ++pending_responses_;
  }
}

void DramChannel::accept_held(uint64_t c) {
  while (!sched_.full() && !held_.empty()) {
    unsigned port = held_.pop();
    tlm::tlm_generic_payload& t = *ports_[port]->held;
    ports_[port]->held = nullptr;
    DramRequest r = ports_[port]->held_req;  // checked when it arrived
    r.port = uint16_t(port);
    r.arrival = c;
    enqueue(r);
    ports_[port]->at.accept(t);
  }
}

void DramChannel::send_responses(uint64_t c) {
  bool progress = true;
  while (pending_responses_ && progress) {
    progress = false;
    for (auto& port : ports_) {
      while (!port->responses.empty() && port->at.can_respond()) {
        Pending pd = port->responses.pop();
        --pending_responses_;
        progress = true;
        ++responses_;
        if (pd.read) read_latency_.add(c - pd.accepted);
        port->at.respond(*pd.t);
      }
    }
  }
}

}  // namespace gms
