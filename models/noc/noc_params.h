// Parameters of the interconnect between the SM-side L1s and the LLC slices (YAML section `noc:`).
// Defaults follow paper 000's baseline (32 B flits at 700 MHz); see docs/blocks/noc.md.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/config.h"
#include "models/noc/router/noc_energy.h"
#include "models/noc/router/power_gate.h"

namespace gms {

// The flit-level router (noc.type crossbar / concentrated / hxbar; docs/blocks/noc.md "Routers").
// Defaults: paper 004's 4-stage routers with 1 VC x 8 flits per port and iSLIP allocation.
struct RouterParams {
  uint32_t vcs = 1;                 // virtual channels per input port
  uint32_t vc_buffer_flits = 8;     // depth of each VC buffer
  uint32_t pipeline = 4;            // stages from buffer write to switch traversal (RC, VA, SA, ST)
  std::string allocator = "islip";  // VC and switch allocation: islip | rr (separable round-robin)
  uint32_t iterations = 1;          // iSLIP iterations
  uint32_t link_latency = 1;        // cycles on a short link (router -> router, router -> terminal)

  static RouterParams from(const ConfigNode& n);
};

struct HxbarParams {
  uint32_t clusters = 0;           // SM-routers; 0: slices per memory controller (the co-design rule)
  uint32_t long_link_latency = 2;  // cycles on a link SM-router <-> MC-router (assumed: twice a short link)
  GateParams gate;                 // MC-router power gating: gate_cycles, wake_cycles

  static HxbarParams from(const ConfigNode& n);
};

struct NocParams {
  // full: the one-hop packet crossbar; crossbar, concentrated, hxbar: flit-level router networks.
  std::string type = "full";
  double clock_mhz = 700.0;          // NoC clock; all cycle counts below are in this clock
  uint32_t flit_bytes = 32;          // channel width = flit size
  uint32_t ctrl_bytes = 8;           // header bytes per packet (address, command, ids)
  uint32_t input_buffer_flits = 16;  // buffer per input port per network (request and reply)
  uint32_t latency = 2;              // full: router + link pipeline cycles from switch grant to head flit out
  std::string arbiter = "rr";        // full: output arbitration policy (rtl: the Verilated rr_arbiter.sv)
  uint32_t concentration = 2;        // concentrated: terminals per router port on each side
  uint64_t watchdog_cycles = 1000000;  // router networks: a flit unmoved this long is an error (0: off)
  RouterParams router;
  HxbarParams hxbar;
  EnergyParams energy;

  // Flits of a packet carrying data_bytes of payload: ceil((ctrl_bytes + data_bytes) / flit_bytes).
  uint32_t packet_flits(uint32_t data_bytes) const {
    return (ctrl_bytes + data_bytes + flit_bytes - 1) / flit_bytes;
  }
  // The largest packet a GPUMemSys request or reply makes (a full 128 B line of data).
  uint32_t max_packet_flits() const { return packet_flits(128); }

  static NocParams from(const ConfigNode& n);
};

}  // namespace gms
