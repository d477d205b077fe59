#include "tb/cli/trace_record_cmd.h"

#include <filesystem>
#include <iostream>

#include "models/common/config.h"
#include "models/common/output_file.h"
#include "models/common/text_excerpt.h"
#include "models/system/system_config.h"
#include "tb/cli/output_paths.h"
#include "tb/traces/accelsim_workload.h"
#include "tb/traces/accelsim_writer.h"
#include "tb/traces/trace_writer.h"
#include "tb/traces/workload_detect.h"

namespace gms {

namespace {

// The sink names the file it writes, the temporary: say the user's path instead.
std::string with_path(std::string what, const PendingOutput& out) {
  const std::string& temp = out.write_path();
  if (temp == out.path()) return what;
  for (size_t p = what.find(temp); p != std::string::npos; p = what.find(temp, p + out.path().size()))
    what.replace(p, temp.size(), out.path());
  return what;
}

// --format accelsim: a folder of kernelslist.g and kernel-N.traceg (docs/accelsim-import.md, "Writing").
int record_accelsim(const CliOptions& o, const std::vector<NamedPath>& inputs, Workload& workload) {
  const AccelWriteCounts n =
      AccelSimWriter(o.out_dir, [&](const std::string& path) {
        check_output_paths(inputs, {{"-o (" + std::filesystem::path(path).filename().string() + ")", path}});
      }).write(workload);
  std::cout << "recorded workload '" << workload.name() << "': " << n.kernels << " kernels, " << n.ctas
            << " CTAs, " << n.warps << " warps, " << n.instructions << " warp instructions -> " << o.out_dir
            << " (Accel-Sim trace, " << n.lines << " instruction lines";
  if (n.inexact_deps)
    std::cout << "; " << n.inexact_deps
              << " instructions' register dependences read back differently, docs/accelsim-import.md";
  std::cout << ")\n";
  return 0;
}

}  // namespace

int run_trace_record(const CliOptions& o) {
  // -o must not be an input: `-w X -o X` destroyed X (it was truncated before it was read).
  std::vector<NamedPath> inputs = {{"-c", o.config_path}, {"-w", o.workload_path}};
  check_output_paths(inputs, {{"-o", o.out_dir}});
  // -c is optional: the trace holds what the workload issues, which no system parameter changes (the SM
  // issues exactly the instructions it pulls, in program order per warp); a given config is still checked.
  if (!o.config_path.empty()) {
    ConfigNode doc = ConfigNode::load_file(o.config_path);
    for (const auto& s : o.sets) doc.apply_override(s);
    SystemConfig::from(doc);
  }
  const bool accelsim = o.trace_format == "accelsim";
  if (!accelsim && !o.trace_format.empty() && o.trace_format != "text" && o.trace_format != "binary")
    throw ConfigError("command line: --format: " + quote_excerpt(o.trace_format) +
                      " is not one of: accelsim, binary, text");
  const TraceFormat format = o.trace_format.empty() || accelsim
                                 ? trace_format_for_path(o.out_dir)
                                 : parse_trace_format(o.trace_format, "command line: --format");
  const TraceCompression comp = parse_trace_compression(o.trace_compression, "command line: --compression");
  std::unique_ptr<Workload> workload = load_any_workload(o.workload_path);
  if (auto* accel = dynamic_cast<AccelSimWorkload*>(workload.get()))
    for (const std::string& f : accel->kernel_files()) inputs.push_back({"-w (a kernel trace it lists)", f});
  if (accelsim) return record_accelsim(o, inputs, *workload);
  check_output_paths(inputs, {{"-o", o.out_dir}});
  // Written to a temporary renamed over -o at the end: an error on the way leaves an older file intact.
  PendingOutput out(o.out_dir);
  TraceWriteCounts n;
  try {
    n = TraceWriter(out.write_path(), format, comp).write(*workload);
    out.commit();
  } catch (const ConfigError& e) {
    throw ConfigError(with_path(e.what(), out));
  } catch (const OutputError& e) {
    throw OutputError(with_path(e.what(), out));
  }
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(o.out_dir, ec);
  std::cout << "recorded workload '" << workload->name() << "': " << n.kernels << " kernels, " << n.ctas
            << " CTAs, " << n.warps << " warps, " << n.instructions << " warp instructions -> " << o.out_dir
            << " (" << (format == TraceFormat::Binary ? "binary" : "text") << ", " << (ec ? 0 : bytes)
            << " bytes)\n";
  return 0;
}

}  // namespace gms
