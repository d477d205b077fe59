// Accel-Sim traces (the NVBit tracer's kernelslist.g + kernel-N.traceg[.xz|.gz]) as a gms::Workload.
// kernelslist.g is read when loading (it is small): MemcpyHtoD lines are skipped and counted, kernel lines
// name trace files relative to the list's folder and must exist. Each kernel file is opened only when the
// kernel starts and is streamed thread block by thread block (tb/traces/accelsim_kernel.h).
#pragma once
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/common/workload.h"
#include "tb/traces/accelsim_stats.h"

namespace gms {

class InputFile;  // models/common/bounded_input.h

class AccelSimWorkload : public Workload {
 public:
  // `kernel_files` are full paths; `display_names` how kernelslist.g names them.
  AccelSimWorkload(std::string name, std::vector<std::string> kernel_files,
                   std::vector<std::string> display_names, uint64_t memcpys);
  std::string name() const override { return name_; }
  std::unique_ptr<KernelSource> next_kernel() override;

  const std::vector<std::string>& kernel_files() const { return files_; }
  // Import counts so far (complete once every kernel has run): per kernel, total, unsupported opcodes.
  const AccelImportStats& import_stats() const { return *stats_; }
  // Registers group `accelsim` in the statistics tree below `parent` (e.g. GpuSystem::stats()).
  void attach_stats(StatGroup& parent) { stats_->attach(parent); }
  // Human-readable summary of the import, including every unsupported opcode and its count.
  void report(std::ostream& os) const { stats_->report(os); }

 private:
  std::string name_;
  std::vector<std::string> files_, display_;
  std::shared_ptr<AccelImportStats> stats_;
  size_t next_ = 0;
};

// Loads a kernelslist.g, the folder holding one, or a single kernel-N.traceg[.xz|.gz] file.
// ConfigError "FILE:LINE: ..." for an unreadable list, an unknown line or a missing kernel file.
std::unique_ptr<Workload> load_accelsim_workload(const std::string& kernelslist_or_folder);

// True for a kernelslist.g (recognised by content: MemcpyHtoD lines and kernel-N.traceg lines), a folder
// containing kernelslist.g, or a kernel trace file (first line "-kernel name = ..."). Never throws. Reads
// a bounded prefix (kSniffBytes) of a plain file, the first lines of a compressed one.
bool looks_like_accelsim(const std::string& path);
// The same for a file already open: its peeked first bytes (a compressed kernel trace of a regular file is
// opened again by path to read its first line).
bool looks_like_accelsim(InputFile& in);

}  // namespace gms
