// The whole GPU memory system as one SystemC module, built from a SystemConfig (issue 13): the SMs
// (`sm<i>`), their L1s (`l1_<i>`), the interconnect (`xbar`), the LLC slices (`llc<s>`) and the DRAM
// channels (`dram<c>`) over one backing store, the LLC organisation controllers, and a protocol checker on
// every link when system.protocol_check is set; each a child module (hierarchical names `<module>.sm0`, ...),
// each with its statistics group named like its basename.
//
// The module never calls sc_start: whoever owns the simulation does (tb/system's GpuSystem with its run loop
// and watchdog, or a virtual platform's sc_main). Work enters in one of two ways:
//  - programs (the test bench): workloads on fixed SM ranges, added before the simulation, started together
//    by start_programs();
//  - launch() (a host): a workload on every SM, any number of times one after the other; when it finished
//    the caches are written back and emptied, and then the done callback runs and idle_event() fires.
// The host socket gives a host-side initiator loosely-timed, debug and DMI access to the GPU memory
// (host_access.cpp: how each stays coherent with the caches).
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_target_socket.h>

#include <systemc>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/address_map.h"
#include "models/common/block_env.h"
#include "models/common/payload_pool.h"
#include "models/common/stats.h"
#include "models/common/workload.h"
#include "models/system/system_config.h"

namespace gms {

class StreamingMultiprocessor;
class CtaDispatcher;
class L1Cache;
class Interconnect;
class LastLevelCache;
class SliceSelector;
class LlcModeController;
class AdaptiveLlcController;
class ProtocolChecker;
class MemoryChannel;
class BackingStore;
class DataBudget;
class HostLaunchQueue;

struct GpuMemSysOptions {
  // Parent of the blocks' statistics groups; null: the module's own group, named like the module.
  StatGroup* stats = nullptr;
  // Which blocks write into a VCD (tb --vcd); null: none.
  const TraceSelector* trace = nullptr;
  // Stand-ins for the built-in SM (SmCore) and DRAM channel (DramChannel): a transactor or a foreign model
  // implementing the block's interface. Empty: the built-in model.
  using SmFactory = std::function<std::unique_ptr<StreamingMultiprocessor>(
      sc_core::sc_module_name, const SmParams&, unsigned sm_id, const BlockEnv&)>;
  using DramFactory = std::function<std::unique_ptr<MemoryChannel>(sc_core::sc_module_name, const DramParams&,
                                                                   unsigned channel, const AddressMap&,
                                                                   BackingStore&, const BlockEnv&)>;
  SmFactory make_sm;
  DramFactory make_dram;
};

class GpuMemSys : public sc_core::sc_module {
 public:
  // A host (CPU-side) initiator binds here: b_transport, transport_dbg, DMI to the GPU memory; nb_transport
  // is served through b_transport. May stay unbound.
  tlm_utils::simple_target_socket_optional<GpuMemSys> host;

  // The entry point: builds every block from `cfg` (load_system_config_file / _string read one from YAML).
  // ConfigError for a configuration that cannot be built or exceeds the memory budget (memory_budget.h).
  GpuMemSys(sc_core::sc_module_name name, const SystemConfig& cfg, const GpuMemSysOptions& opt = {});
  ~GpuMemSys() override;
  GpuMemSys(const GpuMemSys&) = delete;
  GpuMemSys& operator=(const GpuMemSys&) = delete;

  // --- Host launches -------------------------------------------------------------------------------
  // Runs `w` on every SM from now on (CTA order per system.cta_order), with `observer` (nullable) seeing
  // the data of every load and store. When its last kernel ended, every L1 is invalidated and every LLC
  // slice written back and emptied (timed DRAM writes); then `on_done` runs (inside the simulation: notify
  // an event, never wait) and idle_event() is notified. `w` and `observer` must live until then.
  // std::logic_error while a launch runs or when programs were added; ConfigError for a kernel that cannot
  // run (no CTAs, a CTA that fits no SM).
  void launch(Workload& w, std::function<void()> on_done = nullptr, MemObserver* observer = nullptr);
  // A launch is running (from launch() until its done callback).
  bool busy() const { return busy_; }
  const sc_core::sc_event& idle_event() const { return idle_event_; }

  // --- Test-bench programs -------------------------------------------------------------------------
  // A workload on SMs [first_sm, first_sm + num_sms) with its own CTA dispatcher (statistics group
  // `kernels` under `stats`), `observer` (nullable) on its SMs and dispatcher, and its own LLC organisation
  // (`llc_mode` shared | private; empty: llc.mode). Add all before the simulation starts.
  void add_program(Workload& w, unsigned first_sm, unsigned num_sms, StatGroup& stats, MemObserver* observer,
                   const std::string& llc_mode = "");
  // Starts every program's first kernel (ConfigError for a kernel that cannot run).
  void start_programs();

  // --- State and parts -----------------------------------------------------------------------------
  // Every program (or launch) has finished; true when none was given.
  bool workloads_done() const;
  // When the last warp finished (now, while any workload runs).
  sc_core::sc_time finish_time() const;
  // When an SM last received a response (0 before the first).
  uint64_t last_response_ps() const;
  // TLM base-protocol violations on all checked links (system.protocol_check).
  uint64_t protocol_violations() const;
  // The LLC organisation's timeline (LlcModeController::timeline).
  const std::vector<std::string>& llc_timeline() const;

  // --- Running it ----------------------------------------------------------------------------------
  // Free-running clocks of co-simulated RTL blocks (noc.arbiter: rtl, docs/cosim.md) tick whether or not the
  // model has work: with them the kernel always has an event pending (sc_pending_activity() stays true and
  // sc_start() without a limit never returns). Every activity of the model itself goes through its wake
  // scheduler (and a launch's settling), which next_activity() reads.
  bool has_background_clocks() const;
  // When the model next has something to do: the absolute time of its earliest pending wake-up (now for the
  // current instant), or nullopt when it is idle. Call between sc_start calls. Activity of a stand-in's own
  // processes (GpuMemSysOptions) is not seen.
  std::optional<sc_core::sc_time> next_activity() const;
  // The run is over (every workload done): the controllers' timers (adaptive windows and epochs, forced
  // switches) are dropped, so that what stays pending is traffic still in flight and it drains. A launch
  // after this gets no windows or forced switches.
  void stop_timers();
  // When the oldest wait for a response began: the latest of the last response an SM received and the
  // moment the SMs went from no request in flight to one; nullopt while no SM has a request in flight
  // (the run waits for a timer, e.g. a compute gap: no livelock can be going on).
  std::optional<uint64_t> waiting_since_ps() const;
  // From now on the kernel pauses (sc_core::sc_pause) at the instant the model goes idle, so sc_start(d)
  // returns there, as it would by starvation without background clocks.
  void pause_when_idle();

  const SystemConfig& config() const { return cfg_; }
  StatGroup& stats() { return *stats_; }
  const StatGroup& stats() const { return *stats_; }
  const BlockEnv& env() const { return env_; }
  const AddressMap& address_map() const { return *map_; }
  BackingStore& memory() { return *store_; }
  // What the memory limit leaves for the workload's data after the system's structures (memory_budget.h):
  // the backing store charges its pages to it; a testbench's golden memory should too.
  DataBudget& data_budget() { return *data_budget_; }
  size_t num_sms() const { return sms_.size(); }
  StreamingMultiprocessor& sm(size_t i) { return *sms_.at(i); }
  L1Cache& l1(size_t i) { return *l1s_.at(i); }
  Interconnect& interconnect() { return *noc_; }
  size_t num_slices() const { return llcs_.size(); }
  LastLevelCache& llc(size_t s) { return *llcs_.at(s); }
  size_t num_channels() const { return drams_.size(); }
  MemoryChannel& dram(size_t c) { return *drams_.at(c); }

 private:
  void build(const GpuMemSysOptions& opt);
  void build_controllers();
  // Binds initiator socket `i` to target socket `t`, through a protocol checker named `link` when
  // system.protocol_check is set.
  template <class I, class T>
  void connect(I& i, T& t, const std::string& link);
  CtaDispatcher& make_dispatcher(Workload& w, unsigned first_sm, unsigned num_sms, StatGroup& stats,
                                 MemObserver* observer);

  // Launches (launch.cpp): the last kernel ended; settle() empties the caches and ends the launch.
  void launch_finished();
  void settle();

  // Host socket (host_access.cpp). host_access: the debug path, line by line; the bytes it served.
  unsigned host_access(tlm::tlm_generic_payload& t);
  void host_b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
  unsigned host_transport_dbg(tlm::tlm_generic_payload& t);
  bool host_get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi);
  // The uncontended latency of an access to the bytes [addr, addr + len): one LLC access plus one DRAM
  // access per line.
  sc_core::sc_time host_latency(uint64_t addr, unsigned len) const;
  bool dmi_possible() const;
  void revoke_dmi();

  SystemConfig cfg_;
  std::unique_ptr<StatGroup> own_stats_;  // when GpuMemSysOptions::stats is null
  StatGroup* stats_ = nullptr;
  PayloadPool pool_;
  std::unique_ptr<WakeScheduler> wake_;       // every block's timed wake-ups (outlives the blocks)
  std::unique_ptr<DecisionBoard> decisions_;  // cross-SM decisions (TSC+ mode, SM dueling)
  BlockEnv env_;
  std::unique_ptr<AddressMap> map_;
  std::unique_ptr<DataBudget> data_budget_;
  std::unique_ptr<BackingStore> store_;
  std::unique_ptr<SliceSelector> slices_;  // which slice serves a request (shared / private per SM)
  std::unique_ptr<LlcModeController> mode_ctl_;
  std::vector<std::unique_ptr<ProtocolChecker>> protocol_checkers_;  // system.protocol_check
  std::unique_ptr<AdaptiveLlcController> adaptive_ctl_;              // llc.mode: adaptive
  AdaptiveLlcController* adaptive_ctl_raw_ = nullptr;                // read by the route function
  std::vector<std::unique_ptr<StreamingMultiprocessor>> sms_;
  std::vector<std::unique_ptr<L1Cache>> l1s_;
  std::unique_ptr<Interconnect> noc_;
  std::vector<std::unique_ptr<LastLevelCache>> llcs_;
  std::vector<std::unique_ptr<MemoryChannel>> drams_;
  std::vector<std::unique_ptr<CtaDispatcher>> dispatchers_;
  struct ProgramRange {
    unsigned first_sm, num_sms;
    std::string llc_mode;  // empty: llc.mode
  };
  std::vector<ProgramRange> programs_;

  // Launches.
  std::unique_ptr<HostLaunchQueue> launches_;  // the launched workload, as the host dispatcher sees it
  CtaDispatcher* host_dispatcher_ = nullptr;
  std::function<void()> on_done_;
  bool busy_ = false;
  bool caches_flushed_ = false;  // settle() wrote back and invalidated the caches of this launch
  sc_core::sc_event settle_event_, idle_event_;
  uint64_t settle_at_ = ~uint64_t(0);  // kernel ticks of settle()'s next run (~0: none pending)
  bool pause_when_idle_ = false;

  // Host access: whether the caches hold nothing (nothing ran since the last launch ended, or nothing ran
  // at all), so that the backing store is the memory's whole contents and DMI is correct.
  bool caches_clean_ = true;
  bool dmi_granted_ = false;  // a DMI pointer is out (revoked when work starts)
  bool builtin_dram_ = true;  // DramChannels over store_ (not GpuMemSysOptions::make_dram)
};

}  // namespace gms
