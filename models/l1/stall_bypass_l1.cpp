// StallBypassL1: the baseline's stall points turned into bypasses, counted by cause.
#include "models/l1/stall_bypass_l1.h"

namespace gms {

StallBypassL1::StallBypassL1(sc_core::sc_module_name name, const L1Params& p, unsigned sm_id,
                             const BlockEnv& env)
    : BaselineL1(name, p, sm_id, env),
      by_mshr_(
          stats_.counter("stall_bypasses_mshr", "loads bypassed because no MSHR entry was free", "requests")),
      by_line_(stats_.counter("stall_bypasses_line",
                              "loads bypassed because every way of the set was reserved", "requests")),
      by_merge_(stats_.counter("stall_bypasses_merge",
                               "loads bypassed because the line's MSHR entry was at its merge limit",
                               "requests")),
      by_no_fill_(stats_.counter("stall_bypasses_no_fill",
                                 "loads bypassed because a store had cancelled the line's pending fill",
                                 "requests")) {}

StallBypassL1::~StallBypassL1() = default;

bool StallBypassL1::on_miss_stall(Payload& t, uint64_t line, uint64_t c, Counter& cause) {
  Counter* by = &cause == &st_.rf_mshr      ? &by_mshr_
                : &cause == &st_.rf_line    ? &by_line_
                : &cause == &st_.rf_merge   ? &by_merge_
                : &cause == &st_.rf_no_fill ? &by_no_fill_
                                            : nullptr;
  if (!by) return reservation_fail(cause);  // the miss queue: a bypass would need a slot as well
  if (!bypass_and_note(t, line, c)) return false;
  ++*by;
  return true;
}

}  // namespace gms
