// The memory-channel interface the system binds its LLC slices to (as L1Cache, Interconnect and
// LastLevelCache are for their blocks): a multi-target socket, one binding per LLC slice of the channel,
// with the base protocol's four calls. DramChannel (controller and banks over the shared BackingStore)
// implements it; a transactor or a foreign memory model can stand in by implementing it too
// (GpuMemSysOptions::make_dram).
#pragma once
#include <tlm.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <systemc>

#include "models/common/stats.h"

namespace gms {

class MemoryChannel : public sc_core::sc_module {
 public:
  // From the LLC slices of this channel (index = binding order): AT requests, b_transport, debug and DMI
  // (over the bytes this channel serves).
  tlm_utils::multi_passthrough_target_socket<MemoryChannel> tsock;

  MemoryChannel(sc_core::sc_module_name name, unsigned channel_id);
  ~MemoryChannel() override;

  unsigned channel_id() const { return channel_id_; }
  // The latency b_transport annotates for one access (an uncontended access to a closed row): what a
  // loosely-timed caller in front of the memory system adds per line that misses the caches.
  virtual sc_core::sc_time functional_latency() const = 0;
  virtual StatGroup& stats() = 0;

 protected:
  using Payload = tlm::tlm_generic_payload;
  // Socket callbacks (registered here, dispatched to the model); `port` is the binding's index.
  virtual tlm::tlm_sync_enum nb_transport_fw(int port, Payload& t, tlm::tlm_phase& ph,
                                             sc_core::sc_time& d) = 0;
  virtual void b_transport(int port, Payload& t, sc_core::sc_time& d) = 0;
  virtual unsigned transport_dbg(int port, Payload& t) = 0;
  virtual bool get_direct_mem_ptr(int port, Payload& t, tlm::tlm_dmi& dmi) = 0;

  const unsigned channel_id_;

 private:
  // Non-virtual trampolines for the socket (registered once in the constructor).
  tlm::tlm_sync_enum fw_cb(int port, Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return nb_transport_fw(port, t, ph, d);
  }
  void b_cb(int port, Payload& t, sc_core::sc_time& d) { b_transport(port, t, d); }
  unsigned dbg_cb(int port, Payload& t) { return transport_dbg(port, t); }
  bool dmi_cb(int port, Payload& t, tlm::tlm_dmi& dmi) { return get_direct_mem_ptr(port, t, dmi); }
};

}  // namespace gms
