#include "models/system/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "models/cache/mshr_file.h"
#include "models/cache/tag_array.h"
#include "models/l1/decoupled_tag_store.h"
#include "models/llc/adaptive/aux_tag_directory.h"
#include "models/llc/llc_slice.h"
#include "models/noc/network_interconnect.h"
#include "models/sm/warp_state.h"

namespace gms {

namespace {

// Fixed costs per block (module, sockets, statistics and their output, names), measured as the growth of
// peak RSS per block on systems of 1 to 512 blocks (tests/cli/test_memory_budget.cpp) and rounded up.
constexpr uint64_t kSmAndL1Fixed = 40 * 1024;
constexpr uint64_t kSliceFixed = 24 * 1024;
constexpr uint64_t kChannelFixed = 16 * 1024;
// A pooled payload: the generic payload, its 128 B data and byte-enable buffers and its MemReq.
constexpr uint64_t kPayloadBytes = 512;
// Per DRAM queue slot: the request record, its ordering entries, and a queue index in every bank.
constexpr uint64_t kDramPerSlot = 128;
// Per DRAM bank: timing state, candidates, the ready-time trees.
constexpr uint64_t kDramPerBank = 256;

// a * b, saturated (absurd configurations multiply large numbers).
uint64_t mul(uint64_t a, uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
uint64_t add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
uint64_t pow2_at_least(uint64_t n) {  // a RingQueue's capacity
  uint64_t c = 1;
  while (c < n && c < (uint64_t(1) << 62)) c <<= 1;
  return c;
}

const char* const kPhysicalMemory = "physical memory";
const char* const kAddressSpaceLimit = "address-space limit (ulimit -v)";
const char* const kDataSegmentLimit = "data-segment limit (ulimit -d)";

std::string kv(const char* key, uint64_t v) {
  return std::string(key) + " " + std::to_string(v);
}

// An MSHR file of `entries` whose waiter lists grow to `merge` (MshrFile: entries, lists, index, free list).
uint64_t mshr_bytes(uint64_t entries, uint64_t merge) {
  return add(mul(entries, sizeof(MshrFile::Entry) + sizeof(uint32_t) + sizeof(std::vector<void*>) +
                              merge * sizeof(void*)),
             pow2_at_least(std::max<uint64_t>(8, 2 * entries)) * 2 * sizeof(uint16_t));
}

// A TagArray of `lines` lines of `line_bytes` in `sets` sets: data, entry and 16-bit hint per line, valid
// and reserved way masks per set, and the replacement policy's state (an LRU stamp, the largest).
uint64_t tag_array_bytes(uint64_t sets, uint64_t lines, uint64_t line_bytes) {
  return add(mul(lines, line_bytes + sizeof(TagEntry) + sizeof(uint16_t) + sizeof(uint64_t)),
             mul(sets, 2 * sizeof(uint64_t)));
}

// One L1 of design p.design: its design's arrays and tables, the MSHR file, the queues.
uint64_t l1_bytes(const L1Params& p) {
  const uint64_t sets = p.sets(), lines = mul(sets, p.ways);
  const std::string& d = p.design;
  uint64_t b = 0;
  if (d == "tsc" || d == "tsc_plus") {
    // TagSplitStore: chunks of chunk_bytes with a private tag (16 B records), a 16 B group per 128 B.
    const uint64_t chunks = mul(lines, kLineBytes / p.tsc.chunk_bytes);
    b = add(mul(chunks, 16 + p.tsc.chunk_bytes), mul(lines, 16));
  } else if (d == "dsc") {
    // DecoupledSectoredCache: tags_per_frame 16 B tags and their replacement stamps per frame, a 3 B slot
    // per sector, 128 B of data.
    b = add(mul(mul(lines, p.dsc.tags_per_frame), 16 + sizeof(uint64_t)),
            mul(lines, kChunksPerLine * 3 + kLineBytes));
  } else if (d == "decoupled") {
    // The baseline's data store plus the tag store of tag_ways entries per set.
    b = add(tag_array_bytes(sets, lines, p.line_bytes),
            mul(mul(sets, p.decoupled.tag_ways), sizeof(DecoupledTagEntry)));
  } else if (d == "sector") {
    b = add(tag_array_bytes(sets, lines, kLineBytes), lines);  // a pending-sector mask per line
  } else if (d == "bypass_all") {
    b = 0;  // no array: every access goes to the LLC
  } else {  // baseline, gcache, stall_bypass: a TagArray
    b = tag_array_bytes(sets, lines, p.line_bytes);
  }
  // Queues: misses (miss_queue_entries), responses (64), arrivals (16), 16 B records.
  b = add(b, (pow2_at_least(p.miss_queue_entries) + 64 + 16) * 16);
  return add(b, mshr_bytes(p.mshr_entries, p.mshr_max_merge));
}

}  // namespace

MemoryEstimate estimate_memory(const SystemConfig& c) {
  MemoryEstimate e;
  const uint64_t sms = c.sm.count, slices = c.llc.slices, channels = c.dram.channels;
  // SMs: warp and CTA slots and each warp's ready time (the in-flight tables grow only with what is in
  // flight: payloads below).
  const uint64_t sm_each =
      add(mul(c.sm.max_warps, sizeof(WarpSlot) + sizeof(uint64_t)), mul(c.sm.max_ctas, sizeof(CtaSlot)));
  e.parts.push_back({"SMs",
                     kv("sm.count", sms) + " x (" + kv("sm.max_warps", c.sm.max_warps) + ", " +
                         kv("sm.max_ctas", c.sm.max_ctas) + ")",
                     mul(sms, add(kSmAndL1Fixed, sm_each))});
  // L1s: the design's arrays and tables, MSHRs with room for max_merge waiters each.
  e.parts.push_back({"L1 caches",
                     kv("sm.count", sms) + " x (" + kv("l1.size_bytes", c.l1.size_bytes) + ", " +
                         kv("l1.mshr_entries", c.l1.mshr_entries) + " x " +
                         kv("l1.mshr_max_merge", c.l1.mshr_max_merge) + ", l1.design " + c.l1.design + ")",
                     mul(sms, l1_bytes(c.l1))});
  // LLC slices as the system builder makes them (G-Cache's victim bits per L1).
  LlcParams llc = c.llc;
  if (c.l1.design == "gcache") {
    llc.victim_bit_l1s = c.sm.count;
    llc.sms_per_victim_bit = c.l1.gcache.sms_per_victim_bit;
  }
  e.parts.push_back(
      {"LLC slices",
       kv("llc.slices", slices) + " x (" + kv("llc.size_bytes", c.llc.size_bytes) + ", " +
           kv("llc.mshr_entries", c.llc.mshr_entries) + " x " +
           kv("llc.mshr_max_merge", c.llc.mshr_max_merge) +
           (c.l1.design == "gcache" ? ", victim bits for " + kv("sm.count", sms) : std::string()) + ")",
       mul(slices, add(kSliceFixed, LlcSlice::footprint(llc)))});
  // The adaptive LLC's auxiliary tag directory (one, shadowing one slice) with a stack per SM cluster.
  if (c.llc.mode == "adaptive") {
    const uint32_t clusters = c.memory_map.num_slices / std::max<uint32_t>(1, c.memory_map.num_channels);
    e.parts.push_back({"adaptive LLC tag directory",
                       kv("llc.adaptive.sampled_sets", c.llc_adaptive.sampled_sets) + " x " +
                           kv("llc.ways", c.llc.ways) + " x " + std::to_string(clusters + 1) + " shadows",
                       AuxTagDirectory::footprint(c.llc.ways, c.llc_adaptive.sampled_sets, clusters)});
  }
  // DRAM channels: the request queue, indexed per bank, and the banks' state.
  const uint64_t dram_each = add(
      kChannelFixed,
      add(mul(c.dram.queue_size, kDramPerSlot),
          add(mul(mul(c.dram.banks, c.dram.queue_size), sizeof(int16_t)), mul(c.dram.banks, kDramPerBank))));
  e.parts.push_back({"DRAM channels",
                     kv("dram.channels", channels) + " x (" + kv("dram.banks", c.dram.banks) + " x " +
                         kv("dram.queue_size", c.dram.queue_size) + ")",
                     mul(channels, dram_each)});
  // The NoC: both networks as built for the configured topology (router buffers, VCs, allocators, ports).
  const uint32_t spm = c.memory_map.num_slices / std::max<uint32_t>(1, c.memory_map.num_channels);
  const NocParams& n = c.noc;
  std::string noc_keys =
      "noc.type " + n.type + ", " + kv("sm.count", sms) + " + " + kv("llc.slices", slices) + " ports";
  if (n.type == "full") {
    noc_keys += " x " + kv("noc.input_buffer_flits", n.input_buffer_flits);
  } else {
    if (n.type == "concentrated") noc_keys += " / " + kv("noc.concentration", n.concentration);
    noc_keys += " x " + kv("noc.router.vcs", n.router.vcs) + " x " +
                kv("noc.router.vc_buffer_flits", n.router.vc_buffer_flits) + ", noc.router.allocator " +
                n.router.allocator;
  }
  e.parts.push_back({"NoC", noc_keys, NetworkInterconnect::footprint(n, c.sm.count, c.llc.slices, spm)});
  // Payloads in flight (the pool keeps its peak): per SM its line requests (at most
  // sm.max_outstanding_per_sm, and what its L1 can hold) and as many L1 fetches and write-throughs, each
  // made for one of them; per slice its DRAM fetches (a sector each) and write-backs.
  const uint64_t l1_holds =
      add(mul(c.l1.mshr_entries, c.l1.mshr_max_merge), c.l1.miss_queue_entries + 64 + 16);
  const uint64_t per_sm = 2 * std::min<uint64_t>(c.sm.max_outstanding_per_sm, l1_holds);
  const uint64_t per_slice = add(mul(c.llc.mshr_entries, kChunksPerLine), c.llc.miss_queue);
  const uint64_t payloads = add(mul(sms, per_sm), mul(slices, per_slice));
  e.parts.push_back({"payloads in flight",
                     kv("sm.count", sms) + " x " +
                         kv("sm.max_outstanding_per_sm", c.sm.max_outstanding_per_sm) + " + " +
                         kv("llc.slices", slices) + " x " + kv("llc.mshr_entries", c.llc.mshr_entries),
                     mul(payloads, kPayloadBytes)});
  // The heap's own overhead on these structures (chunk headers, rounding of large blocks to whole and huge
  // pages): measured at 1 to 2 % of them, counted as 1/32.
  uint64_t structures = 0;
  for (const auto& p : e.parts) structures = add(structures, p.bytes);
  e.parts.push_back({"heap overhead", "1/32 of the parts above", structures / 32});
  std::stable_sort(e.parts.begin(), e.parts.end(),
                   [](const MemoryPart& a, const MemoryPart& b) { return a.bytes > b.bytes; });
  for (const auto& p : e.parts) e.total = add(e.total, p.bytes);
  return e;
}

MemoryLimit memory_limit(const SystemParams& p) {
  if (p.memory_limit_mb) return {mul(p.memory_limit_mb, 1024 * 1024), "system.memory_limit_mb"};
  MemoryLimit l{UINT64_MAX, "no limit known"};
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) l = {mul(uint64_t(pages), uint64_t(page)), kPhysicalMemory};
  struct rlimit r;
  if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY && uint64_t(r.rlim_cur) < l.bytes)
    l = {uint64_t(r.rlim_cur), kAddressSpaceLimit};
  if (getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY && uint64_t(r.rlim_cur) < l.bytes)
    l = {uint64_t(r.rlim_cur), kDataSegmentLimit};
  return l;
}

uint64_t memory_in_use(const MemoryLimit& l) {
  // /proc/self/statm: total program size, resident, shared, text, lib, data + stack, dirty (pages).
  uint64_t size = 0, resident = 0, shared = 0, text = 0, lib = 0, data = 0;
  std::ifstream statm("/proc/self/statm");
  if (!(statm >> size >> resident >> shared >> text >> lib >> data)) return 0;
  const long page = sysconf(_SC_PAGE_SIZE);
  if (page <= 0) return 0;
  if (l.source == kAddressSpaceLimit) return mul(size, uint64_t(page));
  if (l.source == kDataSegmentLimit) return mul(data, uint64_t(page));
  if (l.source == kPhysicalMemory) return mul(resident, uint64_t(page));
  return 0;  // system.memory_limit_mb bounds the system's own structures
}

uint64_t MemoryBudget::left() const {
  const uint64_t held = add(estimate, in_use);
  return held < limit.bytes ? limit.bytes - held : 0;
}

// Kept back for what neither the estimate nor the data count: the output files' text, the heap's own slack,
// a few more payloads in flight. Measured: with none kept, runs stopped by the budget under `ulimit -v`
// peaked within 0.5% of the limit.
uint64_t MemoryBudget::reserve() const {
  return std::min(left() / 2, std::max<uint64_t>(uint64_t(8) << 20, limit.bytes / 64));
}

uint64_t MemoryBudget::data_bytes() const {
  return left() - reserve();
}

std::string MemoryBudget::data_text() const {
  std::string t = "the " + format_bytes(limit.bytes) + " limit (" + limit.source + ") less " +
                  format_bytes(estimate) + " estimated for the system's structures";
  if (in_use) t += ", " + format_bytes(in_use) + " in use before it was built";
  return t + " and " + format_bytes(reserve()) + " kept for outputs";
}

MemoryBudget check_memory_budget(const SystemConfig& cfg) {
  const MemoryEstimate e = estimate_memory(cfg);
  const MemoryLimit l = memory_limit(cfg.system);
  const uint64_t used = memory_in_use(l);
  if (add(e.total, used) <= l.bytes) return MemoryBudget{l, e.total, used};
  // The parts that make up most of the estimate, with the keys that drive them.
  std::string parts;
  uint64_t shown = 0;
  for (const auto& p : e.parts) {
    if (!parts.empty() && shown >= e.total / 10 * 9) break;
    parts += (parts.empty() ? "" : "; ") + p.what + " " + format_bytes(p.bytes) + " (" + p.keys + ")";
    shown = add(shown, p.bytes);
  }
  const std::string of_which =
      used ? ", " + format_bytes(used) + " of it in use before the system is built" : "";
  throw ConfigError("the configured system needs about " + format_bytes(e.total) +
                    " of memory, more than the " + format_bytes(l.bytes) + " limit (" + l.source + of_which +
                    "): " + parts + "; make these smaller or set system.memory_limit_mb");
}

}  // namespace gms
