// FlitNetwork's statistics (activity and energy per network and per router) and its per-router VCD probes.
#include "models/noc/router/flit_network.h"

namespace gms {

FlitNetwork::Energy FlitNetwork::router_energy(unsigned r, uint64_t now) const {
  const Router& rt = *routers_[r];
  const RouterActivity& a = rt.activity();
  Energy e;
  e.buffer = energy_model_.buffer_pj(a);
  e.crossbar = energy_model_.crossbar_pj(a, rt.inputs(), rt.outputs());
  e.allocator = energy_model_.allocator_pj(a);
  e.bypass = energy_model_.bypass_pj(a);
  for (size_t k = 0; k < link_flits_.size(); ++k)
    if (link_router_[k] == r) e.link += energy_model_.link_pj(link_flits_[k], link_mm_[k]);
  uint64_t powered = now;
  if (gate_of_[r] >= 0) powered -= std::min(now, gates_[size_t(gate_of_[r])].gated_cycles(now));
  const double seconds = double(powered) * double(clock_.period_ps()) * 1e-12;
  // mW x s = mJ = 1e9 pJ
  e.leakage = energy_model_.leakage_mw(rt.inputs(), rt.outputs(), rt.vcs(), p_.router.vc_buffer_flits) *
              seconds * 1e9;
  return e;
}

FlitNetwork::Energy FlitNetwork::energy(uint64_t now) const {
  Energy t;
  for (unsigned r = 0; r < routers_.size(); ++r) {
    const Energy e = router_energy(r, now);
    t.buffer += e.buffer;
    t.crossbar += e.crossbar;
    t.allocator += e.allocator;
    t.bypass += e.bypass;
    t.link += e.link;
    t.leakage += e.leakage;
  }
  for (size_t k = 0; k < link_flits_.size(); ++k)  // injection links: driven by the terminals
    if (link_router_[k] == UINT32_MAX) t.link += energy_model_.link_pj(link_flits_[k], link_mm_[k]);
  return t;
}

void FlitNetwork::register_stats() {
  StatGroup& g = delivery_.group;
  auto sum = [this](uint64_t RouterActivity::*field) {
    return [this, field] {
      double n = 0;
      for (const auto& r : routers_) n += double(r->activity().*field);
      return n;
    };
  };
  g.formula("buffer_writes", "flits written into router input buffers", "flits",
            sum(&RouterActivity::buffer_writes));
  g.formula("buffer_reads", "flits read out of router input buffers", "flits",
            sum(&RouterActivity::buffer_reads));
  g.formula("crossbar_traversals", "flits through a router's switch", "flits",
            sum(&RouterActivity::crossbar));
  g.formula("va_requests", "VC-allocator requests", "requests", sum(&RouterActivity::va_ops));
  g.formula("sa_requests", "switch-allocator requests", "requests", sum(&RouterActivity::sa_ops));
  g.formula("bypassed_flits", "flits through a gated MC-router's bypass", "flits",
            sum(&RouterActivity::bypassed));
  g.formula("link_flits", "flits over links (terminal links included)", "flits",
            [this] { return double(link_flits()); });
  g.formula("energy_dynamic_nj", "buffer, switch, allocator, bypass and link energy", "nJ",
            [this] { return energy(now_cycle()).dynamic() * 1e-3; });
  g.formula("energy_static_nj", "router leakage while not power-gated", "nJ",
            [this] { return energy(now_cycle()).leakage * 1e-3; });
  g.formula("energy_nj", "dynamic + static energy", "nJ",
            [this] { return energy(now_cycle()).total() * 1e-3; });
  g.formula("energy_link_nj", "link part of the dynamic energy", "nJ",
            [this] { return energy(now_cycle()).link * 1e-3; });
  g.formula("energy_crossbar_nj", "switch part of the dynamic energy", "nJ",
            [this] { return energy(now_cycle()).crossbar * 1e-3; });
  g.formula("energy_buffer_nj", "buffer part of the dynamic energy", "nJ",
            [this] { return energy(now_cycle()).buffer * 1e-3; });
  for (unsigned r = 0; r < routers_.size(); ++r) {
    StatGroup& rg = router_groups_.emplace_back(g, routers_[r]->name(), "one router");
    const RouterActivity& a = routers_[r]->activity();
    rg.formula("buffer_writes", "flits written into input buffers", "flits",
               [&a] { return double(a.buffer_writes); });
    rg.formula("crossbar_traversals", "flits through the switch", "flits",
               [&a] { return double(a.crossbar); });
    rg.formula("bypassed_flits", "flits through the bypass", "flits", [&a] { return double(a.bypassed); });
    rg.formula("energy_dynamic_nj", "buffer, switch, allocator, bypass and output-link energy", "nJ",
               [this, r] { return router_energy(r, now_cycle()).dynamic() * 1e-3; });
    rg.formula("energy_static_nj", "leakage while not power-gated", "nJ",
               [this, r] { return router_energy(r, now_cycle()).leakage * 1e-3; });
    if (gate_of_[r] >= 0) {
      const PowerGate& pg = gates_[size_t(gate_of_[r])];
      rg.formula("gated_cycles", "cycles power-gated (bypassed, no leakage)", "cycles",
                 [this, &pg] { return double(pg.gated_cycles(now_cycle())); });
      rg.formula("gate_transitions", "completed on -> gated transitions", "events",
                 [&pg] { return double(pg.gate_count()); });
    }
  }
}

void FlitNetwork::attach_probes(VcdWriter* vcd) {
  if (!vcd) return;
  traced_ = true;
  probes_.resize(routers_.size());
  for (unsigned r = 0; r < routers_.size(); ++r) {
    const Router& rt = *routers_[r];
    const std::string scope = name_ + "." + rt.name();
    RouterProbes& pr = probes_[r];
    pr.in_flits.resize(rt.inputs());
    for (uint32_t i = 0; i < rt.inputs(); ++i)
      pr.in_flits[i].attach(vcd, scope, "in" + std::to_string(i) + "_flits");
    pr.grants.attach(vcd, scope, "grants");
    if (gate_of_[r] >= 0) pr.gate.attach(vcd, scope, "gate_state");
  }
}

void FlitNetwork::probe_router(unsigned r, size_t grants) {
  RouterProbes& pr = probes_[r];
  const Router& rt = *routers_[r];
  for (uint32_t i = 0; i < rt.inputs(); ++i) pr.in_flits[i].set(rt.buffered(i));
  if (grants) pr.grants.set(rt.activity().crossbar + rt.activity().bypassed);
}

}  // namespace gms
