#include "tb/system/multi_program.h"

#include <filesystem>
#include <set>

#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "models/common/text_excerpt.h"
#include "tb/checker/program_footprints.h"
#include "tb/traces/workload_detect.h"

namespace gms {

namespace {

// Program i's workload, loaded: every problem with it is reported at its `programs[i].workload` line.
std::unique_ptr<Workload> load_program_workload(const ConfigNode& p, const std::string& programs_file,
                                                std::vector<std::string>& paths) {
  const std::string wl = p.require_string("workload");
  std::filesystem::path wp(wl);
  if (wp.is_relative()) wp = std::filesystem::path(programs_file).parent_path() / wp;
  paths.push_back(wp.string());
  std::error_code ec;
  if (!std::filesystem::exists(wp, ec)) p.fail("workload", quote_excerpt(wl, 120) + " not found");
  std::unique_ptr<InputFile> in;  // opened once: a FIFO is read once
  try {
    in = open_workload_input(wp.string());
  } catch (const ConfigError& e) {
    p.fail("workload", e.what());
  }
  if (in && looks_like_programs(in->peek(kSniffBytes))) {
    const bool self = std::filesystem::equivalent(wp, programs_file, ec);
    p.fail("workload", "a programs file cannot include programs files (" +
                           (self ? escape_excerpt(programs_file, 120) + " includes itself"
                                 : quote_excerpt(wl, 120) + " is one") +
                           ")");
  }
  try {
    return load_any_workload(wp.string(), std::move(in));
  } catch (const ConfigError& e) {
    p.fail("workload", e.what());
  }
}

}  // namespace

bool is_multi_program_file(const std::string& path) {
  try {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return false;
    InputFile in(path);
    return looks_like_programs(in.peek(kSniffBytes));
  } catch (const ConfigError&) {
    return false;
  }
}

LoadedPrograms load_multi_program(const std::string& path, unsigned total_sms) {
  InputFile in(path);
  return load_multi_program(in, total_sms);
}

LoadedPrograms load_multi_program(InputFile& in, unsigned total_sms) {
  const std::string path = in.path();
  ConfigNode doc = ConfigNode::load_input(in, "programs file");
  std::vector<ConfigNode> list = doc.list("programs");
  if (list.empty()) doc.fail("programs", "expected a non-empty list of programs");
  LoadedPrograms out;
  std::set<std::string> names;
  std::vector<std::string> labels;
  std::vector<std::vector<AddressRange>> footprints(list.size());
  std::vector<bool> declared(list.size());
  std::vector<std::unique_ptr<Workload>> loaded;
  unsigned used = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const ConfigNode& p = list[i];
    std::string name = p.get_string("name", "program" + std::to_string(i));
    if (!names.insert(name).second) p.fail("name", "duplicate program name " + quote_excerpt(name));
    labels.push_back(quote_excerpt(name) + " (programs[" + std::to_string(i) + "])");
    unsigned sms = unsigned(p.require_uint("sms", 1, 4096));
    used += sms;
    if (used > total_sms)
      p.fail("sms", "the programs need " + std::to_string(used) + " SMs, the system has " +
                        std::to_string(total_sms));
    // Paper 004 section 4.1: co-running programs may each see their own LLC organisation.
    const std::string llc_mode =
        p.has("llc_mode") ? p.get_choice("llc_mode", "shared", {"shared", "private"}) : "";
    loaded.push_back(load_program_workload(p, path, out.workload_paths));
    p.finish();
    // Overlapping memory is found here when both programs know their footprint, else during the run.
    declared[i] = loaded.back()->footprint(footprints[i]);
    for (size_t j = 0; declared[i] && j < i; ++j)
      if (declared[j])
        if (auto o = first_overlap(footprints[j], footprints[i]))
          p.fail("workload", "the memory of program " + labels[i] + " overlaps program " + labels[j] +
                                 " at " + to_string(*o) + ": programs must use disjoint memory");
    out.specs.push_back(ProgramSpec{name, nullptr, sms, llc_mode});
  }
  doc.finish();
  auto shared = std::make_shared<ProgramFootprints>(path, labels);
  for (size_t i = 0; i < loaded.size(); ++i) {
    out.workloads.push_back(
        std::make_unique<CountingWorkload>(guard_footprint(std::move(loaded[i]), shared, unsigned(i))));
    out.specs[i].workload = out.workloads.back().get();
  }
  return out;
}

}  // namespace gms
