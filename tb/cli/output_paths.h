// An output must not overwrite an input or another output: `-o out --vcd out/stats.json` wrote two files
// into one (invalid JSON, exit 0) and `trace record -w X -o X` destroyed its input. Checked before any
// output is opened, on canonical paths, so `./x`, `dir/../x` and symbolic links are caught too.
#pragma once
#include <string>
#include <vector>

namespace gms {

// A file a command reads or writes, named by the option that gives it: {"-c", "cfg.yaml"},
// {"-o (stats.json)", "out/stats.json"}.
struct NamedPath {
  std::string option;
  std::string path;
};

// True when `a` and `b` are, or will be, one regular file: equivalent() for two files that exist, else
// equal weakly_canonical paths. Devices, FIFOs and directories never clash (two outputs on /dev/null).
bool same_output_file(const std::string& a, const std::string& b);

// ConfigError "command line: <output> and <other> name the same file '<path>'" for the first output that
// is an input or an earlier output.
void check_output_paths(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

}  // namespace gms
