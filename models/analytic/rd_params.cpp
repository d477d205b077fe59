#include "models/analytic/rd_params.h"

#include <cmath>
#include <cstdlib>

#include "models/common/config.h"

namespace gms {

namespace {

bool pow2(uint64_t v) {
  return v && !(v & (v - 1));
}

uint64_t parse_uint(const std::string& key, const std::string& v, uint64_t lo, uint64_t hi) {
  char* end = nullptr;
  if (v.empty() || v[0] == '-')
    throw ConfigError("rd option " + key + ": expected an unsigned integer, got '" + v + "'");
  unsigned long long x = std::strtoull(v.c_str(), &end, 0);
  if (*end) throw ConfigError("rd option " + key + ": expected an unsigned integer, got '" + v + "'");
  if (x < lo || x > hi)
    throw ConfigError("rd option " + key + ": value " + v + " out of range [" + std::to_string(lo) + ", " +
                      std::to_string(hi) + "]");
  return x;
}

double parse_double(const std::string& key, const std::string& v, double lo, double hi) {
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !std::isfinite(x))
    throw ConfigError("rd option " + key + ": expected a number, got '" + v + "'");
  if (x < lo || x > hi) throw ConfigError("rd option " + key + ": value " + v + " out of range");
  return x;
}

bool parse_bool(const std::string& key, const std::string& v) {
  if (v == "true" || v == "1" || v == "on") return true;
  if (v == "false" || v == "0" || v == "off") return false;
  throw ConfigError("rd option " + key + ": expected true or false, got '" + v + "'");
}

}  // namespace

void RdParams::validate() const {
  if (!pow2(line_bytes) || line_bytes < 16 || line_bytes > 4096)
    throw ConfigError("rd option line_bytes: " + std::to_string(line_bytes) +
                      " must be a power of two in [16, 4096]");
  if (size_bytes < line_bytes || size_bytes % line_bytes)
    throw ConfigError("rd option size_bytes: " + std::to_string(size_bytes) +
                      " is not a multiple of line_bytes");
  if (effective_ways() > lines() || lines() % effective_ways())
    throw ConfigError("rd option ways: " + std::to_string(ways) + " does not divide " +
                      std::to_string(lines()) + " lines");
  if (cores == 0) throw ConfigError("rd option cores: must be at least 1");
  if (sector_bytes && (!pow2(sector_bytes) || sector_bytes < 32 || sector_bytes > line_bytes))
    throw ConfigError("rd option sector_bytes: " + std::to_string(sector_bytes) +
                      " must be 0 (whole lines) or a power of two from 32 to line_bytes (" +
                      std::to_string(line_bytes) + ")");
  if (tracks_sectors() && line_bytes > 128)
    throw ConfigError("rd option line_bytes: " + std::to_string(line_bytes) + " with " +
                      (sector_bytes ? "sector_bytes " + std::to_string(sector_bytes) : "write_allocate") +
                      ": per-sector state needs lines of at most 128 B");
  if (store_policy == StorePolicy::WriteAllocate && !stores_evict)
    throw ConfigError("rd option stores_evict: false applies to store_policy write_evict only");
  try {
    SetIndexer(set_index, sets(), line_bytes);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("rd option set_index: ") + e.what());
  }
}

RdParams RdParams::from_config(const L1Params& l1, const SmParams& sm) {
  RdParams p;
  p.size_bytes = l1.size_bytes;
  p.ways = l1.ways;
  p.line_bytes = l1.line_bytes;
  p.set_index = l1.set_index;
  p.mshr_entries = l1.mshr_entries;
  p.mshr_per_warp = sm.max_outstanding_per_warp;
  p.flush_at_kernel_end = l1.flush_at_kernel_end;
  p.store_policy = l1.store_policy;
  if (l1.design == "sector") p.sector_bytes = 32;  // 128 B lines of four 32 B sectors (sector_l1.h)
  p.cores = sm.count;
  p.max_ctas = sm.max_ctas;
  p.max_warps = sm.max_warps;
  p.max_threads = sm.max_threads;
  p.max_regs = sm.max_regs;
  p.max_shmem = sm.max_shmem;
  return p;
}

RdParams RdParams::ideal(uint32_t size_bytes, uint32_t ways, uint32_t line_bytes) {
  RdParams p;
  p.size_bytes = size_bytes;
  p.ways = ways;
  p.line_bytes = line_bytes;
  p.set_index = SetIndexFn::Linear;
  p.mshr_entries = p.mshr_per_warp = 0;
  p.hit_latency = p.miss_latency = 0;
  p.sigma = 0;
  p.divergence = false;
  p.clip = false;
  p.cores = 1;
  return p;
}

void RdParams::set(const std::string& kv) {
  auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError("rd option '" + kv + "': expected KEY=VALUE");
  const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
  const uint64_t u32 = 0xffffffffull;
  if (k == "size_bytes")
    size_bytes = uint32_t(parse_uint(k, v, 16, u32));
  else if (k == "ways")
    ways = uint32_t(parse_uint(k, v, 0, 65536));
  else if (k == "line_bytes")
    line_bytes = uint32_t(parse_uint(k, v, 16, 4096));
  else if (k == "set_index") {
    try {
      set_index = parse_set_index(v);
    } catch (const std::invalid_argument&) {
      throw ConfigError("rd option set_index: expected linear or fermi_hash, got '" + v + "'");
    }
  } else if (k == "mshr_entries")
    mshr_entries = uint32_t(parse_uint(k, v, 0, u32));
  else if (k == "mshr_per_warp")
    mshr_per_warp = uint32_t(parse_uint(k, v, 0, u32));
  else if (k == "hit_latency")
    hit_latency = uint32_t(parse_uint(k, v, 0, 1000000));
  else if (k == "miss_latency")
    miss_latency = uint32_t(parse_uint(k, v, 0, 1000000));
  else if (k == "sigma")
    sigma = parse_double(k, v, 0, 1e6);
  else if (k == "seed")
    seed = parse_uint(k, v, 0, ~0ull);
  else if (k == "clip")
    clip = parse_bool(k, v);
  else if (k == "divergence")
    divergence = parse_bool(k, v);
  else if (k == "divergence_factor")
    divergence_factor = parse_double(k, v, 0, 1e3);
  else if (k == "cores")
    cores = uint32_t(parse_uint(k, v, 1, 4096));
  else if (k == "flush_at_kernel_end")
    flush_at_kernel_end = parse_bool(k, v);
  else if (k == "stores_evict")
    stores_evict = parse_bool(k, v);
  else if (k == "store_policy") {
    if (!parse_store_policy(v, store_policy))
      throw ConfigError("rd option store_policy: expected write_evict or write_allocate, got '" + v + "'");
  } else if (k == "sector_bytes")
    sector_bytes = uint32_t(parse_uint(k, v, 0, 4096));
  else if (k == "exact_global")
    exact_global = parse_bool(k, v);
  else
    throw ConfigError("rd option '" + k + "': unknown (see gpumemsys rd --help)");
}

const char* RdParams::option_help() {
  return "rd options (--rd KEY=VALUE, repeatable; cache keys default to the config's l1:/sm:):\n"
         "  size_bytes, ways (0 = fully associative), line_bytes, set_index (linear|fermi_hash)\n"
         "  mshr_entries (default l1.mshr_entries; 0 = unlimited)\n"
         "  mshr_per_warp (default sm.max_outstanding_per_warp; 0 = unlimited)\n"
         "  hit_latency (0), miss_latency = lambda_min (100), sigma (5), seed (1)\n"
         "  clip (true), divergence (true), divergence_factor (1.0)\n"
         "  cores (default sm.count), flush_at_kernel_end (default l1's), stores_evict (true)\n"
         "  store_policy (write_evict|write_allocate, default l1.store_policy)\n"
         "  sector_bytes (default 32 for l1.design sector, else 0 = whole lines)\n"
         "  exact_global (false: capacity vs associativity from a shadow fully associative LRU)\n";
}

}  // namespace gms
