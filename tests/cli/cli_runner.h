// Runs the gpumemsys binary as a user would and captures its exit status and output.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

struct CliResult {
  int status = -1;
  std::string out;  // stdout and stderr together
};

inline std::string gms_bin() {
  return std::string(GMS_BINARY_DIR) + "/tb/cli/gpumemsys";
}
inline std::string gms_src(const std::string& rel) {
  return std::string(GMS_SOURCE_DIR) + "/" + rel;
}

// AddressSanitizer reserves terabytes of address space: no address-space limit (ulimit -v) under it.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kCliUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kCliUnderAsan = true;
#else
constexpr bool kCliUnderAsan = false;
#endif
#else
constexpr bool kCliUnderAsan = false;
#endif

// Runs a shell command line (through popen) and captures its exit status and output.
inline CliResult run_shell(const std::string& cmd) {
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline CliResult run_cli(const std::string& args) {
  return run_shell(gms_bin() + " " + args + " 2>&1");
}

// Like run_cli, but a hang (or a flood of warnings) ends after `timeout_s` with a failing status and at most
// 64 KB of output, so a regression fails quickly instead of filling the disk; `ulimit_kib` > 0 limits the
// address space (ulimit -v; not under AddressSanitizer), so that a memory regression fails with bad_alloc
// instead of eating the machine.
inline CliResult run_bounded(const std::string& args, uint64_t ulimit_kib = 0, unsigned timeout_s = 30) {
  const std::string limit =
      ulimit_kib && !kCliUnderAsan ? "ulimit -v " + std::to_string(ulimit_kib) + " && " : std::string();
  return run_shell("bash -o pipefail -c \"" + limit + "timeout -s KILL " + std::to_string(timeout_s) + " " +
                   gms_bin() + " " + args + " 2>&1 | head -c 65536\"");
}

inline size_t count_lines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// A run refused for bad input: exit 2 and exactly one line, `gpumemsys: error: ` followed by `expect`.
#define EXPECT_INPUT_ERROR(r, expect)                                                      \
  do {                                                                                     \
    EXPECT_EQ((r).status, 2) << (r).out.substr(0, 2000);                                   \
    EXPECT_NE((r).out.find("gpumemsys: error: " + std::string(expect)), std::string::npos) \
        << "expected '" << (expect) << "' in:\n"                                           \
        << (r).out.substr(0, 2000);                                                        \
    EXPECT_EQ(count_lines((r).out), 1u) << (r).out.substr(0, 2000);                        \
  } while (0)

// The number in the run summary's row `name` (e.g. "simulated time"); -1 if absent.
inline double summary_value(const std::string& out, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex("  " + name + " +([0-9.]+) ")) || m.size() < 2) return -1;
  return std::stod(m[1].str());
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

inline std::string temp_dir(const std::string& name) {
  std::string d = std::string(GMS_BINARY_DIR) + "/test-tmp/" + name;
  std::system(("rm -rf '" + d + "' && mkdir -p '" + d + "'").c_str());
  return d;
}

// A run's stats.csv (name,value,... rows) as a map name -> value.
inline std::map<std::string, double> read_stats_csv(const std::string& dir) {
  std::map<std::string, double> s;
  std::istringstream csv(read_file(dir + "/stats.csv"));
  std::string line;
  std::getline(csv, line);  // header
  while (std::getline(csv, line)) {
    const size_t a = line.find(','), b = line.find(',', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    s[line.substr(0, a)] = std::stod(line.substr(a + 1, b - a - 1));
  }
  return s;
}
