#include "models/analytic/rd_classify.h"

namespace gms {

const char* to_string(RdOutcome o) {
  switch (o) {
    case RdOutcome::Hit:
      return "hit";
    case RdOutcome::Compulsory:
      return "compulsory";
    case RdOutcome::Capacity:
      return "capacity";
    case RdOutcome::Associativity:
      return "associativity";
    case RdOutcome::Mshr:
      return "mshr";
    case RdOutcome::Latency:
      return "latency";
    case RdOutcome::WriteEvict:
      return "write_evict";
    case RdOutcome::Sector:
      return "sector";
    case RdOutcome::Cancelled:
      return "cancelled";
    case RdOutcome::Store:
      return "store";
  }
  return "?";
}

void RdCounts::add(const RdCounts& o) {
  instructions += o.instructions;
  thread_accesses += o.thread_accesses;
  loads += o.loads;
  stores += o.stores;
  hits += o.hits;
  compulsory += o.compulsory;
  capacity += o.capacity;
  associativity += o.associativity;
  mshr += o.mshr;
  latency += o.latency;
  write_evict += o.write_evict;
  sector += o.sector;
  load_sectors += o.load_sectors;
  load_sector_hits += o.load_sector_hits;
  cancelled += o.cancelled;
  if (o.histogram.size() > histogram.size()) histogram.resize(o.histogram.size(), 0);
  for (size_t i = 0; i < o.histogram.size(); ++i) histogram[i] += o.histogram[i];
  histogram_inf += o.histogram_inf;
}

}  // namespace gms
