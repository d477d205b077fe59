// Base-protocol (approximately timed) state machines for one socket end, shared by every block so the
// four-phase rules live in one place. Fast paths use the legal shortcuts: a target that can take a
// request returns TLM_UPDATED/END_REQ at once; an initiator that can take a response returns
// TLM_COMPLETED at once. Back-pressure = withholding END_REQ (or END_RESP on the way back).
//
// Timing convention inside GPUMemSys: calls happen at the simulated time of the event with zero delay;
// a non-zero delay from a foreign component is handed to the block, which adds it to the arrival time.
// A block must not send BEGIN_RESP from inside its request handler; it schedules the response instead.
#pragma once
#include <tlm.h>

#include <functional>

namespace gms {

using Payload = tlm::tlm_generic_payload;
using TransportCall = std::function<tlm::tlm_sync_enum(Payload&, tlm::tlm_phase&, sc_core::sc_time&)>;

class AtInitiatorPort {
 public:
  // Response arrived: return true if consumed now, false to hold it (call release_response later).
  using ResponseHandler = std::function<bool(Payload&)>;
  // The request channel is free again (END_REQ for a request that had been held back).
  using ReadyHandler = std::function<void()>;

  AtInitiatorPort() = default;
  AtInitiatorPort(TransportCall fw, ReadyHandler on_ready, ResponseHandler on_response)
      : fw_(std::move(fw)), on_ready_(std::move(on_ready)), on_response_(std::move(on_response)) {}

  bool can_send() const { return waiting_end_req_ == nullptr; }
  // BEGIN_REQ. True when the target accepted at once; false when it holds END_REQ (can_send() stays
  // false until the ready handler runs).
  bool send(Payload& t);
  // The owning block's nb_transport_bw forwards here.
  tlm::tlm_sync_enum nb_transport_bw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  // END_RESP for a response that was held.
  void release_response(Payload& t);

 private:
  TransportCall fw_;
  ReadyHandler on_ready_;
  ResponseHandler on_response_;
  Payload* waiting_end_req_ = nullptr;
};

class AtTargetPort {
 public:
  // A request arrived (delay = its annotated delay): return true to accept now (END_REQ returned at
  // once), false to hold it; call accept() when there is room.
  using RequestHandler = std::function<bool(Payload&, const sc_core::sc_time&)>;
  // The response channel is free again (END_RESP for a response the initiator had held).
  using ResponseFreeHandler = std::function<void()>;

  AtTargetPort() = default;
  AtTargetPort(TransportCall bw, RequestHandler on_request, ResponseFreeHandler on_free)
      : bw_(std::move(bw)), on_request_(std::move(on_request)), on_free_(std::move(on_free)) {}

  tlm::tlm_sync_enum nb_transport_fw(Payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  // END_REQ for the held request.
  void accept(Payload& t);
  bool holding_request() const { return held_ != nullptr; }
  bool can_respond() const { return waiting_end_resp_ == nullptr; }
  // BEGIN_RESP. True when the initiator completed it at once; false when it holds END_RESP
  // (can_respond() false until the free handler runs).
  bool respond(Payload& t);

 private:
  TransportCall bw_;
  RequestHandler on_request_;
  ResponseFreeHandler on_free_;
  Payload* held_ = nullptr;
  Payload* waiting_end_resp_ = nullptr;
};

}  // namespace gms
