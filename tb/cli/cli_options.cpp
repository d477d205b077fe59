#include "tb/cli/cli_options.h"

#include <cctype>

#include "models/common/config.h"
#include "models/common/text_excerpt.h"

namespace gms {

const char* cli_usage() {
  return "usage:\n"
         "  gpumemsys                      run the embedded default (fermi preset, built-in workload)\n"
         "  gpumemsys run -c CONFIG -w WORKLOAD [-o OUTDIR] [options]\n"
         "  gpumemsys trace record -w WORKLOAD -o OUT.gmstrace[.bin] [--format text|binary]\n"
         "                         [--compression zlib|xz|none] [-c CONFIG]\n"
         "                                 freeze what the workload issues (any -w: YAML, trace, kernel\n"
         "                                 port) into a native trace\n"
         "  gpumemsys trace record -w WORKLOAD -o DIR --format accelsim\n"
         "                                 the same as an Accel-Sim trace folder (kernelslist.g,\n"
         "                                 kernel-N.traceg, tracer version 5) for other simulators\n"
         "  gpumemsys rd -c CONFIG -w WORKLOAD [-o OUTDIR] [--rd KEY=VALUE]... [--png] [--sweep] "
         "[--compare-sim]\n"
         "                                 analytical reuse-distance model of the L1 (gpumemsys rd --help)\n"
         "  gpumemsys kernels [--count] [NAME...]\n"
         "                                 the kernel ports (benchmarks' kernels), usable as -w NAME\n"
         "options:\n"
         "  -c, --config FILE     system configuration (YAML, see configs/)\n"
         "  -w, --workload PATH   workload: YAML file, native trace (.gmstrace[.bin]) or Accel-Sim\n"
         "                        kernelslist.g (or its folder), recognised by content, or a kernel\n"
         "                        port's name with optional sizes (rodinia/bfs:nodes=4096)\n"
         "  -o, --out DIR         output directory for stats.json and stats.csv (default: out)\n"
         "  --set KEY=VALUE       override a configuration key, e.g. --set l1.ways=8 (repeatable)\n"
         "  --vcd FILE            write a VCD waveform of the traced blocks to FILE (exactly this name)\n"
         "  --trace GLOBS         with --vcd: blocks to trace, comma-separated globs (default: all), e.g.\n"
         "                        'l1*,dram*'; each glob must match a block (repeatable: the globs add up)\n"
         "  --trace-from TIME     with --vcd: write the waveform from this simulated time on (e.g. 20us,\n"
         "                        1500ns, 3ms, 250ps; the values at TIME open the file)\n"
         "  --trace-to TIME       with --vcd: stop writing the waveform at this simulated time\n"
         "  --no-check            do not check loads against the golden memory\n"
         "  -q, --quiet           no progress line\n"
         "  -h, --help            this text\n"
         "An option that takes one value (-c, -w, -o, --vcd, ...) may be given once; --set and --trace "
         "repeat.\n";
}

namespace {
// "20us", "1500ns", "3ms", "250ps", "2s" -> picoseconds; anything else is a ConfigError naming the option.
uint64_t parse_sim_time(const std::string& opt, const std::string& v) {
  size_t digits = 0;
  while (digits < v.size() && std::isdigit(static_cast<unsigned char>(v[digits]))) ++digits;
  const std::string unit = v.substr(digits);
  static const std::pair<const char*, uint64_t> kUnits[] = {
      {"ps", 1}, {"ns", 1000}, {"us", 1000000}, {"ms", 1000000000}, {"s", 1000000000000}};
  if (digits > 0 && digits <= 18)
    for (const auto& [name, scale] : kUnits)
      if (unit == name) {
        const uint64_t n = std::stoull(v.substr(0, digits));
        if (n <= UINT64_MAX / scale) return n * scale;
      }
  throw ConfigError("command line: " + opt + " '" + v +
                    "': expected a whole number of ps, ns, us, ms or s (e.g. 20us)");
}
}  // namespace

const std::string& RepeatGuard::operator()(const std::string& spelling, const std::string& option) {
  const auto [it, first] = seen_.emplace(option, spelling);
  if (!first)
    throw ConfigError("command line: " + spelling + " given twice" +
                      (it->second != spelling ? " (first as " + it->second + ")" : ""));
  return spelling;
}

CliOptions parse_cli(int argc, const char* const* argv) {
  CliOptions o;
  if (argc <= 1) {
    o.embedded_default = true;
    return o;
  }
  int i = 1;
  std::string first = argv[1];
  if (first == "-h" || first == "--help" || first == "help") {
    o.command = "help";
    return o;
  }
  if (first == "rd") {  // gpumemsys rd: parsed by tb/cli/rd_cmd.cpp
    o.command = "rd";
    return o;
  }
  if (first == "kernels") {  // gpumemsys kernels: parsed by tb/cli/kernels_cmd.cpp
    o.command = "kernels";
    return o;
  }
  if (first == "trace") {
    if (argc < 3 || std::string(argv[2]) != "record")
      throw ConfigError("command line: 'trace' needs a subcommand: trace record");
    o.command = "record";
    ++i;
  } else if (first != "run") {
    throw ConfigError("command line: unknown command " + quote_excerpt(first) +
                      " (expected 'run', 'trace record', 'rd' or 'kernels')");
  }
  ++i;
  RepeatGuard once;
  auto need = [&](const std::string& flag) -> std::string {
    if (i + 1 >= argc) throw ConfigError("command line: " + flag + " needs a value");
    return argv[++i];
  };
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-c" || a == "--config")
      o.config_path = need(once(a, "-c"));
    else if (a == "-w" || a == "--workload")
      o.workload_path = need(once(a, "-w"));
    else if (a == "-o" || a == "--out") {
      o.out_dir = need(once(a, "-o"));
      o.out_given = true;
    } else if (o.command == "record" && a == "--format")
      o.trace_format = need(once(a, a));
    else if (o.command == "record" && a == "--compression")
      o.trace_compression = need(once(a, a));
    else if (a == "--set")
      o.sets.push_back(need(a));
    else if (a == "--vcd" && o.command == "run") {
      o.vcd_path = need(once(a, a));
      if (o.vcd_path.empty()) throw ConfigError("command line: --vcd needs a file name");
    } else if (a == "--trace" && o.command == "run") {  // repeatable: the globs add up
      const std::string globs = need(a);
      o.trace_globs = o.trace_given ? o.trace_globs + "," + globs : globs;
      o.trace_given = true;
    } else if ((a == "--trace-from" || a == "--trace-to") && o.command == "run") {
      (a == "--trace-from" ? o.trace_from_ps : o.trace_to_ps) = parse_sim_time(a, need(once(a, a)));
      o.window_given = true;
    } else if (a == "--no-check")
      o.check_data = false;
    else if (a == "-q" || a == "--quiet")
      o.quiet = true;
    else if (a == "-h" || a == "--help")
      o.command = "help";
    else
      throw ConfigError("command line: unknown option " + quote_excerpt(a));
  }
  if (o.command == "run" && o.config_path.empty()) throw ConfigError("command line: run needs -c CONFIG");
  if (o.command == "run" && o.workload_path.empty()) throw ConfigError("command line: run needs -w WORKLOAD");
  if (o.window_given && o.vcd_path.empty())
    throw ConfigError("command line: --trace-from / --trace-to bound the VCD: they need --vcd FILE");
  if (o.trace_from_ps > o.trace_to_ps)
    throw ConfigError("command line: --trace-from (" + std::to_string(o.trace_from_ps) +
                      " ps) is after --trace-to (" + std::to_string(o.trace_to_ps) + " ps)");
  if (o.trace_given && o.vcd_path.empty())
    throw ConfigError("command line: --trace selects the blocks written to the VCD: it needs --vcd FILE");
  if (o.command == "record" && o.workload_path.empty())
    throw ConfigError("command line: trace record needs -w WORKLOAD");
  if (o.command == "record" && !o.out_given) throw ConfigError("command line: trace record needs -o OUT");
  return o;
}

}  // namespace gms
