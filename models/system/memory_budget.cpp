#include "models/system/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "models/cache/tag_array.h"
#include "models/llc/byte_mask.h"
#include "models/sm/warp_state.h"

namespace gms {

namespace {

// Fixed costs per block (module, sockets, statistics, names), measured on the tiny preset and rounded down.
constexpr uint64_t kSmAndL1Fixed = 24 * 1024;
constexpr uint64_t kSliceFixed = 24 * 1024;
constexpr uint64_t kChannelFixed = 24 * 1024;
// Per cache line beside its data and tag: the replacement policy's state (LRU stamp, the largest).
constexpr uint64_t kPolicyPerLine = 8;
// Per MSHR merge slot: the L1's waiter pointer; the LLC's waiter pointer, waiter record and answer.
constexpr uint64_t kL1PerMergeSlot = sizeof(void*);
constexpr uint64_t kLlcPerMergeSlot = sizeof(void*) + 2 * sizeof(ByteMask) + 16;
// Per DRAM queue slot: the request record, and a queue index in every bank.
constexpr uint64_t kDramPerSlot = 128;
// Per crossbar port and network (request and reply): buffers, arbiter and active-set state.
constexpr uint64_t kNocPerPort = 256;

// a * b, saturated (absurd configurations multiply large numbers).
uint64_t mul(uint64_t a, uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
uint64_t add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

std::string kv(const char* key, uint64_t v) {
  return std::string(key) + " " + std::to_string(v);
}

}  // namespace

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  unsigned u = 0;
  while (v >= 1024 && u + 1 < sizeof units / sizeof *units) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u ? "%.1f %s" : "%.0f %s", v, units[u]);
  return buf;
}

MemoryEstimate estimate_memory(const SystemConfig& c) {
  MemoryEstimate e;
  const uint64_t sms = c.sm.count;
  // SMs: warp and CTA slots (the in-flight tables grow only with what is in flight).
  const uint64_t sm_each =
      add(kSmAndL1Fixed, add(mul(c.sm.max_warps, sizeof(WarpSlot)), mul(c.sm.max_ctas, sizeof(CtaSlot))));
  e.parts.push_back(
      {"SMs", kv("sm.count", sms) + ", " + kv("sm.max_warps", c.sm.max_warps), mul(sms, sm_each)});
  // L1s: tag, data and policy per line; MSHRs with room for max_merge waiters each.
  const uint64_t l1_lines = uint64_t(c.l1.sets()) * c.l1.ways;
  const uint64_t l1_each = add(mul(l1_lines, c.l1.line_bytes + sizeof(TagEntry) + kPolicyPerLine),
                               mul(c.l1.mshr_entries, add(mul(c.l1.mshr_max_merge, kL1PerMergeSlot), 64)));
  e.parts.push_back({"L1 caches",
                     kv("sm.count", sms) + " x (" + kv("l1.size_bytes", c.l1.size_bytes) + ", " +
                         kv("l1.mshr_entries", c.l1.mshr_entries) + " x " +
                         kv("l1.mshr_max_merge", c.l1.mshr_max_merge) + ")",
                     mul(sms, l1_each)});
  // LLC slices: tag, data, sector state and policy per line; MSHR waiters.
  const uint64_t llc_lines = uint64_t(c.llc.sets()) * c.llc.ways;
  const uint64_t llc_each =
      add(kSliceFixed,
          add(mul(llc_lines, c.llc.line_bytes + sizeof(TagEntry) + sizeof(LlcLineState) + kPolicyPerLine),
              mul(mul(c.llc.mshr_entries, c.llc.mshr_max_merge), kLlcPerMergeSlot)));
  e.parts.push_back({"LLC slices",
                     kv("llc.slices", c.llc.slices) + " x (" + kv("llc.size_bytes", c.llc.size_bytes) + ", " +
                         kv("llc.mshr_entries", c.llc.mshr_entries) + " x " +
                         kv("llc.mshr_max_merge", c.llc.mshr_max_merge) + ")",
                     mul(c.llc.slices, llc_each)});
  // DRAM channels: the request queue, indexed per bank.
  const uint64_t dram_each = add(
      kChannelFixed, add(mul(c.dram.queue_size, kDramPerSlot), mul(mul(c.dram.banks, c.dram.queue_size), 2)));
  e.parts.push_back({"DRAM channels",
                     kv("dram.channels", c.dram.channels) + " x (" + kv("dram.banks", c.dram.banks) + " x " +
                         kv("dram.queue_size", c.dram.queue_size) + ")",
                     mul(c.dram.channels, dram_each)});
  // Crossbar: per port state in both networks, and per output a bit per input in each arbiter.
  const uint64_t ports = sms + c.llc.slices;
  const uint64_t noc = add(mul(2 * ports, kNocPerPort), mul(2 * ports, (ports + 63) / 64 * 8));
  e.parts.push_back({"crossbar", kv("sm.count", sms) + " + " + kv("llc.slices", c.llc.slices), noc});
  std::stable_sort(e.parts.begin(), e.parts.end(),
                   [](const MemoryPart& a, const MemoryPart& b) { return a.bytes > b.bytes; });
  for (const auto& p : e.parts) e.total = add(e.total, p.bytes);
  return e;
}

MemoryLimit memory_limit(const SystemParams& p) {
  if (p.memory_limit_mb) return {mul(p.memory_limit_mb, 1024 * 1024), "system.memory_limit_mb"};
  MemoryLimit l{UINT64_MAX, "no limit known"};
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) l = {mul(uint64_t(pages), uint64_t(page)), "physical memory"};
  struct rlimit r;
  if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY && uint64_t(r.rlim_cur) < l.bytes)
    l = {uint64_t(r.rlim_cur), "address-space limit (ulimit -v)"};
  if (getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY && uint64_t(r.rlim_cur) < l.bytes)
    l = {uint64_t(r.rlim_cur), "data-segment limit (ulimit -d)"};
  return l;
}

void check_memory_budget(const SystemConfig& cfg) {
  const MemoryEstimate e = estimate_memory(cfg);
  const MemoryLimit l = memory_limit(cfg.system);
  if (e.total <= l.bytes) return;
  // The parts that make up most of the estimate, with the keys that drive them.
  std::string parts;
  uint64_t shown = 0;
  for (const auto& p : e.parts) {
    if (!parts.empty() && shown >= e.total / 10 * 9) break;
    parts += (parts.empty() ? "" : "; ") + p.what + " " + format_bytes(p.bytes) + " (" + p.keys + ")";
    shown = add(shown, p.bytes);
  }
  throw ConfigError("the configured system needs about " + format_bytes(e.total) +
                    " of memory, more than the " + format_bytes(l.bytes) + " limit (" + l.source +
                    "): " + parts + "; make these smaller or set system.memory_limit_mb");
}

}  // namespace gms
