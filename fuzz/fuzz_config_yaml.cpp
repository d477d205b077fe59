// Fuzz harness: a system configuration document (-c FILE), read as the CLI reads it: parsed, every
// block's parameters type- and range-checked, unknown keys rejected (SystemConfig::from ends with
// finish_all). Bad input must be a ConfigError; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "models/common/config.h"
#include "tb/system/system_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const gms::ConfigNode doc = gms::ConfigNode::load_string(text, "fuzz.yaml");
    const gms::SystemConfig cfg = gms::SystemConfig::from(doc);
    (void)cfg;
  } catch (const gms::ConfigError&) {
  }
  return 0;
}
