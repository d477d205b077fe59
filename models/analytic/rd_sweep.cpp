#include "models/analytic/rd_sweep.h"

#include <cmath>

#include "models/common/config.h"

namespace gms {

std::vector<SweepPoint> rd_sweep(const RdParams& base, const WorkloadFactory& make,
                                 const std::vector<double>& factors) {
  std::vector<SweepPoint> out;
  const char* names[] = {"ways", "size_bytes", "line_bytes", "mshr_entries"};
  for (const char* name : names) {
    for (double f : factors) {
      SweepPoint pt;
      pt.parameter = name;
      pt.factor = f;
      pt.params = base;
      RdParams& p = pt.params;
      auto scale = [f](uint32_t v) { return uint32_t(std::lround(double(v) * f)); };
      const std::string n = name;
      if (n == "ways") p.ways = scale(base.effective_ways());
      if (n == "size_bytes") p.size_bytes = scale(base.size_bytes);
      if (n == "line_bytes") {  // same capacity and associativity, other line size
        p.line_bytes = scale(base.line_bytes);
        p.ways = base.effective_ways();
      }
      if (n == "mshr_entries") {
        if (base.mshr_entries == 0) continue;
        p.mshr_entries = std::max<uint32_t>(1, scale(base.mshr_entries));
      }
      if (p.ways == 0 || p.line_bytes < 16) continue;
      try {
        p.validate();
      } catch (const ConfigError&) {
        if (p.set_index != SetIndexFn::FermiHash) continue;
        p.set_index = SetIndexFn::Linear;
        pt.linear_fallback = true;
        try {
          p.validate();
        } catch (const ConfigError&) {
          continue;
        }
      }
      auto w = make();
      pt.total = RdModel(p).run(*w).total;
      out.push_back(std::move(pt));
    }
  }
  return out;
}

void write_sweep_csv(std::ostream& os, const std::vector<SweepPoint>& pts) {
  os << "parameter,factor,value,size_bytes,ways,line_bytes,mshr_entries,set_index,loads,miss_rate,"
        "compulsory,capacity,associativity,mshr,latency,write_evict\n";
  for (const auto& pt : pts) {
    const RdParams& p = pt.params;
    const RdCounts& c = pt.total;
    uint64_t v = pt.parameter == "ways"         ? p.effective_ways()
                 : pt.parameter == "size_bytes" ? p.size_bytes
                 : pt.parameter == "line_bytes" ? p.line_bytes
                                                : p.mshr_entries;
    auto r = [&](uint64_t n) { return c.loads ? double(n) / double(c.loads) : 0.0; };
    os << pt.parameter << "," << pt.factor << "," << v << "," << p.size_bytes << "," << p.effective_ways()
       << "," << p.line_bytes << "," << p.mshr_entries << "," << to_string(p.set_index) << "," << c.loads
       << "," << c.miss_rate() << "," << r(c.compulsory) << "," << r(c.capacity) << "," << r(c.associativity)
       << "," << r(c.mshr) << "," << r(c.latency) << "," << r(c.write_evict) << "\n";
  }
}

}  // namespace gms
