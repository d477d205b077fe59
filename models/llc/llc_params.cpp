#include "models/llc/llc_params.h"

#include "models/cache/replacement.h"
#include "models/common/mem_req.h"
#include "models/common/rng.h"

namespace gms {

const char* to_string(LlcFetch f) {
  return f == LlcFetch::Sector ? "sector" : "line";
}

const char* to_string(LlcSetIndex s) {
  switch (s) {
    case LlcSetIndex::XorFold:
      return "xor_fold";
    case LlcSetIndex::Linear:
      return "linear";
    case LlcSetIndex::FermiHash:
      return "fermi_hash";
  }
  return "?";
}

namespace {

// The first inconsistency of p, or "" (shared by from() with file positions and check() without).
std::string problem(const LlcParams& p, std::string& key) {
  const uint64_t way_bytes = uint64_t(p.ways) * p.line_bytes;
  if (p.size_bytes % way_bytes) {
    key = "size_bytes";
    return "size_bytes (" + std::to_string(p.size_bytes) + ") must be a multiple of ways * line_bytes (" +
           std::to_string(way_bytes) + ")";
  }
  const uint64_t sets = p.size_bytes / way_bytes;
  if (sets == 0) {
    key = "size_bytes";
    return "size_bytes / (ways * line_bytes) = 0 sets; must be at least 1";
  }
  if (p.set_index == LlcSetIndex::FermiHash && sets != 32 && sets != 64) {
    key = "set_index";
    return "fermi_hash needs 32 or 64 sets, this slice has " + std::to_string(sets);
  }
  Rng rng;
  try {
    make_replacement(p.replacement, uint32_t(sets), p.ways, rng);
  } catch (const std::invalid_argument& e) {
    key = "replacement";
    return e.what();
  }
  return "";
}

}  // namespace

LlcParams LlcParams::from(const ConfigNode& n) {
  LlcParams p;
  p.slices = uint32_t(n.get_uint("slices", p.slices, 1, 1024));
  p.clock_mhz = n.get_double("clock_mhz", p.clock_mhz, 1.0, 20000.0);
  p.size_bytes = n.get_uint("size_bytes", p.size_bytes, kLineBytes, uint64_t(1) << 32);
  p.ways = uint32_t(n.get_uint("ways", p.ways, 1, 64));
  p.line_bytes = uint32_t(n.get_uint("line_bytes", p.line_bytes, kLineBytes, kLineBytes));
  p.sector_bytes = uint32_t(n.get_uint("sector_bytes", p.sector_bytes, kChunkBytes, kChunkBytes));
  p.replacement = n.get_string("replacement", p.replacement);
  std::string si = n.get_choice("set_index", to_string(p.set_index), {"xor_fold", "linear", "fermi_hash"});
  p.set_index = si == "linear"       ? LlcSetIndex::Linear
                : si == "fermi_hash" ? LlcSetIndex::FermiHash
                                     : LlcSetIndex::XorFold;
  p.mshr_entries = uint32_t(n.get_uint("mshr_entries", p.mshr_entries, 1, 4096));
  p.mshr_max_merge = uint32_t(n.get_uint("mshr_max_merge", p.mshr_max_merge, 1, 256));
  p.latency = uint32_t(n.get_uint("latency", p.latency, 1, 100000));
  p.input_queue = uint32_t(n.get_uint("input_queue", p.input_queue, 1, 4096));
  // A read miss that evicts a dirty line queues a write-back and a fetch at once.
  p.miss_queue = uint32_t(n.get_uint("miss_queue", p.miss_queue, 2, 4096));
  p.response_queue = uint32_t(n.get_uint("response_queue", p.response_queue, 1, 4096));
  p.fetch = n.get_choice("fetch", "sector", {"sector", "line"}) == "line" ? LlcFetch::Line : LlcFetch::Sector;
  p.mode = n.get_choice("mode", p.mode, {"shared", "private", "adaptive"});
  p.design = n.get_string("design", p.design);  // checked against the registry by make_llc
  p.force_switch_cycles = n.get_uint("force_switch_cycles", p.force_switch_cycles, 0, UINT64_MAX);
  std::string key;
  std::string why = problem(p, key);
  if (!why.empty())
    n.fail(
        key, why,
        {n.key_path("size_bytes"), n.key_path("ways"), n.key_path("set_index"), n.key_path("replacement")});
  n.finish();
  return p;
}

void LlcParams::check() const {
  if (ways == 0 || ways > 64) throw ConfigError("llc.ways: must lie in [1, 64]");
  if (mshr_entries == 0 || mshr_max_merge == 0 || latency == 0 || input_queue == 0 || response_queue == 0)
    throw ConfigError("llc: mshr_entries, mshr_max_merge, latency and the queues must be at least 1");
  if (miss_queue < 2) throw ConfigError("llc.miss_queue: must be at least 2");
  if (line_bytes != kLineBytes || sector_bytes != kChunkBytes)
    throw ConfigError("llc: line_bytes must be 128 and sector_bytes 32");
  if (!(clock_mhz > 0)) throw ConfigError("llc.clock_mhz: must be positive");
  if (map_slices == 0 || map_chunk_lines == 0)
    throw ConfigError("llc: map_slices and map_chunk_lines (the address map's rotation) must be at least 1");
  if (sms_per_victim_bit && !victim_bit_l1s)
    throw ConfigError("llc: victim bits (sms_per_victim_bit) need the number of L1s (victim_bit_l1s)");
  std::string key;
  std::string why = problem(*this, key);
  if (!why.empty()) throw ConfigError("llc." + key + ": " + why);
}

}  // namespace gms
