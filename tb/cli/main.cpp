// gpumemsys: runs a GPU memory system on a workload and reports. Exit status (docs/errors.md): 0 success,
// 2 bad input (configuration, workload, trace, command line, an output path that cannot be opened), 3 the
// simulation failed (deadlock, lost response, data mismatch) or an output file could not be written.
#include <systemc>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "models/common/bounded_input.h"
#include "models/common/config.h"
#include "models/common/output_file.h"
#include "models/system/system_config.h"
#include "tb/checker/golden_memory.h"
#include "tb/cli/cli_options.h"
#include "tb/cli/huge_page_heap.h"
#include "tb/cli/kernels_cmd.h"
#include "tb/cli/output_paths.h"
#include "tb/cli/rd_cmd.h"
#include "tb/cli/trace_record_cmd.h"
#include "tb/system/gpu_system.h"
#include "tb/system/multi_program.h"
#include "tb/system/presets.h"
#include "tb/system/run_summary.h"
#include "tb/traces/accelsim_workload.h"
#include "tb/traces/kernel_counts.h"
#include "tb/traces/workload_detect.h"
#include "tb/workloads/workload_loader.h"

namespace {

// No output may overwrite an input (-c, -w and the files it names) or another output: checked before any
// output is opened.
void check_run_paths(const gms::CliOptions& o, const gms::LoadedPrograms& programs,
                     const gms::AccelSimWorkload* accel) {
  std::vector<gms::NamedPath> inputs = {{"-c", o.config_path}, {"-w", o.workload_path}};
  std::error_code ec;
  if (std::filesystem::is_directory(o.workload_path, ec))  // an Accel-Sim folder
    inputs.push_back({"-w", o.workload_path + "/kernelslist.g"});
  for (const std::string& f : programs.workload_paths) inputs.push_back({"-w (a workload it names)", f});
  if (accel)
    for (const std::string& f : accel->kernel_files()) inputs.push_back({"-w (a kernel trace it lists)", f});
  std::vector<gms::NamedPath> outputs;
  for (const char* name : {"stats.json", "stats.csv", "llc_timeline.txt"})
    outputs.push_back({std::string("-o (") + name + ")", o.out_dir + "/" + name});
  if (!o.vcd_path.empty()) outputs.push_back({"--vcd", o.vcd_path});
  gms::check_output_paths(inputs, outputs);
}

int run(const gms::CliOptions& o) {
  const auto started = std::chrono::steady_clock::now();  // set-up time includes reading the inputs
  gms::ConfigNode cfg_doc = o.embedded_default
                                ? gms::ConfigNode::load_string(gms::embedded_fermi_yaml(), "<embedded fermi>")
                                : gms::ConfigNode::load_file(o.config_path);
  for (const auto& s : o.sets) cfg_doc.apply_override(s);
  gms::SystemConfig cfg = gms::SystemConfig::from(cfg_doc);
  // Counts per kernel (statistics group `workload`) whatever the workload's kind (-w is recognised by
  // content); a `programs:` document runs several workloads side by side, each on its own SMs.
  // -w is opened once and sniffed from its first bytes: a pipe or FIFO works, /dev/zero fails at once.
  std::unique_ptr<gms::InputFile> wl_in =
      o.embedded_default ? nullptr : gms::open_workload_input(o.workload_path);
  const bool multi = wl_in && gms::looks_like_programs(wl_in->peek(gms::kSniffBytes));
  gms::LoadedPrograms programs;
  std::unique_ptr<gms::CountingWorkload> workload;
  if (multi) {
    programs = gms::load_multi_program(*wl_in, cfg.sm.count);
  } else {
    workload = std::make_unique<gms::CountingWorkload>(
        o.embedded_default ? gms::load_workload(gms::ConfigNode::load_string(
                                 gms::embedded_default_workload_yaml(), "<embedded workload>"))
                           : gms::load_any_workload(o.workload_path, std::move(wl_in)));
  }
  auto* accel = workload ? dynamic_cast<gms::AccelSimWorkload*>(&workload->inner()) : nullptr;
  check_run_paths(o, programs, accel);

  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) throw gms::ConfigError(o.out_dir + ": cannot create output directory: " + ec.message());
  // Opened before the run: a path that cannot be written is bad input, found before the simulation. Each
  // is a temporary renamed over the old file only once the run is over and every output is written (an
  // error on the way, exit 2 included, leaves the old files as they were).
  gms::OutputFile json_file(o.out_dir + "/stats.json"), csv_file(o.out_dir + "/stats.csv");
  gms::OutputFile timeline_file(o.out_dir + "/llc_timeline.txt");  // kept only if the organisation changed

  gms::RunOptions ro;
  ro.started = started;
  ro.vcd_path = o.vcd_path;
  ro.traces = gms::TraceSelector::split_globs(o.trace_globs);
  ro.trace_from_ps = o.trace_from_ps;
  ro.trace_to_ps = o.trace_to_ps;
  ro.check_data = o.check_data;
  ro.progress = !o.quiet;
  auto system = multi ? std::make_unique<gms::GpuSystem>(cfg, programs.specs, ro)
                      : std::make_unique<gms::GpuSystem>(cfg, *workload, ro);
  gms::GpuSystem& sys = *system;
  if (multi)
    for (size_t i = 0; i < programs.workloads.size(); ++i)
      programs.workloads[i]->attach(sys.program_stats(i));
  else
    workload->attach(sys.stats());
  if (accel) accel->attach_stats(sys.stats());
  sys.check_trace_selection();
  gms::RunResult res = sys.run();

  // A failed simulation (res.error) still writes its statistics and VCD: they help find the cause.
  std::ostringstream js, cs;
  sys.stats().write_json(js);
  sys.stats().write_csv(cs);
  json_file.write(js.str());
  json_file.finish();
  csv_file.write(cs.str());
  csv_file.finish();
  const bool timeline = sys.llc_timeline().size() > 1;  // the organisation changed: write its timeline
  if (timeline) {
    for (const std::string& line : sys.llc_timeline()) timeline_file.write(line + "\n");
    timeline_file.finish();
  }
  sys.close_trace();  // the VCD, renamed over its path
  json_file.commit();
  csv_file.commit();
  if (timeline) timeline_file.commit();
  gms::print_summary(std::cout, sys.stats(), res, sys.checker());
  gms::print_memory_summary(std::cout, cfg);
  if (accel) accel->report(std::cout);
  std::cout << "  statistics written to " << o.out_dir << "/stats.json and stats.csv\n";
  if (!res.error.empty()) {
    std::cerr << "gpumemsys: simulation failed: " << res.error << "\n";
    return 3;
  }
  if (sys.mismatches() > 0) {
    std::cerr << "gpumemsys: data check failed:\n";
    for (size_t i = 0; i < sys.programs(); ++i)
      if (sys.checker(i) && sys.checker(i)->mismatches() > 0) sys.checker(i)->print_report(std::cerr);
    return 3;
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  gms::reexec_with_huge_page_heap(argv);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  // sc_stop() (a workload error found mid-run) would print an Info line before our one-line error.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  try {
    gms::CliOptions o = gms::parse_cli(argc, argv);
    if (o.command == "help") {
      std::cout << gms::cli_usage();
      return 0;
    }
    if (o.command == "record") return gms::run_trace_record(o);
    if (o.command == "rd") return gms::run_rd_command(argc, argv);
    if (o.command == "kernels") return gms::run_kernels_command(argc, argv);
    return run(o);
  } catch (const gms::ConfigError& e) {
    std::cerr << "gpumemsys: error: " << e.what() << "\n";
    return 2;
  } catch (const gms::OutputError& e) {
    std::cerr << "gpumemsys: error: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    // An exception thrown inside a SystemC process arrives wrapped in a multi-line sc_report: keep the
    // original message, one line.
    std::string what = e.what();
    const std::string tag = "uncaught exception: ";
    if (auto p = what.find(tag); p != std::string::npos) what = what.substr(p + tag.size());
    if (auto nl = what.find('\n'); nl != std::string::npos) what.resize(nl);
    std::cerr << "gpumemsys: simulation failed: " << what << "\n";
    return 3;
  }
}

// Our own main so the SystemC banner is off before the kernel prints it: an error stays one line.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
