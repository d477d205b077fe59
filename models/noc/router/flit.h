// The unit a router network moves: a flit of a packet. Packets are split into flits of the channel width
// (NocParams::packet_flits); the head carries the route, the tail releases the VC it held (wormhole).
#pragma once
#include <cstdint>

namespace gms {

struct Flit {
  uint32_t packet = 0;  // index in the network's packet table (destination, payload, size)
  uint16_t vc = 0;      // the VC of the buffer it is in or travels to
  bool head = false;
  bool tail = false;
  uint64_t ready = 0;  // in a buffer: first cycle it may take part in switch allocation
};

}  // namespace gms
