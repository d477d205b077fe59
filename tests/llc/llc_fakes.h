// Test doubles around one LLC slice: a scripted upstream initiator (the NoC side) and a DRAM target
// holding real bytes with a fixed latency, plus a bench that wires them up.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <array>
#include <deque>
#include <functional>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/block_env.h"
#include "models/common/memory_image.h"
#include "models/llc/llc_slice.h"

namespace llc_test {

using gms::ByteMask;
using gms::Payload;
using Line = std::array<uint8_t, gms::kLineBytes>;

constexpr uint64_t kPeriodPs = 1429;  // 700 MHz
inline uint64_t at_cycle(uint64_t c) {
  return c * kPeriodPs;
}
inline uint8_t dram_byte(uint64_t addr) {
  return gms::initial_byte(addr);
}
constexpr uint8_t kNotFetched = 0xEE;  // what the fake DRAM puts in sectors nobody asked for

struct Request {
  uint64_t at_ps = 0;  // earliest send time (sent in script order)
  bool write = false;
  uint64_t line = 0;
  uint8_t chunk_mask = gms::kFullChunkMask;  // reads
  ByteMask enables = 0;                      // writes
  Line data{};                               // writes
  uint32_t sm = 0;                           // MemReq::sm (whose victim bit)
};

struct Response {
  int count = 0;
  uint64_t time_ps = 0;
  Line data{};
  uint8_t chunks_returned = 0;
  bool llc_hit = false;
  bool victim_bit = false;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
};

class FakeUpstream : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<FakeUpstream> isock;
  std::vector<Request> script;
  std::vector<Response> responses;  // by script index
  std::vector<uint64_t> send_ps, end_req_ps;
  std::function<void()> at_start;  // runs in the thread at time 0 (functional calls)
  std::vector<std::pair<uint64_t, std::function<void()>>> hooks;  // (time ps, action), in time order

  FakeUpstream(sc_core::sc_module_name n, gms::PayloadPool& pool);

 private:
  void main();
  bool on_response(Payload& t);
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) {
    return port_.nb_transport_bw(t, ph, d);
  }
  gms::PayloadPool& pool_;
  gms::AtInitiatorPort port_;
  sc_core::sc_event ready_;
  size_t pending_end_req_ = SIZE_MAX;
};

class FakeDram : public sc_core::sc_module {
 public:
  struct Record {
    uint64_t time_ps;
    bool timed;
    tlm::tlm_command cmd;
    uint64_t addr;
    uint8_t chunk_mask;
    ByteMask enables;  // writes
    Line data;
  };
  tlm_utils::simple_target_socket<FakeDram> tsock;
  std::vector<Record> log;
  std::unordered_map<uint64_t, uint8_t> written;
  // Timed writes take effect when acknowledged, not when accepted: a DRAM that lets a later read of the
  // line overtake an earlier write (as a reordering scheduler may).
  bool late_writes = false;
  // Requests arriving before this time are accepted (END_REQ) only then: a busy channel that backs up the
  // LLC's miss queue.
  sc_core::sc_time accept_from = sc_core::SC_ZERO_TIME;

  FakeDram(sc_core::sc_module_name n, sc_core::sc_time latency);
  uint8_t byte(uint64_t addr) const;
  size_t count(tlm::tlm_command cmd) const;

 private:
  void respond();
  void accept_held();
  void take(Payload& t);
  void serve(Payload& t, bool timed, bool apply_writes = true);
  void apply_write(Payload& t);
  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  void b_transport(Payload& t, sc_core::sc_time& d);
  unsigned transport_dbg(Payload& t);
  sc_core::sc_time latency_;
  gms::AtTargetPort port_;
  std::deque<std::pair<sc_core::sc_time, Payload*>> pending_;
  sc_core::sc_event ev_;
  Payload* held_ = nullptr;  // a request whose END_REQ waits for accept_from
  sc_core::sc_event held_ev_;
};

// Small defaults for the tests: 8 sets x 2 ways, linear index (line k*1024 + s*128 is in set s).
gms::LlcParams small_params();

struct Bench {
  gms::PayloadPool pool;
  gms::StatGroup root{"top"};
  gms::BlockEnv env;
  std::unique_ptr<gms::LlcSlice> llc;
  std::unique_ptr<FakeUpstream> up;
  std::unique_ptr<FakeDram> dram;

  explicit Bench(const gms::LlcParams& p,
                 sc_core::sc_time dram_latency = sc_core::sc_time(100, sc_core::SC_NS),
                 const gms::TraceSelector* trace = nullptr);
  double stat(const std::string& name) const { return root.value("llc." + name); }
};

// Helpers for scripts.
Request read(uint64_t at_ps, uint64_t line, uint8_t mask);
Request write(uint64_t at_ps, uint64_t line, ByteMask enables, uint8_t base);  // data[i] = base + i
inline ByteMask bytes(unsigned from, unsigned to) {
  return gms::range_bytes(from, to - from);
}  // [from, to)

}  // namespace llc_test
