// The message of the ConfigError that `f` throws, or "" if it throws none: tests assert whole messages.
#pragma once
#include <functional>
#include <string>

#include "models/common/config.h"

inline std::string config_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const gms::ConfigError& e) {
    return e.what();
  }
  return "";
}
