// Bypass on resource stall (design `stall_bypass`; paper 002 section 6.1's MRPB comparator, the bypass
// half of MRPB): the baseline L1, except that a load which would reservation-fail because no MSHR entry
// is free, every way of its set is reserved, its line's MSHR entry is at the merge limit, or a store
// cancelled its line's pending fill, is sent around the cache (bypass_load) instead of stalling the
// memory pipeline. A full miss queue still stalls: the bypass needs a slot too. MRPB's request
// reordering queues (per-warp FIFOs before the L1) are not modelled: requests reach the L1 in SM order.
#pragma once
#include <cstdint>

#include "models/l1/baseline_l1.h"

namespace gms {

class StallBypassL1 : public BaselineL1 {
 public:
  StallBypassL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id, const BlockEnv& env);
  ~StallBypassL1() override;

 protected:
  bool on_miss_stall(Payload& t, uint64_t line, uint64_t c, Counter& cause) override;

 private:
  // Bypasses by the cause that would have stalled the load (they add up to the bypasses of this
  // design unless the replacement policy bypasses too: protected_bypasses).
  Counter& by_mshr_;
  Counter& by_line_;
  Counter& by_merge_;
  Counter& by_no_fill_;
};

}  // namespace gms
