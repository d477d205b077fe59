// One DRAM channel: memory controller (bounded queue, FR-FCFS or FCFS command scheduling, open-page
// policy) in front of the channel's banks, with data in the shared BackingStore. Several LLC slices bind
// to tsock; each binding gets its own AT target port. One SC_METHOD does all the work of a cycle and
// wakes only for the next cycle with a command to issue or a burst to complete.
#pragma once
#include <tlm.h>

#include <systemc>

#include <cstdint>
#include <memory>
#include <vector>

#include "models/common/address_map.h"
#include "models/common/at_port.h"
#include "models/common/block_env.h"
#include "models/common/clock.h"
#include "models/common/ring_queue.h"
#include "models/common/stats.h"
#include "models/dram/backing_store.h"
#include "models/dram/command_scheduler.h"
#include "models/dram/dram_mapping.h"
#include "models/dram/dram_params.h"
#include "models/dram/dram_probes.h"
#include "models/dram/dram_timing.h"
#include "models/dram/memory_channel.h"

namespace gms {

class DramChannel : public MemoryChannel {
 public:
  DramChannel(sc_core::sc_module_name name, const DramParams& p, unsigned channel_id, const AddressMap& map,
              BackingStore& store, const BlockEnv& env);

  const DramParams& params() const { return p_; }
  const Clock& clock() const { return clk_; }
  StatGroup& stats() override { return stats_; }
  // Bank, row and column of a global address in this channel.
  DramCoord decode(uint64_t addr) const { return mapping_.decode(map_.channel_addr(line_of(addr))); }
  // Latency annotated by b_transport: a read to a closed bank (tRCD + tCL + one burst).
  sc_core::sc_time functional_latency() const override;

 private:
  // Where a response waits for its initiator's response channel.
  struct Pending {
    tlm::tlm_generic_payload* t = nullptr;
    uint64_t accepted = 0;  // cycle the request entered the queue
    bool read = false;
  };
  struct InFlight {
    DramRequest req;
    uint64_t done = 0;  // cycle the last beat completes
  };
  struct Port {
    AtTargetPort at;
    RingQueue<Pending> responses;
    tlm::tlm_generic_payload* held = nullptr;  // request whose END_REQ is withheld (queue full)
    DramRequest held_req;                      // its description, so acceptance need not decode again
  };

  void end_of_elaboration() override;
  void make_ports(size_t n);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph,
                                     sc_core::sc_time& d) override;
  void b_transport(int id, tlm::tlm_generic_payload& t, sc_core::sc_time& d) override;
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& t) override;
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) override;

  bool on_request(unsigned port, tlm::tlm_generic_payload& t, const sc_core::sc_time& delay);
  void enqueue(const DramRequest& r);
  void answer_error(unsigned port, tlm::tlm_generic_payload& t, uint64_t arrival);
  // Fills r from the payload; false (and an error status on t) when the DRAM cannot serve it.
  bool describe(tlm::tlm_generic_payload& t, DramRequest& r) const;
  // Moves the data of a request between the payload and the store.
  void atomic_transfer(const DramRequest& r, unsigned width);
  void transfer(const DramRequest& r);
  void run();
  void prefetch(unsigned stage) const;  // Wakeup prefetch hook
  void record(const IssueResult& res, uint64_t c);
  void retire(uint64_t c);
  void accept_held(uint64_t c);
  void send_responses(uint64_t c);
  void wake_at(uint64_t cycle);
  void note_queue_change(uint64_t c);

  const DramParams p_;
  const AddressMap& map_;
  BackingStore& store_;
  Clock clk_;
  DramMapping mapping_;
  DramTiming timing_;
  CommandScheduler sched_;
  std::vector<std::unique_ptr<Port>> ports_;
  RingQueue<InFlight> in_flight_;  // in data-completion order (the data bus serialises bursts)
  RingQueue<uint16_t> held_;       // ports holding END_REQ for a request, in arrival order
  size_t pending_responses_ = 0;
  Wakeup wake_;
  uint64_t planned_ = CommandScheduler::kNever;  // cycle of the pending wake_ notification
  uint64_t run_want_ = CommandScheduler::kNever;
  bool in_run_ = false;
  uint64_t full_since_ = CommandScheduler::kNever;  // cycle the queue became full, if it is
  uint64_t full_cycles_ = 0;                        // closed full periods

  StatGroup stats_;
  Counter &requests_, &responses_, &reads_, &writes_, &bytes_read_, &bytes_written_, &row_hits_, &row_misses_,
      &row_conflicts_, &activates_, &precharges_, &held_requests_, &errors_;
  Histogram& read_latency_;
  Histogram& bank_requests_;  // how evenly the address mapping spreads requests over the banks
  DramProbes probes_;
};

}  // namespace gms
