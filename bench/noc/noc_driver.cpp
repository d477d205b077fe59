#include "bench/noc/noc_driver.h"

#include <algorithm>
#include <stdexcept>

#include "models/noc/router/topology.h"

namespace gms::noc_bench {

Driver::Driver(const DriverConfig& cfg)
    : cfg_(cfg), clock_(cfg.noc.clock_mhz), stats_("bench"), rng_(cfg.seed, "bench_noc") {
  net_ = std::make_unique<FlitNetwork>(
      cfg_.reply ? "resp" : "req", stats_, cfg_.noc, clock_, *this,
      build_topology(cfg_.noc, cfg_.inputs, cfg_.outputs, cfg_.reply, cfg_.slices_per_mc));
  flits_ = cfg_.noc.packet_flits(cfg_.data_bytes);
  sources_.resize(cfg_.inputs);
  for (Source& s : sources_) {
    s.next = 0;
    draw_next(s, 0);
  }
}

// The next packet of a source comes `gap` failed trials after cycle `after` (trials at after, after+1, ...).
void Driver::draw_next(Source& s, uint64_t after) {
  s.next = after + geometric_gap(rng_, cfg_.packet_rate);
  s.dest = cfg_.pattern.pick(rng_, cfg_.outputs);
}

uint32_t Driver::alloc_payload() {
  if (!free_.empty()) {
    const uint32_t i = free_.back();
    free_.pop_back();
    return i;
  }
  payloads_.emplace_back();
  records_.emplace_back();
  payloads_.back().set_address(records_.size() - 1);
  return uint32_t(records_.size() - 1);
}

uint64_t Driver::feed(uint64_t c) {
  uint64_t earliest = PacketNetwork::kNever;
  const uint64_t arrival_ps = c * clock_.period_ps();
  for (unsigned in = 0; in < sources_.size(); ++in) {
    Source& s = sources_[in];
    // The queue behind the input is unbounded: every packet created by now is offered, oldest first, until
    // the network's input queue is full (it then holds one offer until accepted()).
    while (!s.held && s.next <= c) {
      const uint32_t k = alloc_payload();
      Record& r = records_[k];
      r.created = s.next;
      r.measured = s.next >= win_begin_ && s.next < win_end_;
      if (r.measured) ++tally_.measured_created, ++measured_left_;
      const uint32_t dest = s.dest;
      draw_next(s, s.next + 1);
      s.held = !net_->arrive(in, dest, payloads_[k], cfg_.data_bytes, arrival_ps);
    }
    if (!s.held) earliest = std::min(earliest, s.next);
  }
  return earliest;
}

bool Driver::deliver(unsigned, tlm::tlm_generic_payload& t) {
  const uint32_t k = uint32_t(t.get_address());
  const Record& r = records_[k];
  ++tally_.packets;
  tally_.flits += flits_;
  if (cycle_ >= win_begin_ && cycle_ < win_end_) tally_.window_flits += flits_;
  if (r.measured) {
    tally_.measured_latency.push_back(uint32_t(cycle_ - r.created));
    --measured_left_;
  }
  free_.push_back(k);
  return true;
}

void Driver::accepted(unsigned in, tlm::tlm_generic_payload&) {
  sources_[in].held = false;
  accepted_now_ = true;
}

void Driver::run_until(uint64_t end) {
  while (cycle_ < end) {
    const uint64_t c = cycle_;
    const uint64_t src_next = feed(c);
    accepted_now_ = false;
    const uint64_t net_next = net_->step(c);
    ++stepped_;
    // Skip cycles in which neither a source nor the network has anything to do.
    cycle_ = accepted_now_ ? c + 1 : std::max(c + 1, std::min(src_next, net_next));
  }
}

bool Driver::drain(uint64_t limit) {
  auto pending = [this] {
    if (measured_left_) return true;
    for (const Source& s : sources_)
      if (s.next < win_end_) return true;  // a window packet not created yet (its source is backed up)
    return false;
  };
  while (pending() && cycle_ < limit) run_until(std::min(limit, cycle_ + 256));
  return !pending();
}

}  // namespace gms::noc_bench
