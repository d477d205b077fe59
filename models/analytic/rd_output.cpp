#include "models/analytic/rd_output.h"

#include <iomanip>

namespace gms {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o;
}

// sectors: the tracked-sector counts too (left out otherwise, so whole-line output stays as it was).
void counts_json(std::ostream& os, const RdCounts& c, const char* ind, bool sectors) {
  os << ind << "\"instructions\": " << c.instructions << ",\n"
     << ind << "\"thread_accesses\": " << c.thread_accesses << ",\n"
     << ind << "\"loads\": " << c.loads << ",\n"
     << ind << "\"stores\": " << c.stores << ",\n"
     << ind << "\"hits\": " << c.hits << ",\n"
     << ind << "\"misses\": " << c.misses() << ",\n"
     << ind << "\"miss_rate\": " << c.miss_rate() << ",\n"
     << ind << "\"miss_rate_with_latency\": " << c.miss_rate_with_latency() << ",\n"
     << ind << "\"compulsory\": " << c.compulsory << ",\n"
     << ind << "\"capacity\": " << c.capacity << ",\n"
     << ind << "\"associativity\": " << c.associativity << ",\n"
     << ind << "\"mshr\": " << c.mshr << ",\n"
     << ind << "\"latency\": " << c.latency << ",\n"
     << ind << "\"write_evict\": " << c.write_evict << ",\n"
     << ind << "\"cancelled\": " << c.cancelled;
  if (sectors)
    os << ",\n"
       << ind << "\"sector\": " << c.sector << ",\n"
       << ind << "\"load_sectors\": " << c.load_sectors << ",\n"
       << ind << "\"load_sector_hits\": " << c.load_sector_hits << ",\n"
       << ind << "\"load_sector_hit_rate\": " << c.sector_hit_rate();
}

}  // namespace

void write_rd_json(std::ostream& os, const RdResult& r, const RdParams& p) {
  os << std::setprecision(6);
  os << "{\n  \"workload\": \"" << esc(r.workload) << "\",\n  \"params\": {\n"
     << "    \"size_bytes\": " << p.size_bytes << ", \"ways\": " << p.effective_ways()
     << ", \"sets\": " << p.sets() << ", \"line_bytes\": " << p.line_bytes << ", \"set_index\": \""
     << to_string(p.set_index) << "\",\n"
     << "    \"mshr_entries\": " << p.mshr_entries << ", \"mshr_per_warp\": " << p.mshr_per_warp
     << ", \"hit_latency\": " << p.hit_latency << ", \"miss_latency\": " << p.miss_latency
     << ", \"sigma\": " << p.sigma << ", \"seed\": " << p.seed << ",\n"
     << "    \"clip\": " << (p.clip ? "true" : "false")
     << ", \"divergence\": " << (p.divergence ? "true" : "false")
     << ", \"divergence_factor\": " << p.divergence_factor << ", \"cores\": " << p.cores;
  if (r.sectors)
    os << ",\n    \"store_policy\": \"" << to_string(p.store_policy)
       << "\", \"sector_bytes\": " << p.tracked_sector_bytes();
  os << "\n  },\n";
  os << "  \"seconds\": " << r.seconds << ",\n  \"model_bytes\": " << r.model_bytes << ",\n  \"total\": {\n";
  counts_json(os, r.total, "    ", r.sectors);
  os << "\n  },\n  \"kernels\": [";
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    os << (i ? ",\n" : "\n") << "    {\n      \"name\": \"" << esc(r.kernels[i].name) << "\",\n";
    counts_json(os, r.kernels[i].counts, "      ", r.sectors);
    os << "\n    }";
  }
  os << "\n  ],\n  \"histogram\": {\"inf\": " << r.total.histogram_inf << ", \"counts\": [";
  for (size_t i = 0; i < r.total.histogram.size(); ++i) os << (i ? ", " : "") << r.total.histogram[i];
  os << "]}\n}\n";
}

void write_rd_histogram_csv(std::ostream& os, const RdCounts& c) {
  os << "distance,count\n";
  for (size_t i = 0; i < c.histogram.size(); ++i)
    if (c.histogram[i]) os << i << "," << c.histogram[i] << "\n";
  os << "inf," << c.histogram_inf << "\n";
}

void print_rd_summary(std::ostream& os, const RdResult& r) {
  auto pct = [](uint64_t n, uint64_t d) { return d ? 100.0 * double(n) / double(d) : 0.0; };
  os << std::fixed << std::setprecision(2);
  os << "reuse-distance model: " << r.workload << " (" << r.kernels.size() << " kernels, " << r.seconds
     << " s)\n";
  os << "  kernel                    loads     miss%   compul  capac  assoc  mshr  | latency%"
     << (r.sectors ? "  sector%  sector hit%" : "") << "\n";
  auto row = [&](const std::string& n, const RdCounts& c) {
    os << "  " << std::left << std::setw(22) << n.substr(0, 22) << std::right << std::setw(10) << c.loads
       << std::setw(9) << 100 * c.miss_rate() << std::setw(8) << pct(c.compulsory, c.loads) << std::setw(7)
       << pct(c.capacity, c.loads) << std::setw(7) << pct(c.associativity, c.loads) << std::setw(6)
       << pct(c.mshr, c.loads) << "  | ";
    if (r.sectors)  // aligned under the two extra headers
      os << std::setw(8) << pct(c.latency, c.loads) << std::setw(9) << pct(c.sector, c.loads) << std::setw(13)
         << pct(c.load_sector_hits, c.load_sectors);
    else
      os << pct(c.latency, c.loads);
    os << "\n";
  };
  for (const auto& k : r.kernels) row(k.name, k.counts);
  row("total", r.total);
  os.unsetf(std::ios::fixed);
}

}  // namespace gms
