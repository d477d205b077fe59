// Test initiator for the DRAM channel: sends a scripted list of requests (each not before its send
// time, in order, as fast as the target accepts them) and records when each was accepted and answered,
// the response status and the data. Optionally holds every END_RESP for a number of picoseconds.
#pragma once
#include <tlm.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/common/at_port.h"
#include "models/common/payload_pool.h"

namespace gms_test {

struct Scripted {
  uint64_t send_ps = 0;
  tlm::tlm_command cmd = tlm::TLM_READ_COMMAND;
  uint64_t addr = 0;
  unsigned len = 128;
  uint8_t chunk_mask = 0xf;
  bool foreign = false;         // a plain payload without gms::MemReq
  std::vector<uint8_t> data;    // write data (len bytes)
  std::vector<uint8_t> enable;  // byte enables (len bytes); empty = none
  // Results.
  static constexpr uint64_t kNever = ~uint64_t(0);
  uint64_t accepted_ps = kNever, response_ps = kNever;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  uint8_t chunks_returned = 0;
  std::vector<uint8_t> rdata;
};

class FakeInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<FakeInitiator> isock;
  std::vector<Scripted> script;
  uint64_t hold_end_resp_ps = 0;  // 0 = complete responses at once
  std::vector<size_t> response_order;

  FakeInitiator(sc_core::sc_module_name name, gms::PayloadPool& pool, std::vector<Scripted> s);
  size_t responses() const { return response_order.size(); }

 private:
  tlm::tlm_sync_enum nb_transport_bw(gms::Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  void send_due();
  void release_held();
  bool on_response(gms::Payload& t);
  gms::Payload& make_payload(size_t i);

  gms::PayloadPool& pool_;
  gms::AtInitiatorPort port_;
  size_t next_ = 0;
  size_t waiting_ = SIZE_MAX;  // index of the request awaiting END_REQ
  sc_core::sc_event send_ev_, release_ev_;
  std::unordered_map<gms::Payload*, size_t> index_;
  std::deque<std::unique_ptr<gms::Payload>> foreign_;
  std::vector<std::vector<uint8_t>> buffers_;  // data of foreign payloads
  gms::Payload* held_ = nullptr;
};

}  // namespace gms_test
