#include "tb/system/multi_program.h"

#include <filesystem>
#include <fstream>
#include <set>

#include "models/common/config.h"
#include "tb/traces/workload_detect.h"

namespace gms {

bool is_multi_program_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line.find_first_not_of(" \t\r") == std::string::npos) continue;
    return line.rfind("programs:", 0) == 0;  // the first key of the document
  }
  return false;
}

LoadedPrograms load_multi_program(const std::string& path, unsigned total_sms) {
  ConfigNode doc = ConfigNode::load_file(path);
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::vector<ConfigNode> list = doc.list("programs");
  if (list.empty()) doc.fail("programs", "expected a non-empty list of programs");
  LoadedPrograms out;
  std::set<std::string> names;
  unsigned used = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const ConfigNode& p = list[i];
    std::string name = p.get_string("name", "program" + std::to_string(i));
    if (!names.insert(name).second) p.fail("name", "duplicate program name '" + name + "'");
    std::string wl = p.require_string("workload");
    unsigned sms = unsigned(p.require_uint("sms", 1, 4096));
    used += sms;
    if (used > total_sms)
      p.fail("sms", "the programs need " + std::to_string(used) + " SMs, the system has " +
                        std::to_string(total_sms));
    p.finish();
    std::filesystem::path wp(wl);
    if (wp.is_relative()) wp = dir / wp;
    out.workloads.push_back(std::make_unique<CountingWorkload>(load_any_workload(wp.string())));
    out.specs.push_back(ProgramSpec{name, out.workloads.back().get(), sms});
  }
  doc.finish();
  return out;
}

}  // namespace gms
