// GpuMemSys: the host socket. How each access stays coherent with the caches:
//  - transport_dbg and b_transport both take the debug path of the memory hierarchy: the access is split
//    by 128 B line; a line is read from the LLC slice that serves it (for a private LLC, SM 0's cluster's
//    copy; private slices are write-through, so DRAM is current), which overlays every valid byte it holds
//    on DRAM's, so dirty data in the LLC is seen; a write goes to every slice that may hold the line (its
//    copy and queued write-backs) and to DRAM. The L1s are write-through (never dirty) and are invalidated
//    when a launch ends, so they hold nothing a host write could make stale between launches.
//  - b_transport adds the uncontended latency (host_latency) to the annotated delay and changes no block's
//    state or statistics: a host access perturbs no timed result. Host accesses while a launch runs are
//    allowed and see the memory as of that instant (a GPU is not coherent with its host during a kernel).
//  - DMI is granted (read-write, one 4 KiB backing-store page) only while the caches hold nothing (before
//    any work and between launches) and only over the built-in DRAM's backing store; every pointer is
//    revoked when work starts.
#include <algorithm>
#include <vector>

#include "models/common/clock.h"
#include "models/common/line_pieces.h"
#include "models/common/mem_req.h"
#include "models/dram/backing_store.h"
#include "models/dram/memory_channel.h"
#include "models/llc/last_level_cache.h"
#include "models/llc/slice_selector.h"
#include "models/system/gpu_mem_sys.h"

namespace gms {

namespace {

bool bad_shape(const tlm::tlm_generic_payload& t) {
  const unsigned len = t.get_data_length(), sw = t.get_streaming_width();
  return !t.get_data_ptr() || len == 0 || (sw != 0 && sw < len);
}

}  // namespace

unsigned GpuMemSys::host_access(tlm::tlm_generic_payload& t) {
  const bool write = t.get_command() == tlm::TLM_WRITE_COMMAND;
  std::vector<unsigned> targets;
  return for_each_line_piece(t, [&](tlm::tlm_generic_payload& piece) {
    // A read asks the slice that serves the line; a write goes to every slice that may hold it.
    const uint64_t a = piece.get_address();
    targets.clear();
    if (write)
      slices_->holders(a, targets);
    else
      targets.push_back(slices_->slice_for(a, 0));
    unsigned got = 0;
    for (unsigned s : targets) got = llcs_.at(s)->tsock.get_base_interface().transport_dbg(piece);
    return got;
  });
}

unsigned GpuMemSys::host_transport_dbg(tlm::tlm_generic_payload& t) {
  const tlm::tlm_command cmd = t.get_command();
  if ((cmd != tlm::TLM_READ_COMMAND && cmd != tlm::TLM_WRITE_COMMAND) || !t.get_data_ptr()) return 0;
  const unsigned done = host_access(t);
  if (done) t.set_response_status(tlm::TLM_OK_RESPONSE);
  return done;
}

void GpuMemSys::host_b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
  const tlm::tlm_command cmd = t.get_command();
  if (cmd == tlm::TLM_IGNORE_COMMAND) {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (cmd != tlm::TLM_READ_COMMAND && cmd != tlm::TLM_WRITE_COMMAND) {
    t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (bad_shape(t)) {  // no data, or a streaming (FIFO-like) access: memory is not a FIFO
    t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (host_access(t) < t.get_data_length()) {
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay += host_latency(t.get_address(), t.get_data_length());
  t.set_dmi_allowed(dmi_possible());
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

sc_core::sc_time GpuMemSys::host_latency(uint64_t addr, unsigned len) const {
  const sc_core::sc_time llc = Clock(cfg_.llc.clock_mhz).period() * double(cfg_.llc.latency);
  sc_core::sc_time total = sc_core::SC_ZERO_TIME;
  const uint64_t first = line_of(addr), lines = (line_of(addr + len - 1) - first) / kLineBytes + 1;
  for (uint64_t i = 0; i < lines; ++i)
    total += llc + drams_[map_->channel_of(first + i * kLineBytes)]->functional_latency();
  return total;
}

bool GpuMemSys::dmi_possible() const {
  return caches_clean_ && builtin_dram_;
}

bool GpuMemSys::host_get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) {
  const uint64_t base = BackingStore::page_base(t.get_address());
  dmi.set_start_address(base);
  dmi.set_end_address(base + BackingStore::kPageBytes - 1);
  if (!dmi_possible()) {  // the caches may hold newer data than the store (or the store is not the memory)
    dmi.allow_none();
    return false;
  }
  dmi.set_dmi_ptr(store_->page(base));
  dmi.allow_read_write();
  const sc_core::sc_time lat = drams_[map_->channel_of(base)]->functional_latency();
  dmi.set_read_latency(lat);
  dmi.set_write_latency(lat);
  dmi_granted_ = true;
  return true;
}

void GpuMemSys::revoke_dmi() {
  if (!dmi_granted_) return;
  dmi_granted_ = false;
  if (host.size() > 0) host->invalidate_direct_mem_ptr(0, ~sc_dt::uint64(0));
}

}  // namespace gms
