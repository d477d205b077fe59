// Pooled tlm_generic_payloads with a 128 B data buffer, a byte-enable buffer and a MemReq attached.
// Steady state allocates nothing: free() returns the payload to the pool (a payload new/delete costs
// ~10x a pool hand-out on our machines).
#pragma once
#include <tlm.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "models/common/mem_req.h"

namespace gms {

class PayloadPool final : public tlm::tlm_mm_interface {
 public:
  PayloadPool();
  ~PayloadPool() override;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;

  // A fresh payload with ref count 1 (acquired), a zeroed MemReq, data_length 128, no byte enables,
  // command IGNORE and response INCOMPLETE. Release with t.release().
  tlm::tlm_generic_payload& allocate();
  void free(tlm::tlm_generic_payload* t) override;

  // Enables the byte-enable buffer (128 bytes, all zero) on t and returns it.
  static unsigned char* enable_bytes(tlm::tlm_generic_payload& t);

  // Software prefetch of t's header: the payload's fields and, beside them in a pooled payload, its
  // MemReq (what each hop reads first). A hint for prefetch hooks; t need not come from a pool.
  static void prefetch_header(const tlm::tlm_generic_payload* t);

  // t's MemReq when t came from a PayloadPool, found without the extension table (one pointer chase
  // less per hop on cold payloads); nullptr for any other payload.
  static const MemReq* pooled_req(const tlm::tlm_generic_payload& t);
  static MemReq* pooled_req(tlm::tlm_generic_payload& t) {
    return const_cast<MemReq*>(pooled_req(static_cast<const tlm::tlm_generic_payload&>(t)));
  }

  uint64_t allocated() const { return allocated_; }
  uint64_t in_use() const { return in_use_; }

 private:
  struct Slot;
  std::vector<Slot*> free_;
  std::vector<std::unique_ptr<Slot>> all_;
  uint64_t allocated_ = 0;
  uint64_t in_use_ = 0;
};

}  // namespace gms
