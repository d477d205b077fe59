// Fuzz harness: one Accel-Sim kernel trace (kernel-N.traceg, plain, xz or gzip) loaded as `-w FILE` loads it
// (through a temporary file) and drained as the SM would pull it: the header, every thread block, every
// instruction line with its address compression mode.
#include <cstddef>
#include <cstdint>

#include "fuzz/drain.h"
#include "fuzz/temp_input.h"
#include "models/common/config.h"
#include "tb/traces/accelsim_workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = gms::fuzz::process_temp_dir().write("kernel-1.traceg", data, size);
  try {
    const auto workload = gms::load_accelsim_workload(path);
    gms::fuzz::drain_workload(*workload);
  } catch (const gms::ConfigError&) {
  }
  return 0;
}
