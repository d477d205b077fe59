// Fuzz harness: a system configuration document (-c FILE), read as the CLI reads it: parsed, every
// block's parameters type- and range-checked, unknown keys rejected (SystemConfig::from ends with
// finish_all). Bad input must be a ConfigError; anything else escaping is a finding.
// (GMS_FUZZ_IGNORE_YAML_EXCEPTIONS: fuzz/config_errors.h.)
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/config_errors.h"
#include "models/common/config.h"
#include "models/system/system_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gms::fuzz::expect_config_errors_only([&] {
    const gms::ConfigNode doc = gms::ConfigNode::load_string(text, "fuzz.yaml");
    const gms::SystemConfig cfg = gms::SystemConfig::from(doc);
    (void)cfg;
  });
  return 0;
}
