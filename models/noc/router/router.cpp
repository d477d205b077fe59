#include "models/noc/router/router.h"

#include <algorithm>
#include <stdexcept>

#include "models/noc/noc_params.h"

namespace gms {

Router::Router(std::string name, uint32_t inputs, uint32_t outputs, const RouterParams& p,
               const std::vector<uint32_t>& out_vcs, const std::vector<uint32_t>& out_depth,
               const std::vector<uint16_t>& route, const std::vector<uint32_t>& packet_dest)
    : name_(std::move(name)),
      vcs_(p.vcs),
      pipeline_(p.pipeline),
      in_(inputs),
      out_(outputs),
      route_(route),
      packet_dest_(packet_dest) {
  if (out_vcs.size() != outputs || out_depth.size() != outputs)
    throw std::logic_error("router " + name_ + ": output descriptions do not match the output count");
  uint32_t total_out_vcs = 0;
  for (uint32_t o = 0; o < outputs; ++o) {
    out_vc_base_.push_back(total_out_vcs);
    total_out_vcs += out_vcs[o];
    out_[o].credits.assign(out_vcs[o], int32_t(out_depth[o]));
    out_[o].held.assign(out_vcs[o], 0);
  }
  for (Input& in : in_) {
    in.vcs.resize(vcs_);
    for (Vc& v : in.vcs) v.buf = RingQueue<Flit>(p.vc_buffer_flits);
  }
  va_ = make_allocator(p.allocator, inputs * vcs_, total_out_vcs, p.iterations);
  sa_ = make_allocator(p.allocator, inputs, outputs, p.iterations);
  busy_inputs_.reserve(inputs);
}

uint64_t Router::footprint(uint32_t inputs, uint32_t outputs, const RouterParams& p, uint64_t out_vcs_total) {
  uint64_t depth = 1;  // a RingQueue rounds its capacity up to a power of two
  while (depth < p.vc_buffer_flits) depth <<= 1;
  const uint64_t vcs = uint64_t(inputs) * p.vcs;
  uint64_t b = sizeof(Router) + uint64_t(inputs) * sizeof(Input) + vcs * (sizeof(Vc) + depth * sizeof(Flit));
  b += uint64_t(outputs) * (sizeof(Output) + sizeof(uint32_t)) +
       out_vcs_total * (sizeof(int32_t) + sizeof(uint8_t));
  b += uint64_t(inputs) * sizeof(uint32_t);  // busy_inputs_
  b += allocator_bytes(p.allocator, unsigned(std::min<uint64_t>(vcs, UINT32_MAX)),
                       unsigned(std::min<uint64_t>(out_vcs_total, UINT32_MAX)));
  return b + allocator_bytes(p.allocator, inputs, outputs);
}

uint32_t Router::buffered(uint32_t in) const {
  return in_[in].flits;
}

bool Router::holds_packets() const {
  if (buffered_) return true;
  for (const Output& o : out_)
    for (uint8_t h : o.held)
      if (h) return true;
  return false;
}

bool Router::stuck_input(uint64_t c, uint64_t limit, uint32_t& in, uint32_t& vc) const {
  for (uint32_t i = 0; i < in_.size(); ++i) {
    const Input& port = in_[i];
    if (!port.flits || c - port.last_move < limit) continue;
    for (uint32_t v = 0; v < vcs_; ++v)
      if (!port.vcs[v].buf.empty()) {
        in = i;
        vc = v;
        return true;
      }
  }
  return false;
}

const Flit* Router::front(uint32_t in, uint32_t vc) const {
  const RingQueue<Flit>& b = in_[in].vcs[vc].buf;
  return b.empty() ? nullptr : &b.front();
}

void Router::write(uint32_t in, Flit f, uint64_t w) {
  Input& port = in_[in];
  Vc& v = port.vcs[f.vc];
  // Pipeline: buffer write (and route computation) now, switch allocation pipeline - 1 cycles later; a
  // bypassed router is a wire with one register.
  f.ready = bypass_ ? w : w + pipeline_ - 1;
  if (!port.flits) port.last_move = w;
  v.buf.push_back(f);
  ++port.flits;
  ++buffered_;
  if (!bypass_) ++act_.buffer_writes;
}

void Router::credit(uint32_t o, uint16_t vc) {
  ++out_[o].credits[vc];
}

void Router::step(uint64_t c, std::vector<Departure>& out) {
  if (!buffered_) return;
  if (bypass_) {
    step_bypass(c, out);
    return;
  }
  busy_inputs_.clear();
  for (uint32_t i = 0; i < in_.size(); ++i)
    if (in_[i].flits) busy_inputs_.push_back(i);
  allocate_vcs(c);
  allocate_switch(c, out);
}

void Router::allocate_vcs(uint64_t c) {
  for (uint32_t i : busy_inputs_) {
    Input& port = in_[i];
    for (uint32_t v = 0; v < vcs_; ++v) {
      Vc& vc = port.vcs[v];
      if (vc.buf.empty() || vc.out_vc >= 0) continue;
      const Flit& f = vc.buf.front();
      if (!f.head || f.ready > c) continue;
      if (vc.out_port < 0) vc.out_port = route_[packet_dest_[f.packet]];  // route computation
      const uint32_t o = uint32_t(vc.out_port);
      const Output& op = out_[o];
      for (uint32_t d = 0; d < op.held.size(); ++d)
        if (!op.held[d]) {
          va_->add_request(i * vcs_ + v, out_vc_base_[o] + d);
          ++act_.va_ops;
        }
    }
  }
  if (!va_->has_requests()) return;
  va_->allocate();
  for (const auto& g : va_->grants()) {
    Vc& vc = in_[g.first / vcs_].vcs[g.first % vcs_];
    const uint32_t o = uint32_t(vc.out_port);
    const uint32_t d = g.second - out_vc_base_[o];
    out_[o].held[d] = 1;
    vc.out_vc = int32_t(d);
  }
}

void Router::allocate_switch(uint64_t c, std::vector<Departure>& out) {
  // Each input offers one VC (round-robin among those with a ready flit, an output VC and a credit);
  // the switch allocator then matches inputs to outputs.
  for (uint32_t i : busy_inputs_) {
    Input& port = in_[i];
    port.chosen = -1;
    for (uint32_t k = 0; k < vcs_; ++k) {
      const uint32_t v = (port.next_vc + k) % vcs_;
      const Vc& vc = port.vcs[v];
      if (vc.buf.empty() || vc.out_vc < 0 || vc.buf.front().ready > c) continue;
      if (out_[uint32_t(vc.out_port)].credits[uint32_t(vc.out_vc)] <= 0) continue;
      port.chosen = int32_t(v);
      sa_->add_request(i, uint32_t(vc.out_port));
      ++act_.sa_ops;
      break;
    }
  }
  if (!sa_->has_requests()) return;
  sa_->allocate();
  for (const auto& g : sa_->grants()) {
    Input& port = in_[g.first];
    const uint32_t v = uint32_t(port.chosen);
    port.next_vc = (v + 1) % vcs_;
    out.push_back(send(g.first, v, g.second, c));
    ++act_.crossbar;
  }
}

Router::Departure Router::send(uint32_t in, uint32_t v, uint32_t o, uint64_t c) {
  Input& port = in_[in];
  port.last_move = c;
  Vc& vc = port.vcs[v];
  Flit f = vc.buf.front();
  vc.buf.pop_front();
  --port.flits;
  --buffered_;
  ++act_.buffer_reads;
  Output& op = out_[o];
  const uint16_t d = uint16_t(vc.out_vc);
  if (--op.credits[d] < 0) throw std::logic_error("router " + name_ + ": negative credits");
  Departure dep{o, in, uint16_t(v), f};
  dep.flit.vc = d;
  if (f.tail) {  // wormhole: the packet releases its output VC and the input VC's route
    op.held[d] = 0;
    vc.out_vc = -1;
    vc.out_port = -1;
    // The next packet's head in this VC starts route computation and VC allocation only now (an input
    // VC's state is per packet, as in BookSim's IQ router): it may bid for the switch pipeline - 1 cycles
    // later, as if just written. Several VCs hide this bubble.
    if (!vc.buf.empty() && !bypass_) vc.buf.front().ready = std::max(vc.buf.front().ready, c + pipeline_ - 1);
  }
  return dep;
}

void Router::step_bypass(uint64_t c, std::vector<Departure>& out) {
  for (uint32_t i = 0; i < in_.size(); ++i) {
    Input& port = in_[i];
    if (!port.flits) continue;
    if (i >= out_.size()) throw std::logic_error("router " + name_ + ": bypass input without an output");
    for (uint32_t k = 0; k < vcs_; ++k) {
      const uint32_t v = (port.next_vc + k) % vcs_;
      Vc& vc = port.vcs[v];
      if (vc.buf.empty() || vc.buf.front().ready > c) continue;
      Output& op = out_[i];
      if (vc.out_vc < 0) {  // a head takes the first free downstream VC of the wired output
        const Flit& h = vc.buf.front();
        if (!h.head) throw std::logic_error("router " + name_ + ": bypass body flit without VC");
        // Gated, the router connects input i to output i only (paper 004 section 4.2): traffic that needs
        // another output (a shared-LLC request) must not reach a bypassed MC-router.
        const uint32_t want = route_[packet_dest_[h.packet]];
        if (want != i)
          throw std::logic_error("router " + name_ + " is bypassed (gated), but a packet at input " +
                                 std::to_string(i) + " routes to output " + std::to_string(want) +
                                 ": only input i -> output i traffic may cross a gated MC-router");
        int32_t d = -1;
        for (uint32_t x = 0; x < op.held.size() && d < 0; ++x)
          if (!op.held[x]) d = int32_t(x);
        if (d < 0) continue;
        op.held[uint32_t(d)] = 1;
        vc.out_vc = d;
        vc.out_port = int32_t(i);
      }
      if (op.credits[uint32_t(vc.out_vc)] <= 0) continue;
      port.next_vc = (v + 1) % vcs_;
      Departure dep = send(i, v, i, c);
      // Not a buffer read or a crossbar traversal: the bypass latch only.
      --act_.buffer_reads;
      ++act_.bypassed;
      out.push_back(dep);
      break;
    }
  }
}

}  // namespace gms
