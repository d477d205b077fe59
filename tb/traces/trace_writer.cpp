#include "tb/traces/trace_writer.h"

namespace gms {

TraceWriter::TraceWriter(std::string path, TraceFormat format, TraceCompression compression)
    : path_(std::move(path)), format_(format), compression_(compression) {}

TraceWriteCounts TraceWriter::write(Workload& workload) {
  TraceWriteCounts n;
  auto sink = open_native_sink(path_, format_, compression_);
  sink->begin(workload.name());
  PackedWarp pw;
  TraceInst t;
  while (auto kernel = workload.next_kernel()) {
    const KernelInfo info = kernel->info();
    sink->kernel(info);
    ++n.kernels;
    uint32_t expected = 0;
    while (auto cta = kernel->next_cta()) {
      if (cta->cta_id != expected || cta->warps.size() != info.warps_per_cta())
        throw std::logic_error("workload '" + workload.name() + "', kernel '" + info.name + "': CTA " +
                               std::to_string(cta->cta_id) + " with " + std::to_string(cta->warps.size()) +
                               " warps where CTA " + std::to_string(expected) + " with " +
                               std::to_string(info.warps_per_cta()) + " warps was due");
      ++expected;
      sink->cta(cta->cta_id);
      ++n.ctas;
      for (size_t w = 0; w < cta->warps.size(); ++w) {
        pw.clear();
        while (cta->warps[w]->next(t.inst)) pw.add(t);
        sink->warp(uint32_t(w), pw);
        ++n.warps;
        n.instructions += pw.count;
      }
    }
    if (expected != info.num_ctas)
      throw std::logic_error("kernel '" + info.name + "' handed out " + std::to_string(expected) + " of " +
                             std::to_string(info.num_ctas) + " CTAs");
  }
  sink->finish();
  return n;
}

}  // namespace gms
