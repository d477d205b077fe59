// Multi-program workloads: several applications sharing the GPU, each on its own SMs. A YAML document
// with the top key `programs:` lists them; each names a workload of any kind (-w rules) and its SM count.
//   programs:
//     - name: stencil
//       workload: stencil.yaml     # relative to this file
//       sms: 8
//     - name: spmv
//       workload: traces/kernelslist.g
//       sms: 7
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tb/system/gpu_system.h"
#include "tb/traces/kernel_counts.h"

namespace gms {

class InputFile;  // models/common/bounded_input.h

struct LoadedPrograms {
  std::vector<std::unique_ptr<CountingWorkload>> workloads;  // per-kernel counts per program
  std::vector<ProgramSpec> specs;
  std::vector<std::string> workload_paths;  // each program's workload file (as opened), for output checks
};

// True for a YAML document whose top key is `programs` (never throws; reads at most kSniffBytes).
bool is_multi_program_file(const std::string& path);
// Loads and checks the list (names unique, at least one SM each, total <= total_sms): ConfigError otherwise.
// The document is read in bounded memory (kYamlInputLimit); the InputFile form takes `-w` already open.
LoadedPrograms load_multi_program(const std::string& path, unsigned total_sms);
LoadedPrograms load_multi_program(InputFile& in, unsigned total_sms);

}  // namespace gms
