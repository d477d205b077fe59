// Command-line parsing for gpumemsys. Bad usage is a ConfigError (exit status 2), never a guess.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gms {

struct CliOptions {
  std::string command = "run";  // run | record (gpumemsys trace record) | help
  bool embedded_default = false;
  std::string config_path;      // -c
  std::string workload_path;    // -w
  std::string out_dir = "out";  // -o (trace record: the trace file)
  bool out_given = false;
  std::string trace_format;  // trace record --format: text | binary | accelsim ("" = by -o's extension)
  std::string trace_compression = "zlib";  // trace record --compression: zlib | xz | none
  std::vector<std::string> sets;           // --set key=value (system config)
  std::string vcd_path;
  std::string trace_globs = "*";  // --trace (only with --vcd)
  bool trace_given = false;
  uint64_t trace_from_ps = 0, trace_to_ps = UINT64_MAX;  // --trace-from / --trace-to (only with --vcd)
  bool window_given = false;
  bool check_data = true;
  bool quiet = false;
};

// An option that takes one value may be given once: -c a -c b silently ran b. The call for each
// occurrence returns `spelling`, or throws ConfigError "command line: -c given twice" ("--config given
// twice (first as -c)" when spelled two ways); `option` is the name both spellings share.
class RepeatGuard {
 public:
  const std::string& operator()(const std::string& spelling, const std::string& option);

 private:
  std::map<std::string, std::string> seen_;  // option -> its first spelling
};

CliOptions parse_cli(int argc, const char* const* argv);
const char* cli_usage();

}  // namespace gms
