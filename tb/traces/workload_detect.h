// `-w PATH`: a workload of any kind, recognised by content. A YAML document with top key `workload:`
// (synthetic, docs/workloads.md), a native trace (text or binary, by magic; docs/trace-format.md), or an
// Accel-Sim trace (kernelslist.g or its folder), or a kernel port's name (`rodinia/bfs`, with sizes after a
// colon; tb/kernels/port_loader.h) that is no existing path. Anything else is a ConfigError naming the file.
//
// The input is opened once and only its first kSniffBytes (models/common/bounded_input.h) are read to tell
// the kind; the reader then takes the open input, so `-w /dev/stdin` from a pipe works and `-w /dev/zero`
// fails on its first bytes. YAML is loaded under kYamlInputLimit; traces are streamed.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "models/common/workload.h"

namespace gms {

class InputFile;

enum class WorkloadKind { Yaml, NativeText, NativeBinary, AccelSim, Port };
const char* to_string(WorkloadKind k);

// What the path holds; ConfigError when it is none of the above or cannot be read.
WorkloadKind detect_workload_kind(const std::string& path);
std::unique_ptr<Workload> load_any_workload(const std::string& path);

// `-w PATH` opened once: null for a folder (read by path) or a port name, else the file (sniff with peek()).
std::unique_ptr<InputFile> open_workload_input(const std::string& path);
// The same on an input from open_workload_input (`in` null: the folder `path`).
WorkloadKind detect_workload_kind(const std::string& path, InputFile* in);
std::unique_ptr<Workload> load_any_workload(const std::string& path, std::unique_ptr<InputFile> in);

// The first bytes of a `programs:` document (tb/system/multi_program.h): its first key is `programs:`.
bool looks_like_programs(std::string_view head);

}  // namespace gms
