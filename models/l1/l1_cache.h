// The L1 data cache interface every design implements (baseline, TSC, G-Cache, decoupled, ...), and the
// design registry the system builder uses: make_l1(params) picks the class named by l1.design.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/common/block_env.h"
#include "models/common/clock.h"
#include "models/common/rng.h"
#include "models/common/stats.h"
#include "models/l1/l1_params.h"

namespace gms {

class L1Cache : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<L1Cache> tsock;     // from the SM's load-store unit
  tlm_utils::simple_initiator_socket<L1Cache> isock;  // to the NoC / L2

  L1Cache(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~L1Cache() override;

  // Kernel boundary (software coherence): drop every valid line; fills in flight stay pending.
  virtual void invalidate_all() = 0;
  // Calls invalidate_all() when l1.flush_at_kernel_end is set.
  void kernel_end() {
    if (params_.flush_at_kernel_end) invalidate_all();
  }

  const L1Params& params() const { return params_; }
  unsigned sm_id() const { return sm_id_; }
  StatGroup& stats() { return stats_; }

 protected:
  // Socket callbacks (registered here, dispatched to the design).
  virtual tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                             sc_core::sc_time& d) = 0;
  virtual tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                             sc_core::sc_time& d) = 0;
  virtual void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) = 0;
  virtual unsigned transport_dbg(tlm::tlm_generic_payload& t) = 0;

  L1Params params_;
  unsigned sm_id_;
  BlockEnv env_;
  Clock clk_;
  StatGroup stats_;
  Rng rng_;  // the block's random stream (random replacement, dueling, ...)
};

using L1Factory = std::function<std::unique_ptr<L1Cache>(const L1Params&, sc_core::sc_module_name,
                                                         unsigned sm_id, const BlockEnv&)>;

// Adds (or replaces) a design. "baseline" is always present.
void register_l1_design(const std::string& name, L1Factory factory);
std::vector<std::string> l1_design_names();
// Unknown design -> ConfigError naming l1.design.
std::unique_ptr<L1Cache> make_l1(const L1Params& p, sc_core::sc_module_name name, unsigned sm_id,
                                 const BlockEnv& env);

}  // namespace gms
