// The memory-side LLC slice interface every design implements, and the design registry the system builder
// uses (as L1Cache and make_l1, Interconnect and make_interconnect): make_llc(params) builds the class
// named by llc.design. The organisation controllers (LlcModeController, AdaptiveLlcController) and the
// system talk to slices through this interface only, so another slice model, a transactor or a foreign
// model can stand in.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/block_env.h"
#include "models/common/stats.h"
#include "models/llc/llc_params.h"

namespace gms {

class LastLevelCache : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<LastLevelCache> tsock;     // from the NoC (AT base protocol)
  tlm_utils::simple_initiator_socket<LastLevelCache> isock;  // to the DRAM channel

  LastLevelCache(sc_core::sc_module_name name, unsigned slice_id);
  ~LastLevelCache() override;

  // Organisation support (paper 004 section 4.1; docs/blocks/llc.md "Maintenance").
  // write_back_all: every dirty line is written back and stays valid; invalidate_all: dirty lines are
  // written back, every line is dropped (lines with a fill in flight when it completes). Both return the
  // lines written back / dropped now; their DRAM writes are timed.
  virtual uint32_t write_back_all() = 0;
  virtual uint32_t invalidate_all() = 0;
  // Nothing accepted, queued or in flight (downstream write-backs acknowledged).
  virtual bool quiescent() const = 0;
  // Write-through: every write also goes to DRAM at once and leaves the line clean (a private LLC).
  virtual void set_write_through(bool on) = 0;
  // Called once per request whose tag access went through: line, set in this slice, requesting SM (the
  // adaptive LLC's ATD observes its sampled slice).
  using AccessObserver = void (*)(void* ctx, uint64_t line, uint32_t set, unsigned sm);
  virtual void set_access_observer(AccessObserver fn, void* ctx) = 0;

  virtual const LlcParams& params() const = 0;
  // The slice's statistics group: `accesses`, `hits`, `responses` at least (the controllers read them).
  virtual const StatGroup& stats() const = 0;
  unsigned slice_id() const { return slice_id_; }

 protected:
  using Payload = tlm::tlm_generic_payload;
  // Socket callbacks (registered here, dispatched to the design).
  virtual tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) = 0;
  virtual tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) = 0;
  virtual void b_transport(Payload& t, sc_core::sc_time& d) = 0;
  virtual unsigned int transport_dbg(Payload& t) = 0;
  // DMI from upstream: refused by default (allow_none over the line), as a direct pointer to the memory
  // behind would bypass the lines this slice holds. A design that can grant it correctly overrides this.
  virtual bool get_direct_mem_ptr(Payload& t, tlm::tlm_dmi& dmi);

 private:
  // Non-virtual trampolines for the sockets (registered once in the constructor).
  tlm::tlm_sync_enum fw_cb(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return nb_transport_fw(t, ph, d);
  }
  tlm::tlm_sync_enum bw_cb(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return nb_transport_bw(t, ph, d);
  }
  void b_cb(Payload& t, sc_core::sc_time& d) { b_transport(t, d); }
  unsigned int dbg_cb(Payload& t) { return transport_dbg(t); }
  bool dmi_cb(Payload& t, tlm::tlm_dmi& dmi) { return get_direct_mem_ptr(t, dmi); }
  // The memory's DMI invalidations pass on upstream (whoever got a pointer through this slice's path).
  void invalidate_cb(sc_dt::uint64 start, sc_dt::uint64 end) { tsock->invalidate_direct_mem_ptr(start, end); }

  unsigned slice_id_;
};

using LlcFactory = std::function<std::unique_ptr<LastLevelCache>(const LlcParams&, sc_core::sc_module_name,
                                                                 unsigned slice_id, const BlockEnv&)>;

// Adds (or replaces) a design. "slice" (LlcSlice) is always present.
void register_llc_design(const std::string& name, LlcFactory factory);
std::vector<std::string> llc_designs();
// The design LlcParams::design names; ConfigError naming llc.design for an unknown one.
std::unique_ptr<LastLevelCache> make_llc(const LlcParams& p, sc_core::sc_module_name name, unsigned slice_id,
                                         const BlockEnv& env);

}  // namespace gms
