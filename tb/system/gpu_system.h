// Runs workloads on the GPU memory system (models/system: GpuMemSys, which builds and binds the blocks) to
// completion: the run loop with its limits (system.max_time_us, the system.watchdog_us livelock watchdog,
// deadlock), the drain of in-flight traffic, the progress line, the golden-memory checkers, the VCD and the
// whole-system totals (statistics group `system`).
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "models/common/stats.h"
#include "models/common/trace.h"
#include "models/common/workload.h"
#include "models/system/system_config.h"

namespace gms {

class GpuMemSys;
class BackingStore;
class GoldenMemory;
class WorkloadFence;

struct RunOptions {
  std::string vcd_path;                                  // empty = no VCD
  std::vector<std::string> traces;                       // block-name globs traced into the VCD
  uint64_t trace_from_ps = 0, trace_to_ps = UINT64_MAX;  // the simulated-time window the VCD keeps
  bool check_data = true;                                // golden-memory check of every load
  bool progress = true;                                  // progress line on stderr for long runs
  // When the caller started setting up (reading the configuration and the workload); the default, the
  // epoch, means the GpuSystem constructor. The summary's set-up time counts from here.
  std::chrono::steady_clock::time_point started{};
};

// One application of a multi-program run: its workload runs on its own `num_sms` SMs (programs take
// consecutive SMs in order), with its own CTA dispatcher, kernel boundaries and golden-memory checker.
// Programs must use disjoint memory (separate address spaces).
struct ProgramSpec {
  std::string name;
  Workload* workload = nullptr;
  unsigned num_sms = 0;
  // This program's LLC organisation (programs file key `llc_mode`: shared | private); empty = llc.mode.
  std::string llc_mode;
};

struct RunResult {
  bool finished = false;
  double sim_time_ns = 0;
  double elaboration_seconds = 0;  // wall-clock set-up: RunOptions::started (or construction) to run()
  double wall_seconds = 0;         // wall-clock time of the simulation (run())
  // The process's CPU time during run(), user and system (page faults, mostly): on a shared machine the
  // steadier figure, and the split shows what wall time paid for (docs/presets.md "Speed").
  double user_seconds = 0, sys_seconds = 0;
  std::string error;  // deadlock / livelock / unanswered requests
};

class GpuSystem {
 public:
  GpuSystem(const SystemConfig& cfg, Workload& workload, const RunOptions& opt);
  // Several programs sharing the GPU, each on its own SMs (ProgramSpec).
  GpuSystem(const SystemConfig& cfg, const std::vector<ProgramSpec>& programs, const RunOptions& opt);
  ~GpuSystem();
  GpuSystem(const GpuSystem&) = delete;
  GpuSystem& operator=(const GpuSystem&) = delete;

  RunResult run();

  StatGroup& stats() { return root_; }
  // The LLC organisation's timeline (LlcModeController::timeline): initial mode, switch requests, switches.
  const std::vector<std::string>& llc_timeline() const;
  BackingStore& memory();
  GpuMemSys& memory_system() { return *mem_; }
  GoldenMemory* checker() { return checkers_.empty() ? nullptr : checkers_[0].get(); }
  // Per program (one for a single workload); the statistics parent of program i (the root if single).
  GoldenMemory* checker(size_t program) {
    return program < checkers_.size() ? checkers_[program].get() : nullptr;
  }
  size_t programs() const { return programs_.size(); }
  StatGroup& program_stats(size_t program);
  // Total data mismatches over all programs' checkers.
  uint64_t mismatches() const;
  const SystemConfig& config() const { return cfg_; }
  // Every block that counts requests and responses has equal counts; otherwise lists the offenders.
  bool all_requests_answered(std::string* report) const;
  // What the run waits for, one line (the watchdog's and the drain's errors).
  std::string outstanding_summary() const;

  // --vcd: ConfigError if a --trace glob selects no block (call before run()).
  void check_trace_selection() const;
  // --vcd: writes the values pending at the end of the run, closes the VCD and renames it over its path
  // (OutputError if a write failed). The file ends at the run's end: when the last warp finished (the
  // summary's simulated time) or the last response of traffic that drained after it, or the last change
  // traced; a failed run's where it stopped. Call after run(); nothing without --vcd.
  void close_trace();

 private:
  void add_system_formulas();
  uint64_t completed_requests() const;
  sc_core::sc_time last_completion() const;  // the last response an SM received (the run's start if none)
  double total_responses() const;            // responses counted by every block: moves while traffic moves
  bool model_pending() const;                // the model (not a background clock) has an event pending
  sc_core::sc_time next_pending() const;     // the model's next pending instant (model_pending() holds)
  void step_towards(const sc_core::sc_time& limit);
  void drain(RunResult& res);
  double finish_ps() const;  // when the last warp finished (now, while running)
  bool all_done() const;
  void throw_input_errors() const;  // a workload's bad input found during the run -> ConfigError

  std::chrono::steady_clock::time_point build_start_ = std::chrono::steady_clock::now();
  SystemConfig cfg_;
  RunOptions opt_;
  std::vector<ProgramSpec> programs_;
  std::vector<std::unique_ptr<StatGroup>> program_groups_;
  std::vector<std::unique_ptr<WorkloadFence>> fences_;  // one per program: input errors found mid-run
  StatGroup root_{"gpumemsys"};
  std::unique_ptr<StatGroup> sys_stats_;
  std::unique_ptr<TraceSelector> trace_;
  std::vector<std::unique_ptr<GoldenMemory>> checkers_;
  std::unique_ptr<GpuMemSys> mem_;  // the module "gpu" (its blocks: gpu.sm0, gpu.l1_0, ...)
  sc_core::sc_time run_start_;
};

}  // namespace gms
