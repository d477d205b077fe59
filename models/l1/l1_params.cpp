#include "models/l1/l1_params.h"

#include "models/cache/replacement.h"
#include "models/l1/l1_cache.h"

#include <string>
#include <vector>

namespace gms {

namespace {

// The limits a design's own section has against the common keys. Checked only for the design that uses
// the section (docs/blocks/l1.md): another design ignores the section's values, so they cannot be wrong for
// it. `key` (in section `sec`) is blamed when the file sets it, else `common` (in l1), the other factor.
[[noreturn]] void fail_pair(const ConfigNode& n, const std::string& sec, const std::string& key,
                            const std::string& common, const std::string& msg) {
  const ConfigNode s = n.child(sec);
  if (s.has(key) || !n.has(common)) s.fail(key, msg, {n.key_path(common)});
  n.fail(common, msg, {s.key_path(key)});
}

void check_design_section(const ConfigNode& n, const L1Params& p) {
  // DSC: a set's tags are ways x tags_per_frame, one replacement state of at most 64 ways.
  const uint32_t dsc_tags = p.ways * p.dsc.tags_per_frame;
  if (p.design == "dsc" && dsc_tags > 64)
    fail_pair(n, "dsc", "tags_per_frame", "ways",
              "l1.ways x l1.dsc.tags_per_frame = " + std::to_string(p.ways) + " x " +
                  std::to_string(p.dsc.tags_per_frame) + " = " + std::to_string(dsc_tags) +
                  " exceeds 64 (the tags of a set)");
  // TSC+: the leader SM's sampler sets are sets of this L1.
  if (p.design == "tsc_plus" && p.tsc_plus.sampler_sets > p.sets())
    fail_pair(n, "tsc_plus", "sampler_sets", "size_bytes",
              "l1.tsc_plus.sampler_sets (" + std::to_string(p.tsc_plus.sampler_sets) + ") exceeds the L1's " +
                  std::to_string(p.sets()) + " sets");
  // Decoupled L1D: the tag store must be larger than the data store.
  if (p.design == "decoupled" && p.decoupled.tag_ways <= p.ways)
    fail_pair(n, "decoupled", "tag_ways", "ways",
              "l1.decoupled.tag_ways (" + std::to_string(p.decoupled.tag_ways) +
                  ") tag entries per set must exceed the data store's l1.ways (" + std::to_string(p.ways) +
                  "), else data lines are wasted");
}

}  // namespace

L1Params L1Params::from(const ConfigNode& n) {
  L1Params p;
  p.design = n.get_choice("design", p.design, l1_design_names());
  p.clock_mhz = n.get_double("clock_mhz", p.clock_mhz, 1.0, 100000.0);
  p.size_bytes = uint32_t(n.get_uint("size_bytes", p.size_bytes, 128, uint64_t(1) << 30));
  p.ways = uint32_t(n.get_uint("ways", p.ways, 1, 64));
  p.line_bytes = uint32_t(n.get_pow2("line_bytes", p.line_bytes, 32, 128));
  std::string index = n.get_choice("set_index", "fermi_hash", {"linear", "fermi_hash"});
  p.set_index = parse_set_index(index);
  p.replacement = n.get_choice("replacement", p.replacement, replacement_names());
  p.mshr_entries = uint32_t(n.get_uint("mshr_entries", p.mshr_entries, 1, 4096));
  p.mshr_max_merge = uint32_t(n.get_uint("mshr_max_merge", p.mshr_max_merge, 1, 1024));
  p.miss_queue_entries = uint32_t(n.get_uint("miss_queue_entries", p.miss_queue_entries, 1, 4096));
  p.hit_latency = uint32_t(n.get_uint("hit_latency", p.hit_latency, 1, 1000));
  p.flush_at_kernel_end = n.get_bool("flush_at_kernel_end", p.flush_at_kernel_end);
  parse_store_policy(n.get_choice("store_policy", "write_evict", {"write_evict", "write_allocate"}),
                     p.store_policy);
  p.tsc = TscParams::from(n.child("tsc"));
  p.tsc_plus = TscPlusParams::from(n.child("tsc_plus"));
  p.dsc = DscParams::from(n.child("dsc"));
  p.gcache = GCacheParams::from(n.child("gcache"));
  p.decoupled = DecoupledParams::from(n.child("decoupled"));
  p.pdp = PdpParams::from(n.child("pdp"));

  // Small lines (paper 000 sec. 2.2, figures 2-5): the baseline and the comparators built on its miss path.
  // The sectored designs store parts of lines but all access 128 B lines, as do G-Cache and Decoupled L1D.
  const bool small_ok = p.design == "baseline" || p.design == "stall_bypass" || p.design == "bypass_all";
  const std::vector<std::string> design{n.key_path("design")};
  if (p.line_bytes != 128 && !small_ok)
    n.fail(
        "line_bytes",
        "the " + p.design + " L1 needs 128 B lines (32 and 64 B lines: baseline, stall_bypass, bypass_all)",
        design);
  // PDP bypasses a load when every way is protected: only designs built on BaselineL1's miss path do
  // (bypass_all never allocates, so its replacement policy is unused).
  if (p.replacement == "pdp" && p.design != "baseline" && p.design != "stall_bypass" &&
      p.design != "bypass_all")
    n.fail("replacement",
           "pdp needs a design that can bypass (baseline, stall_bypass), not '" + p.design + "'", design);
  // Store allocation needs sector-granular storage (a partly written sector stays invalid): the designs on
  // SectoredL1's miss path.
  if (p.store_policy == StorePolicy::WriteAllocate && p.design != "sector" && p.design != "tsc" &&
      p.design != "tsc_plus" && p.design != "dsc")
    n.fail("store_policy",
           "write_allocate needs a sectored design (sector, tsc, tsc_plus, dsc), not '" + p.design + "'",
           design);
  const std::vector<std::string> geometry{n.key_path("size_bytes"), n.key_path("ways"),
                                          n.key_path("line_bytes")};
  uint64_t set_bytes = uint64_t(p.ways) * p.line_bytes;
  if (p.size_bytes % set_bytes != 0)
    n.fail("size_bytes",
           std::to_string(p.size_bytes) + " is not a multiple of ways x line_bytes (" +
               std::to_string(set_bytes) + ")",
           geometry);
  // Any whole number of sets: carve-outs such as 28 KiB or 224 KiB give non-power-of-two counts, which the
  // linear index takes modulo the set count.
  uint32_t sets = p.sets();
  if (sets == 0)
    n.fail("size_bytes",
           std::to_string(p.size_bytes) + " holds no set of " + std::to_string(p.ways) + " ways", geometry);
  if (p.set_index == SetIndexFn::FermiHash && ((sets != 32 && sets != 64) || p.line_bytes != 128))
    n.fail("set_index",
           "fermi_hash needs 32 or 64 sets of 128 B lines, this L1 has " + std::to_string(sets) +
               " sets of " + std::to_string(p.line_bytes) + " B",
           geometry);
  check_design_section(n, p);
  n.finish();
  return p;
}

const char* to_string(StorePolicy p) {
  return p == StorePolicy::WriteEvict ? "write_evict" : "write_allocate";
}

bool parse_store_policy(const std::string& name, StorePolicy& out) {
  for (StorePolicy p : {StorePolicy::WriteEvict, StorePolicy::WriteAllocate})
    if (name == to_string(p)) {
      out = p;
      return true;
    }
  return false;
}

}  // namespace gms
