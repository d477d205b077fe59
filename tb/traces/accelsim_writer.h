// Writes any Workload as an Accel-Sim trace folder (docs/accelsim-import.md, "Writing"): kernelslist.g and
// one kernel-N.traceg per kernel, tracer version 5, so that Accel-Sim and other trace-driven simulators run
// the streams GPUMemSys runs. Each warp instruction becomes its `gap` compute lines (IMAD) and one LDG/STG or
// BAR.SYNC line; every warp ends with EXIT. Register operands are chosen so that this project's importer
// (tb/traces/load_dependences.h) reads back the same waits_on, writes and wait_gap wherever the trace
// format can say it; write() counts the instructions where it cannot.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/common/workload.h"
#include "tb/traces/load_dependences.h"

namespace gms {

struct AccelWriteCounts {
  uint64_t kernels = 0, ctas = 0, warps = 0, instructions = 0;  // the workload's (warp instructions)
  uint64_t lines = 0;         // instruction lines written (compute and EXIT lines included)
  uint64_t inexact_deps = 0;  // instructions whose waits_on/writes/wait_gap the importer reads differently
};

// Accel-Sim's version of the trace lines and the binary version (the ISA: 75, Turing) in every header.
constexpr unsigned kAccelWriteTracerVersion = 5;
constexpr unsigned kAccelWriteBinaryVersion = 75;

// The lines of one warp: feed its instructions in program order, then take the text.
class AccelWarpWriter {
 public:
  // A new warp; `exit_mask` = its lanes that hold threads (the EXIT line's mask).
  void reset(uint32_t exit_mask);
  // Adds an instruction. Throws std::invalid_argument for what the format cannot hold (an atomic, a
  // width other than 1, 2, 4, 8, 16, a load or store with no active lane).
  void add(const WarpInst& in);
  // Ends the warp (EXIT) and appends "insts = N" and its lines to `out`.
  void finish(std::string& out);
  uint64_t lines() const { return lines_; }
  uint64_t inexact_deps() const { return inexact_; }

 private:
  // A compute, barrier or EXIT line not yet written: the registers of compute lines are chosen when the
  // next load or store comes (the importer carries its dependence tracking across barriers).
  struct Line {
    uint64_t pc = 0;
    uint32_t mask = 0;
    const char* opcode = "";
    RegSet dsts, srcs;
  };
  void add_compute(const WarpInst& in);
  void flush_pending();
  void put_line(const Line& l);

  std::string body_;             // the warp's lines written so far
  uint64_t lines_ = 0;           // lines in body_
  std::vector<Line> pending_;    // lines since the last load or store
  std::vector<size_t> compute_;  // the compute lines among them (indices into pending_)
  LoadDependences deps_;         // what the importer makes of the lines so far
  uint32_t exit_mask_ = 0;
  uint64_t last_pc_ = 0;
  uint64_t inexact_ = 0;
};

class AccelSimWriter {
 public:
  // `dir` is created when missing (its parent must exist); an existing path that is not a folder is a
  // ConfigError. `check_output(path)` is called with every file's path before it is opened (the CLI's
  // output-versus-input check).
  explicit AccelSimWriter(std::string dir, std::function<void(const std::string&)> check_output = {});
  // Writes every kernel (pulling the workload to its end), then kernelslist.g. Each file is written to a
  // temporary renamed over its path when complete. ConfigError for a path that cannot be opened or an
  // instruction the format cannot hold; OutputError when a write fails.
  AccelWriteCounts write(Workload& workload);

 private:
  std::string dir_;
  std::function<void(const std::string&)> check_;
};

}  // namespace gms
