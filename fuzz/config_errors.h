// What the configuration harnesses accept from a reader: bad input is a ConfigError; anything else that
// escapes is a finding. GMS_FUZZ_IGNORE_YAML_EXCEPTIONS=1 also swallows yaml-cpp's own exceptions (a triage
// aid, off by default: while such an escape is open, every input that reaches it, the empty one first, stops
// libFuzzer before it can look for anything else).
#pragma once
#include <yaml-cpp/exceptions.h>

#include <cstdlib>

#include "models/common/config.h"

namespace gms::fuzz {

template <class Body>
void expect_config_errors_only(Body body) {
  try {
    body();
  } catch (const ConfigError&) {
  } catch (const YAML::Exception&) {
    static const bool ignore = std::getenv("GMS_FUZZ_IGNORE_YAML_EXCEPTIONS") != nullptr;
    if (!ignore) throw;
  }
}

}  // namespace gms::fuzz
