#include "tb/traces/workload_detect.h"

#include <filesystem>
#include <fstream>

#include "models/common/config.h"
#include "tb/traces/accelsim_workload.h"
#include "tb/traces/native_format.h"
#include "tb/traces/native_workload.h"
#include "tb/workloads/workload_loader.h"

namespace gms {

namespace {

// A workload document: text (no control bytes but tab/CR/LF) with a line starting with the top key
// `workload:` in its first 64 KiB. The loader then reports any YAML or key error with file and line.
bool looks_like_workload_yaml(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string buf(64 * 1024, '\0');
  in.read(&buf[0], std::streamsize(buf.size()));
  buf.resize(size_t(in.gcount()));
  for (char ch : buf) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
  }
  for (size_t pos = 0; pos < buf.size();) {
    size_t end = buf.find('\n', pos);
    if (end == std::string::npos) end = buf.size();
    size_t k = pos + 8;
    if (buf.compare(pos, 8, "workload") == 0) {
      while (k < end && (buf[k] == ' ' || buf[k] == '\t')) ++k;
      if (k < end && buf[k] == ':') return true;
    }
    pos = end + 1;
  }
  return false;
}

[[noreturn]] void unknown(const std::string& path) {
  throw ConfigError(path +
                    ": not a workload: expected a YAML document with top key 'workload:', a native trace "
                    "('gmstrace 1' text or binary), or an Accel-Sim kernelslist.g (or its folder)");
}

}  // namespace

const char* to_string(WorkloadKind k) {
  switch (k) {
    case WorkloadKind::Yaml:
      return "yaml";
    case WorkloadKind::NativeText:
      return "native-text";
    case WorkloadKind::NativeBinary:
      return "native-binary";
    case WorkloadKind::AccelSim:
      return "accelsim";
  }
  return "?";
}

WorkloadKind detect_workload_kind(const std::string& path) {
  std::error_code ec;
  const bool dir = std::filesystem::is_directory(path, ec);
  if (!dir) {
    std::ifstream probe(path, std::ios::binary);
    if (!probe) throw ConfigError(path + ": cannot read file");
    switch (sniff_native(path)) {
      case NativeKind::Text:
        return WorkloadKind::NativeText;
      case NativeKind::Binary:
        return WorkloadKind::NativeBinary;
      default:
        break;
    }
  }
  if (looks_like_accelsim(path)) return WorkloadKind::AccelSim;
  if (dir) throw ConfigError(path + ": a folder without kernelslist.g is not a workload");
  if (!looks_like_workload_yaml(path)) unknown(path);
  return WorkloadKind::Yaml;
}

std::unique_ptr<Workload> load_any_workload(const std::string& path) {
  switch (detect_workload_kind(path)) {
    case WorkloadKind::NativeText:
    case WorkloadKind::NativeBinary:
      return std::make_unique<NativeTraceWorkload>(path);
    case WorkloadKind::AccelSim:
      return load_accelsim_workload(path);
    case WorkloadKind::Yaml:
      break;
  }
  return load_workload_file(path);
}

}  // namespace gms
