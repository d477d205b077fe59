// Test fixtures for L1 designs: a scripted SM initiator, a fixed-latency memory target holding real
// bytes, and a bench wiring SM -> L1 -> memory at 1 GHz (1 cycle = 1 ns).
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/block_env.h"
#include "models/common/clock.h"
#include "models/l1/l1_cache.h"

namespace gms::test {

using Line = std::array<uint8_t, 128>;

// Golden memory: untouched bytes hold initial_byte(addr).
struct ByteMemory {
  std::map<uint64_t, Line> lines;
  Line& line(uint64_t line_addr);
};

struct SmOp {
  enum Kind { Load, Store, Flush } kind = Load;
  uint64_t addr = 0;        // line address
  uint8_t mask = 0xF;       // chunk mask
  uint64_t not_before = 0;  // earliest issue cycle
  bool wait_prev = false;   // issue only after every earlier response (from the next cycle on)
  uint8_t fill = 0;         // store: byte i of the line = fill + i
  uint16_t words = 0;       // MemReq::word_mask (8 B words a load touches, a store writes; 0: all of `mask`)
};

struct SmResult {
  uint64_t issue_cycle = 0, accept_cycle = 0, resp_cycle = 0;
  int responses = 0;
  uint8_t chunks_returned = 0;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  bool data_ok = true;  // returned chunks equal the golden memory at issue time
  Line data{};
};

class FakeSm : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FakeSm);
  tlm_utils::simple_initiator_socket<FakeSm> isock;
  // next(i, op) yields op i; false when done.
  FakeSm(sc_core::sc_module_name n, PayloadPool& pool, std::function<bool(uint64_t, SmOp&)> next,
         std::function<void()> on_flush, bool record, uint64_t hold_resp_cycles = 0);
  std::vector<SmResult> results;
  ByteMemory golden;
  uint64_t issued = 0, responses = 0, bad_data = 0;

 private:
  void process();
  bool on_response(Payload& t);
  tlm::tlm_sync_enum bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return port_.nb_transport_bw(t, ph, d);
  }
  Clock clk_{1000.0};
  PayloadPool& pool_;
  std::function<bool(uint64_t, SmOp&)> next_;
  std::function<void()> on_flush_;
  bool record_;
  uint64_t hold_resp_;  // cycles each response is held before END_RESP (0: completed at once)
  std::vector<std::pair<Payload*, uint64_t>> held_resps_;
  AtInitiatorPort port_;
  sc_core::sc_event ev_;
  SmOp op_;
  bool have_op_ = false, done_ = false;
  Payload* in_flight_ = nullptr;
  uint64_t outstanding_ = 0, last_resp_cycle_ = 0;
  bool any_resp_ = false;
};

class FakeMem : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FakeMem);
  tlm_utils::simple_target_socket<FakeMem> tsock;
  FakeMem(sc_core::sc_module_name n, uint64_t latency_cycles, uint64_t accept_delay_cycles = 0);
  ByteMemory mem;
  std::vector<std::pair<char, uint64_t>> log;  // ('R' | 'W', address) in arrival order
  std::vector<uint8_t> log_chunks;             // each request's chunk_mask, parallel to log
  std::vector<uint16_t> log_words;             // each request's word_mask, parallel to log
  uint64_t b_calls = 0;
  // G-Cache victim-bit emulation: an LLC that never evicts, so a timed read's reply carries whether
  // this line was read before (MemReq::victim_bit), and the line is then marked as read.
  bool victim_bits = false;
  std::set<uint64_t> served;

 private:
  void apply(Payload& t);
  bool on_request(Payload& t, const sc_core::sc_time& d);
  void process();
  void b_transport(Payload& t, sc_core::sc_time& d);
  unsigned transport_dbg(Payload& t);
  tlm::tlm_sync_enum fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return port_.nb_transport_fw(t, ph, d);
  }
  Clock clk_{1000.0};
  uint64_t latency_;
  uint64_t accept_delay_;  // cycles each request waits for END_REQ (0: accepted at once)
  Payload* pending_accept_ = nullptr;
  uint64_t accept_cycle_ = 0;
  AtTargetPort port_;
  sc_core::sc_event ev_;
  std::vector<std::pair<Payload*, uint64_t>> queue_;
  size_t head_ = 0;
};

struct BenchOptions {
  uint64_t mem_latency = 10;
  uint64_t mem_accept_delay = 0;
  uint64_t sm_hold_resp = 0;
  bool record = true;
  const TraceSelector* trace = nullptr;
  bool victim_bits = false;  // FakeMem::victim_bits
};

struct Bench {
  PayloadPool pool;
  StatGroup root{"top"};
  BlockEnv env;
  std::unique_ptr<L1Cache> l1;
  std::unique_ptr<FakeSm> sm;
  std::unique_ptr<FakeMem> mem;
  Bench(const L1Params& p, std::vector<SmOp> ops, BenchOptions o = {});
  Bench(const L1Params& p, std::function<bool(uint64_t, SmOp&)> gen, BenchOptions o);
  uint64_t stat(const std::string& name) const { return uint64_t(root.value("l1." + name)); }
  std::vector<SmOp> ops_;
};

// 1 GHz test parameters: linear or Fermi hash, LRU, 16 KB 4-way.
L1Params test_params(const std::string& replacement = "lru", SetIndexFn index = SetIndexFn::FermiHash);

}  // namespace gms::test
