#include "models/dram/memory_channel.h"

namespace gms {

MemoryChannel::MemoryChannel(sc_core::sc_module_name name, unsigned channel_id)
    : sc_core::sc_module(name), tsock("tsock"), channel_id_(channel_id) {
  tsock.register_nb_transport_fw(this, &MemoryChannel::fw_cb);
  tsock.register_b_transport(this, &MemoryChannel::b_cb);
  tsock.register_transport_dbg(this, &MemoryChannel::dbg_cb);
  tsock.register_get_direct_mem_ptr(this, &MemoryChannel::dmi_cb);
}

MemoryChannel::~MemoryChannel() = default;

}  // namespace gms
