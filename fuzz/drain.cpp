#include "fuzz/drain.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "models/coalescing/coalescer.h"
#include "models/common/config.h"

namespace gms::fuzz {

namespace {

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz drain: accepted input the SM cannot run: %s\n", what.c_str());
  std::abort();
}

}  // namespace

DrainCounts drain_workload(Workload& w, const DrainCaps& caps) {
  DrainCounts n;
  const std::string name = w.name();
  std::vector<LineRequest> lines;
  WarpInst inst;
  while (n.kernels < caps.kernels) {
    std::unique_ptr<KernelSource> k = w.next_kernel();
    if (!k) break;
    ++n.kernels;
    const KernelInfo info = k->info();
    // CtaDispatcher::check_kernel: the same inputs are bad input there.
    const std::string who = "workload '" + name + "': kernel '" + info.name + "'";
    if (info.num_ctas == 0) throw ConfigError(who + " has no CTAs");
    if (info.threads_per_cta == 0) throw ConfigError(who + " has no threads per CTA");
    const uint32_t wpc = info.warps_per_cta();
    for (uint32_t c = 0; c < info.num_ctas; ++c) {
      if (n.ctas == caps.ctas) return n;
      std::unique_ptr<CtaWork> cta = k->next_cta();
      if (!cta) throw ConfigError(who + " ran out of CTAs after " + std::to_string(c));
      ++n.ctas;
      if (cta->warps.size() != wpc)
        finding(who + ": CTA " + std::to_string(cta->cta_id) + " has " + std::to_string(cta->warps.size()) +
                " warp streams, expected " + std::to_string(wpc));
      for (auto& warp : cta->warps) {
        if (!warp) finding(who + ": null warp stream");
        while (warp->next(inst)) {
          if (inst.kind == MemKind::Barrier) {  // no memory access: nothing to coalesce
            if (++n.instructions == caps.instructions) return n;
            continue;
          }
          if (inst.kind != MemKind::Load && inst.kind != MemKind::Store && inst.kind != MemKind::Atomic)
            finding(who + ": instruction of kind " + to_string(inst.kind));
          if (inst.kind == MemKind::Atomic && inst.width != 4 && inst.width != 8)
            finding(who + ": atomic of " + std::to_string(inst.width) + " bytes");
          if (const std::string e = address_error(inst); !e.empty()) finding(who + ": " + e);
          try {
            Coalescer::coalesce(inst, lines);
          } catch (const std::invalid_argument& e) {
            finding(who + ": " + e.what());
          }
          if (inst.active_mask != 0 && lines.empty())
            finding(who + ": an instruction with active lanes makes no line request");
          n.line_requests += lines.size();
          if (++n.instructions == caps.instructions) return n;
        }
      }
    }
  }
  return n;
}

}  // namespace gms::fuzz
