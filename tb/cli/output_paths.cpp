#include "tb/cli/output_paths.h"

#include <filesystem>

#include "models/common/config.h"
#include "models/common/text_excerpt.h"

namespace gms {

namespace fs = std::filesystem;

bool same_output_file(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  const fs::file_status sa = fs::status(a, ea), sb = fs::status(b, eb);
  if ((fs::exists(sa) && !fs::is_regular_file(sa)) || (fs::exists(sb) && !fs::is_regular_file(sb)))
    return false;
  if (fs::exists(sa) && fs::exists(sb)) {
    std::error_code ec;
    return fs::equivalent(a, b, ec) && !ec;
  }
  const fs::path ca = fs::weakly_canonical(a, ea), cb = fs::weakly_canonical(b, eb);
  return !ea && !eb && ca == cb;
}

void check_output_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    auto clash = [&](const NamedPath& other) {
      if (!other.path.empty() && same_output_file(out.path, other.path))
        throw ConfigError("command line: " + out.option + " and " + other.option + " name the same file " +
                          quote_excerpt(out.path, 120));
    };
    for (const NamedPath& in : inputs) clash(in);
    for (size_t j = 0; j < i; ++j) clash(outputs[j]);
  }
}

}  // namespace gms
