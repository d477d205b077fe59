// Parameters of the interconnect between the SM-side L1s and the LLC slices (YAML section `noc:`).
// Defaults follow paper 000's baseline (32 B flits at 700 MHz); see docs/blocks/noc.md.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/config.h"

namespace gms {

struct NocParams {
  std::string type = "full";         // topology: full crossbar (concentrated / hierarchical later)
  double clock_mhz = 700.0;          // NoC clock; all cycle counts below are in this clock
  uint32_t flit_bytes = 32;          // channel width = flit size
  uint32_t ctrl_bytes = 8;           // header bytes per packet (address, command, ids)
  uint32_t input_buffer_flits = 16;  // buffer per input port per network (request and reply)
  uint32_t latency = 2;              // router + link pipeline cycles from switch grant to head flit out
  std::string arbiter = "rr";        // output arbitration policy

  // Flits of a packet carrying data_bytes of payload: ceil((ctrl_bytes + data_bytes) / flit_bytes).
  uint32_t packet_flits(uint32_t data_bytes) const {
    return (ctrl_bytes + data_bytes + flit_bytes - 1) / flit_bytes;
  }
  // The largest packet a GPUMemSys request or reply makes (a full 128 B line of data).
  uint32_t max_packet_flits() const { return packet_flits(128); }

  static NocParams from(const ConfigNode& n);
};

}  // namespace gms
