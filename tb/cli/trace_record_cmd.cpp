#include "tb/cli/trace_record_cmd.h"

#include <filesystem>
#include <iostream>

#include "models/common/config.h"
#include "models/system/system_config.h"
#include "tb/traces/trace_writer.h"
#include "tb/traces/workload_detect.h"

namespace gms {

int run_trace_record(const CliOptions& o) {
  // -c is optional: the trace holds what the workload issues, which no system parameter changes (the SM
  // issues exactly the instructions it pulls, in program order per warp); a given config is still checked.
  if (!o.config_path.empty()) {
    ConfigNode doc = ConfigNode::load_file(o.config_path);
    for (const auto& s : o.sets) doc.apply_override(s);
    SystemConfig::from(doc);
  }
  const TraceFormat format = o.trace_format.empty()
                                 ? trace_format_for_path(o.out_dir)
                                 : parse_trace_format(o.trace_format, "command line: --format");
  const TraceCompression comp = parse_trace_compression(o.trace_compression, "command line: --compression");
  std::unique_ptr<Workload> workload = load_any_workload(o.workload_path);
  TraceWriter writer(o.out_dir, format, comp);
  const TraceWriteCounts n = writer.write(*workload);
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(o.out_dir, ec);
  std::cout << "recorded workload '" << workload->name() << "': " << n.kernels << " kernels, " << n.ctas
            << " CTAs, " << n.warps << " warps, " << n.instructions << " warp instructions -> " << o.out_dir
            << " (" << (format == TraceFormat::Binary ? "binary" : "text") << ", " << (ec ? 0 : bytes)
            << " bytes)\n";
  return 0;
}

}  // namespace gms
