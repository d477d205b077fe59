// Runs the gpumemsys binary as a user would and captures its exit status and output.
#pragma once
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
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

inline CliResult run_cli(const std::string& args) {
  CliResult r;
  std::string cmd = gms_bin() + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
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
