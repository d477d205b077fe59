// A flit-level router (BookSim 2's input-queued virtual-channel router, paper 004's 4-stage pipeline):
// per input port `vcs` VC buffers of `vc_buffer_flits`, wormhole switching, credit-based flow control, route
// computation from a table, then VC allocation and switch allocation through Allocators (iSLIP or
// separable round-robin), switch traversal, and an output link with its own latency (timed by the owner).
//
// Timing: a flit written into an input buffer at cycle w may win switch allocation from cycle
// w + pipeline - 1 (a head also needs an output VC, allocated in the same step just before); a flit that
// wins at cycle s is written downstream at s + 1 + link latency, and the credit for its buffer slot
// reaches the upstream at s + 1 + the upstream link's latency. Uncontended, a hop costs pipeline + link
// cycles and a packet of n flits ends n - 1 cycles after its head. A head queued behind another packet in
// the same VC restarts the pipeline when that packet's tail leaves at cycle t (bids from t + pipeline - 1).
//
// A router with no buffered flit is not stepped (the network keeps a set of busy routers).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/common/ring_queue.h"
#include "models/noc/router/allocator.h"
#include "models/noc/router/flit.h"
#include "models/noc/router/router_stats.h"

namespace gms {

struct RouterParams;

class Router {
 public:
  // A flit that won the switch this cycle: the owner times its link and the credit back upstream.
  struct Departure {
    uint32_t out;    // output port
    uint32_t in;     // input port it left (its credit goes to that port's upstream)
    uint16_t in_vc;  // the VC whose buffer slot it freed
    Flit flit;       // flit.vc: the downstream VC
  };

  // out_vcs[o] and out_depth[o]: the VCs and buffer depth behind output o (a sink has 1 VC).
  Router(std::string name, uint32_t inputs, uint32_t outputs, const RouterParams& p,
         const std::vector<uint32_t>& out_vcs, const std::vector<uint32_t>& out_depth,
         const std::vector<uint16_t>& route, const std::vector<uint32_t>& packet_dest);

  // The bytes a router with these ports allocates: its VC buffers (vcs x vc_buffer_flits flits per input),
  // VC and output state, and the VC and switch allocators. out_vcs_total: the VCs behind all its outputs
  // (the sum of out_vcs). For the memory budget (models/system/memory_budget.h), before anything is built.
  static uint64_t footprint(uint32_t inputs, uint32_t outputs, const RouterParams& p, uint64_t out_vcs_total);

  const std::string& name() const { return name_; }
  uint32_t inputs() const { return uint32_t(in_.size()); }
  uint32_t outputs() const { return uint32_t(out_.size()); }
  uint32_t vcs() const { return vcs_; }

  // Buffer write at cycle w (the link or the injector delivers it).
  void write(uint32_t in, Flit f, uint64_t w);
  // A credit for output o's downstream VC arrives.
  void credit(uint32_t o, uint16_t vc);
  // Allocation and traversal for cycle c; appends the flits that leave to `out`.
  void step(uint64_t c, std::vector<Departure>& out);
  bool busy() const { return buffered_ != 0; }
  uint32_t buffered() const { return buffered_; }
  uint32_t buffered(uint32_t in) const;
  int32_t credits(uint32_t o, uint16_t vc) const { return out_[o].credits[vc]; }

  // Bypass (an MC-router of the H-Xbar when gated): input i is wired to output i, no allocation, one
  // cycle; see McRouterGate. Only legal while no packet holds an output VC.
  void set_bypass(bool on) { bypass_ = on; }
  bool bypass() const { return bypass_; }
  bool holds_packets() const;  // an output VC is held or a flit is buffered

  // Watchdog: an input port that holds flits and has sent none since cycle c - limit (its oldest flit
  // has not moved); false if none. `vc` is a VC with a flit at its front.
  bool stuck_input(uint64_t c, uint64_t limit, uint32_t& in, uint32_t& vc) const;
  // The flit at the front of input in's VC vc (nullptr if empty), and the output its packet routes to
  // (-1 before route computation).
  const Flit* front(uint32_t in, uint32_t vc) const;
  int32_t route_of(uint32_t in, uint32_t vc) const { return in_[in].vcs[vc].out_port; }

  RouterActivity& activity() { return act_; }
  const RouterActivity& activity() const { return act_; }

 private:
  struct Vc {
    RingQueue<Flit> buf;
    int32_t out_port = -1;  // route of the packet at the front (from its head)
    int32_t out_vc = -1;    // allocated downstream VC, -1 until VC allocation
  };
  struct Input {
    std::vector<Vc> vcs;
    uint32_t flits = 0;
    uint64_t last_move = 0;  // cycle a flit last left (or the port became non-empty): the watchdog's clock
    uint32_t next_vc = 0;    // round-robin among this input's VCs for the switch
    int32_t chosen = -1;     // VC offered to the switch allocator this cycle
  };
  struct Output {
    std::vector<int32_t> credits;  // per downstream VC
    std::vector<uint8_t> held;     // per downstream VC: allocated to a packet until its tail leaves
  };

  void allocate_vcs(uint64_t c);
  void allocate_switch(uint64_t c, std::vector<Departure>& out);
  void step_bypass(uint64_t c, std::vector<Departure>& out);
  Departure send(uint32_t in, uint32_t vc, uint32_t o, uint64_t c);

  std::string name_;
  uint32_t vcs_, pipeline_;
  std::vector<Input> in_;
  std::vector<Output> out_;
  std::vector<uint32_t> out_vc_base_;  // first VC-allocator output index of each output port
  const std::vector<uint16_t>& route_;
  const std::vector<uint32_t>& packet_dest_;  // the network's packet table: destination terminal
  std::unique_ptr<Allocator> va_, sa_;
  std::vector<uint32_t> busy_inputs_;  // inputs with flits (rebuilt each step from the counts)
  uint32_t buffered_ = 0;
  bool bypass_ = false;
  RouterActivity act_;
};

}  // namespace gms
