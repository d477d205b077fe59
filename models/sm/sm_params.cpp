#include "models/sm/sm_params.h"

namespace gms {

// Request ids carry the in-flight slot in 16 bits (sm_core.cpp), hence the per-SM ceiling.
constexpr uint64_t kMaxOutstandingPerSm = 65535;

SmParams SmParams::from(const ConfigNode& n) {
  SmParams p;
  p.count = uint32_t(n.get_uint("count", p.count, 1, 4096));
  p.clock_mhz = n.get_double("clock_mhz", p.clock_mhz, 1.0, 100000.0);
  p.max_warps = uint32_t(n.get_uint("max_warps", p.max_warps, 1, 1024));
  p.max_threads = uint32_t(n.get_uint("max_threads", p.max_threads, 32, 1u << 20));
  p.max_ctas = uint32_t(n.get_uint("max_ctas", p.max_ctas, 1, 1024));
  p.max_regs = uint32_t(n.get_uint("max_regs", p.max_regs, 1, 1u << 26));
  p.max_shmem = uint32_t(n.get_uint("max_shmem", p.max_shmem, 0, 1u << 30));
  p.scheduler =
      n.get_choice("scheduler", "gto", {"gto", "lrr"}) == "gto" ? SchedulerKind::Gto : SchedulerKind::Lrr;
  p.schedulers = uint32_t(n.get_uint("schedulers", p.schedulers, 1, 16));
  if (p.schedulers > p.max_warps)
    n.fail("schedulers",
           "value " + std::to_string(p.schedulers) + " exceeds max_warps (" + std::to_string(p.max_warps) +
               "): a sub-partition without a warp slot",
           {n.key_path("max_warps")});
  p.scoreboard = n.get_bool("scoreboard", p.scoreboard);
  p.max_outstanding_per_warp =
      uint32_t(n.get_uint("max_outstanding_per_warp", p.max_outstanding_per_warp, 1, kMaxOutstandingPerSm));
  p.max_outstanding_per_sm =
      uint32_t(n.get_uint("max_outstanding_per_sm", p.max_outstanding_per_sm, 1, kMaxOutstandingPerSm));
  if (p.max_outstanding_per_warp > p.max_outstanding_per_sm)
    n.fail("max_outstanding_per_warp",
           "value " + std::to_string(p.max_outstanding_per_warp) + " exceeds max_outstanding_per_sm (" +
               std::to_string(p.max_outstanding_per_sm) + ")",
           {n.key_path("max_outstanding_per_sm")});
  n.finish();
  return p;
}

const char* to_string(SchedulerKind k) {
  return k == SchedulerKind::Gto ? "gto" : "lrr";
}

}  // namespace gms
