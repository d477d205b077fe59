// Freezes any Workload into a native trace: every kernel, CTA and warp in dispatch order, each warp's whole
// stream in program order (what the SM issues is exactly what it pulls). One warp is buffered, packed.
#pragma once
#include <cstdint>
#include <string>

#include "models/common/workload.h"
#include "tb/traces/native_format.h"

namespace gms {

struct TraceWriteCounts {
  uint64_t kernels = 0, ctas = 0, warps = 0, instructions = 0;
};

class TraceWriter {
 public:
  TraceWriter(std::string path, TraceFormat format, TraceCompression compression = TraceCompression::Zlib);
  // Writes the whole workload (pulling it to its end) and finishes the file. Throws ConfigError when the
  // file cannot be written, std::invalid_argument for an instruction the format cannot hold (atomics).
  TraceWriteCounts write(Workload& workload);

 private:
  std::string path_;
  TraceFormat format_;
  TraceCompression compression_;
};

}  // namespace gms
