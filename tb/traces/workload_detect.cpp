#include "tb/traces/workload_detect.h"

#include <filesystem>

#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "tb/kernels/port_loader.h"
#include "tb/traces/accelsim_workload.h"
#include "tb/traces/native_format.h"
#include "tb/traces/native_workload.h"
#include "tb/workloads/workload_loader.h"

namespace gms {

namespace {

// A workload document: text (no control bytes but tab/CR/LF) with a line starting with the top key
// `workload:` in its first bytes. The loader then reports any YAML or key error with file and line.
bool looks_like_workload_yaml(std::string_view buf) {
  for (char ch : buf) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
  }
  for (size_t pos = 0; pos < buf.size();) {
    size_t end = buf.find('\n', pos);
    if (end == std::string_view::npos) end = buf.size();
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
                    "('gmstrace 1' text or binary), an Accel-Sim kernelslist.g (or its folder), or a kernel "
                    "port's name (gpumemsys kernels)");
}

// A kernel port's name (with sizes after ':') that is not also an existing file or folder.
bool is_port_name(const std::string& path) {
  std::error_code ec;
  return !std::filesystem::exists(path, ec) && kernels::is_port_reference(path);
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
    case WorkloadKind::Port:
      return "port";
  }
  return "?";
}

std::unique_ptr<InputFile> open_workload_input(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) || is_port_name(path)) return nullptr;
  if (!std::filesystem::exists(path, ec) && path.find('/') != std::string::npos &&
      path.find('/') == path.rfind('/') && path.find('.') == std::string::npos)  // looks like suite/name
    throw ConfigError(path +
                      ": no such file, and no kernel port of that name (gpumemsys kernels lists them)");
  auto in = std::make_unique<InputFile>(path);
  in->peek(kSniffBytes);
  return in;
}

WorkloadKind detect_workload_kind(const std::string& path, InputFile* in) {
  if (!in && is_port_name(path)) return WorkloadKind::Port;
  if (!in) {
    if (looks_like_accelsim(path)) return WorkloadKind::AccelSim;
    throw ConfigError(path + ": a folder without kernelslist.g is not a workload");
  }
  const std::string_view head = in->peek(kSniffBytes);
  switch (sniff_native(head)) {
    case NativeKind::Text:
      return WorkloadKind::NativeText;
    case NativeKind::Binary:
      return WorkloadKind::NativeBinary;
    default:
      break;
  }
  if (looks_like_accelsim(*in)) {
    // Its kernel files are opened by path, the list from its folder: a stream cannot be one.
    if (!in->regular())
      throw ConfigError(path +
                        ": an Accel-Sim trace is read from its file or folder, not from a pipe or device");
    return WorkloadKind::AccelSim;
  }
  if (!looks_like_workload_yaml(head)) unknown(path);
  return WorkloadKind::Yaml;
}

WorkloadKind detect_workload_kind(const std::string& path) {
  return detect_workload_kind(path, open_workload_input(path).get());
}

std::unique_ptr<Workload> load_any_workload(const std::string& path, std::unique_ptr<InputFile> in) {
  if (!in && is_port_name(path)) return kernels::load_port_reference(path);
  switch (detect_workload_kind(path, in.get())) {
    case WorkloadKind::NativeText:
    case WorkloadKind::NativeBinary:
      return std::make_unique<NativeTraceWorkload>(std::move(in));
    case WorkloadKind::AccelSim:
      return load_accelsim_workload(path);
    case WorkloadKind::Port:  // handled above
    case WorkloadKind::Yaml:
      break;
  }
  return load_workload(ConfigNode::load_input(*in, "workload file"));
}

std::unique_ptr<Workload> load_any_workload(const std::string& path) {
  return load_any_workload(path, open_workload_input(path));
}

bool looks_like_programs(std::string_view head) {
  for (size_t pos = 0; pos < head.size();) {
    size_t end = head.find('\n', pos);
    if (end == std::string_view::npos) end = head.size();
    const std::string_view line = head.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || line[0] == '#' || line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    return line.rfind("programs:", 0) == 0;  // the first key of the document
  }
  return false;
}

}  // namespace gms
