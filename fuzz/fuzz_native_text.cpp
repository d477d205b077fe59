// Fuzz harness: a native text trace (docs/trace-format.md) opened as `-w x.gmstrace` is (the readers take a
// path: the input goes to a temporary file) and drained as the SM would pull it. Inputs that start with the
// binary magic are left to the native_binary harness.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz/drain.h"
#include "fuzz/temp_input.h"
#include "models/common/config.h"
#include "tb/traces/native_workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= sizeof gms::kBinaryMagic && std::memcmp(data, gms::kBinaryMagic, sizeof gms::kBinaryMagic) == 0)
    return -1;  // not this harness's input: keep it out of the corpus
  const std::string path = gms::fuzz::process_temp_dir().write("fuzz.gmstrace", data, size);
  try {
    gms::NativeTraceWorkload workload(path);
    gms::fuzz::drain_workload(workload);
  } catch (const gms::ConfigError&) {
  }
  return 0;
}
