#include "models/analytic/cta_ordering.h"

#include <algorithm>
#include <queue>

#include "models/common/config.h"

namespace gms {

uint32_t ctas_per_core(const KernelInfo& k, const RdParams& p) {
  const uint64_t warps = k.warps_per_cta(), threads = warps * kWarpSize;
  if (warps == 0) return 0;
  uint64_t n = p.max_ctas;
  n = std::min<uint64_t>(n, p.max_warps / warps);
  n = std::min<uint64_t>(n, p.max_threads / threads);
  if (k.regs_per_thread) n = std::min<uint64_t>(n, p.max_regs / (threads * k.regs_per_thread));
  if (k.shmem_per_cta) n = std::min<uint64_t>(n, p.max_shmem / k.shmem_per_cta);
  return uint32_t(n);
}

namespace {

// The step-by-step loop below hands out CTAs in the order of the steps that finish them, (time, core).
// Only those steps matter to other cores, so each core runs alone to its next CTA completion, and the
// completions are taken in that same order: the same CTAs go to the same cores, far fewer heap operations.
// (With an observer the step-by-step loop keeps the accesses in global time order.)
template <class Next>
void run_to_completions(std::vector<std::unique_ptr<CoreModel>>& cores, Next& next) {
  struct Done {
    uint64_t time;
    uint32_t core, ctas;
    bool operator>(const Done& o) const { return time != o.time ? time > o.time : core > o.core; }
  };
  std::priority_queue<Done, std::vector<Done>, std::greater<Done>> order;
  auto advance = [&](uint32_t i) {
    uint64_t key = 0;
    if (const uint32_t d = cores[i]->run_to_cta_end(key)) order.push({key, i, d});
  };
  for (uint32_t i = 0; i < cores.size(); ++i) advance(i);
  while (!order.empty()) {
    const Done d = order.top();
    order.pop();
    for (uint32_t k = d.ctas; k; --k)
      if (auto cta = next()) cores[d.core]->launch(std::move(cta));
    advance(d.core);
  }
}

}  // namespace

void run_kernel(KernelSource& kernel, const RdParams& p, std::vector<std::unique_ptr<CoreModel>>& cores) {
  const KernelInfo& info = kernel.info();
  const uint32_t limit = ctas_per_core(info, p);
  if (limit == 0)
    throw ConfigError("kernel '" + info.name + "': a CTA does not fit a core's occupancy limits");
  bool more = true;
  auto next = [&]() -> std::unique_ptr<CtaWork> {
    if (!more) return nullptr;
    for (;;) {
      auto cta = kernel.next_cta();
      if (!cta) {
        more = false;
        return nullptr;
      }
      if (!cta->warps.empty()) return cta;
    }
  };
  // Round-robin until the cores are full.
  uint64_t launched = 0;
  for (bool placed = true; placed && more;) {
    placed = false;
    for (auto& c : cores) {
      if (c->resident_ctas() >= limit) continue;
      auto cta = next();
      if (!cta) break;
      c->launch(std::move(cta));
      placed = true;
      ++launched;
    }
  }
  if (info.co_resident && launched < info.num_ctas)  // as the SMs' dispatcher refuses it
    throw ConfigError("kernel '" + info.name + "' needs its " + std::to_string(info.num_ctas) +
                      " CTAs resident at once (they wait on each other), but the " +
                      std::to_string(cores.size()) + " cores hold " + std::to_string(launched) + " of them");
  // Then in time-stamp order over the cores: a finished CTA's core takes the next one. CTAs that wait on
  // each other (co_resident) need the cores to advance together, step by step: one core run alone to its
  // CTA's end would spin on values the others have not written yet.
  if (!cores.empty() && !cores[0]->observed() && !info.co_resident) return run_to_completions(cores, next);
  using Entry = std::pair<uint64_t, uint32_t>;  // (time, core)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> order;
  for (uint32_t i = 0; i < cores.size(); ++i)
    if (cores[i]->busy()) order.push({cores[i]->time(), i});
  while (!order.empty()) {
    const uint32_t i = order.top().second;
    order.pop();
    CoreModel& c = *cores[i];
    for (uint32_t done = c.step(); done; --done)
      if (auto cta = next()) c.launch(std::move(cta));
    if (c.busy()) order.push({c.time(), i});
  }
}

}  // namespace gms
