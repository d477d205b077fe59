// Fuzz harness: a system configuration document (-c FILE), read as the CLI reads it: parsed, every
// block's parameters type- and range-checked, unknown keys rejected (SystemConfig::from ends with
// finish_all). Bad input must be a ConfigError; anything else escaping is a finding.
//
// GMS_FUZZ_IGNORE_YAML_EXCEPTIONS=1 also swallows yaml-cpp's own exceptions (a triage aid, off by default:
// while such an escape is open, every input that reaches it, the empty one first, stops libFuzzer before it
// can look for anything else).
#include <yaml-cpp/exceptions.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "models/common/config.h"
#include "models/system/system_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const gms::ConfigNode doc = gms::ConfigNode::load_string(text, "fuzz.yaml");
    const gms::SystemConfig cfg = gms::SystemConfig::from(doc);
    (void)cfg;
  } catch (const gms::ConfigError&) {
  } catch (const YAML::Exception&) {
    static const bool ignore = std::getenv("GMS_FUZZ_IGNORE_YAML_EXCEPTIONS") != nullptr;
    if (!ignore) throw;
  }
  return 0;
}
