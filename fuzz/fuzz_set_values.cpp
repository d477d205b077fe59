// Fuzz harness: `--set key.path=value` assignments on the command line, applied to the fermi preset as the
// CLI applies them (ConfigNode::apply_override, then SystemConfig::from with its range checks, cross-field
// checks and unknown keys). One input is up to 64 assignments, one per line; `\n` in a line stands for a
// newline in the value (a shell can pass one), so multi-line and multi-document values are reached too.
// Bad input must be a ConfigError; anything else escaping is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/config_errors.h"
#include "models/common/config.h"
#include "models/system/system_config.h"
#include "tb/system/presets.h"

namespace {

// The line with each two-byte `\n` turned into a newline.
std::string unescape_newlines(const std::string& line) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else {
      out += line[i];
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gms::fuzz::expect_config_errors_only([&] {
    gms::ConfigNode doc = gms::ConfigNode::load_string(gms::embedded_fermi_yaml(), "<embedded fermi>");
    size_t applied = 0;
    for (size_t pos = 0; pos < text.size() && applied < 64;) {
      size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      const std::string line = text.substr(pos, end - pos);
      pos = end + 1;
      if (line.empty() || line[0] == '#') continue;
      doc.apply_override(unescape_newlines(line));
      ++applied;
    }
    const gms::SystemConfig cfg = gms::SystemConfig::from(doc);
    (void)cfg;
  });
  return 0;
}
