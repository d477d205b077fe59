// Fuzz harness: a synthetic workload document (-w FILE with top key `workload:`), loaded as the CLI loads
// it and then drained as the SM would pull it (fuzz/drain.h), so every pattern generator's instruction
// stream is exercised, up to the drain's work cap.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/drain.h"
#include "models/common/config.h"
#include "tb/workloads/workload_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto workload = gms::load_workload(gms::ConfigNode::load_string(text, "fuzz.yaml"));
    gms::fuzz::drain_workload(*workload);
  } catch (const gms::ConfigError&) {
  }
  return 0;
}
