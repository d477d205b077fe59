// Drives one FlitNetwork direction in a plain cycle loop (no SystemC kernel run), as the router tests do:
// Bernoulli sources with unbounded source queues feed the network's inputs, and a sink at every output
// takes each packet as it arrives. Latency counts from packet creation (source queueing included), as in
// BookSim, so an offered load beyond saturation shows up as latency that grows with the run.
#pragma once
#include <tlm.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "bench/noc/traffic.h"
#include "models/common/clock.h"
#include "models/common/rng.h"
#include "models/common/stats.h"
#include "models/noc/noc_params.h"
#include "models/noc/router/flit_network.h"

namespace gms::noc_bench {

struct DriverConfig {
  NocParams noc;
  unsigned inputs = 64, outputs = 64;
  unsigned slices_per_mc = 8;  // hxbar: LLC slices per memory controller (= SM-routers)
  bool reply = false;          // false: the request network (SMs -> slices)
  uint32_t data_bytes = 128;   // payload per packet; the packet is noc.packet_flits(data_bytes) flits
  double packet_rate = 0.0;    // packets per cycle per input (Bernoulli)
  Pattern pattern;
  uint64_t seed = 1;
};

// What the sinks saw; `window` counts only deliveries inside the measurement window.
struct Tally {
  uint64_t packets = 0, flits = 0;         // every delivery
  uint64_t window_flits = 0;               // delivered during the window (accepted throughput)
  uint64_t measured_created = 0;           // packets created during the window
  std::vector<uint32_t> measured_latency;  // their latencies (creation -> delivery), as delivered
};

class Driver final : public PacketNetwork::Hooks {
 public:
  explicit Driver(const DriverConfig& cfg);
  // Packets created in cycles [begin, end) are measured; deliveries in that span count as accepted.
  void set_window(uint64_t begin, uint64_t end) { win_begin_ = begin, win_end_ = end; }
  // Simulates every cycle before `end` (cycles with no work anywhere are skipped).
  void run_until(uint64_t end);
  // Runs on past the window until every measured packet is delivered or `limit` is reached; true: drained.
  bool drain(uint64_t limit);

  uint64_t now() const { return cycle_; }
  uint64_t cycles_stepped() const { return stepped_; }
  const Tally& tally() const { return tally_; }
  uint32_t packet_flits() const { return flits_; }
  uint64_t zero_load_cycles(unsigned in, unsigned out) const {
    return net_->zero_load_cycles(in, out, flits_);
  }

  bool deliver(unsigned out, tlm::tlm_generic_payload& t) override;
  void accepted(unsigned in, tlm::tlm_generic_payload&) override;
  void wake(uint64_t) override {}  // the loop asks step() for the next cycle instead

 private:
  struct Source {
    uint64_t next = 0;  // creation cycle of the oldest packet not yet offered to the network
    uint32_t dest = 0;  // its destination
    bool held = false;  // the network holds our last offer until accepted()
  };
  struct Record {
    uint64_t created = 0;
    bool measured = false;
  };
  uint64_t feed(uint64_t c);  // offers every due packet; returns the earliest creation still to offer
  void draw_next(Source& s, uint64_t after);
  uint32_t alloc_payload();

  DriverConfig cfg_;
  Clock clock_;
  StatGroup stats_;
  Rng rng_;
  std::unique_ptr<FlitNetwork> net_;
  std::vector<Source> sources_;
  // Payloads are pinned (tlm_generic_payload is not copyable); address() holds the record index.
  std::deque<tlm::tlm_generic_payload> payloads_;
  std::vector<Record> records_;
  std::vector<uint32_t> free_;
  uint32_t flits_ = 1;
  uint64_t cycle_ = 0, stepped_ = 0;
  uint64_t win_begin_ = 0, win_end_ = 0;
  uint64_t measured_left_ = 0;
  bool accepted_now_ = false;  // an input freed up during step(): feed it next cycle
  Tally tally_;
};

}  // namespace gms::noc_bench
